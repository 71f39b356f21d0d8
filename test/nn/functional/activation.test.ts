// torch.nn.functional's activations, softmax family and dropout functions against PyTorch 1.13
// (fixtures/activation.json "functional", written by fixtures/gen_activation.py): results, in-place
// behaviour, implicit softmax dims and their warnings, dropout masks under torch.manual_seed, errors.
import { describe, it, expect } from "vitest";
import * as torch from "../../../engine/index.js";
import { loadFixture } from "../../support/fixtures.js";
import { describeNNCases } from "../../support/nn_cases.js";

const F = loadFixture("activation.json");

describeNNCases("torch.nn.functional activations match PyTorch", F.functional);

describe("in-place forms return their input and bump its version once", () => {
  const F = torch.nn.functional as any;
  const x = () => torch.tensor(new Float32Array([-1, 0.5, 2, -3]));
  const cases: [string, (t: any) => unknown][] = [
    ["relu", (t) => F.relu(t, { inplace: true })],
    ["relu6", (t) => F.relu6(t, { inplace: true })],
    ["hardtanh", (t) => F.hardtanh(t, { inplace: true })],
    ["elu", (t) => F.elu(t, { inplace: true })],
    ["selu", (t) => F.selu(t, { inplace: true })],
    ["celu", (t) => F.celu(t, { inplace: true })],
    ["leaky_relu", (t) => F.leaky_relu(t, { inplace: true })],
    ["silu", (t) => F.silu(t, { inplace: true })],
    ["mish", (t) => F.mish(t, { inplace: true })],
    ["hardsigmoid", (t) => F.hardsigmoid(t, { inplace: true })],
    ["hardswish", (t) => F.hardswish(t, { inplace: true })],
    ["threshold", (t) => F.threshold(t, 0.1, 5, { inplace: true })],
  ];
  for (const [name, f] of cases) {
    it(name, () => {
      const t = x();
      const v = t._version;
      expect(f(t)).toBe(t);
      expect(t._version).toBe(v + 1);
    });
  }
  it("dropout in eval mode, or with p = 0, returns the input itself", () => {
    const t = x();
    expect(F.dropout(t, { training: false })).toBe(t);
    expect(F.dropout(t, 0)).toBe(t);
    expect(t._version).toBe(0);
  });
  it("in-place dropout writes the mask into its input", () => {
    const t = torch.ones(8);
    torch.manual_seed(0);
    expect(F.dropout(t, 0.5, { inplace: true })).toBe(t);
    torch.manual_seed(0);
    expect(t.tolist()).toEqual(F.dropout(torch.ones(8), 0.5).tolist());
  });
});
