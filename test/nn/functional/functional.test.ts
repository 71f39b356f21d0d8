// torch.nn.functional's wrappers for convolution, pooling, normalization and vision (engine/nn/functional/)
// against PyTorch 1.13's Python functions (fixtures/nn_functional.json, written by
// fixtures/gen_nn_functional.py): argument binding with Python's TypeError / ValueError texts,
// boolean_dispatch's choice by return_indices, None output sizes. The values of every wrapper are
// checked by the family suites (test/aten/native/{conv,pooling,normalization,vision}.test.ts), which
// call through torch.nn.functional.
import { describe, it, expect } from "vitest";
import * as torch from "../../../engine/index.js";
import { loadFixture } from "../../support/fixtures.js";
import { describeNnCases } from "../../support/nn_layer_cases.js";

const F = torch.nn.functional as any;
const T = torch as any;

describeNnCases("torch.nn.functional binds arguments as PyTorch's Python does", loadFixture("nn_functional.json"));

describe("torch.nn.functional's builtins are the torch.* functions themselves", () => {
  it("conv1d/conv2d/conv_transpose1d/conv_transpose2d/avg_pool1d/pixel_shuffle/pixel_unshuffle are torch.*'s", () => {
    for (const name of ["conv1d", "conv2d", "conv_transpose1d", "conv_transpose2d", "avg_pool1d", "pixel_shuffle", "pixel_unshuffle"]) {
      expect(F[name], name).toBe(T[name]);
    }
    expect(F.avg_pool2d).toBe(T._C._nn.avg_pool2d);
  });
  it("exports every wrapper of the four families", () => {
    const names = ["conv1d", "conv2d", "conv_transpose1d", "conv_transpose2d", "max_pool1d", "max_pool2d", "avg_pool1d", "avg_pool2d",
      "adaptive_avg_pool2d", "adaptive_max_pool2d", "batch_norm", "instance_norm", "layer_norm", "group_norm", "interpolate",
      "pixel_shuffle", "pixel_unshuffle", "unfold", "fold"];
    for (const n of names) expect(typeof F[n], n).toBe("function");
  });
  it("batch_norm updates the running statistics it is given, in place", () => {
    const x = torch.arange(12, { dtype: torch.float32 }).reshape(3, 4);
    const rm = torch.zeros(4), rv = torch.ones(4);
    const v = rm._version;
    F.batch_norm(x, rm, rv, { training: true, momentum: 0.5 });
    expect(rm.tolist()).toEqual([2, 2.5, 3, 3.5]); // 0.5 * mean + 0.5 * 0
    expect(rv.tolist()).toEqual([8.5, 8.5, 8.5, 8.5]); // 0.5 * unbiased var 16 + 0.5 * 1
    expect(rm._version).toBe(v); // written by the kernel as PyTorch's is, no version bump
  });
});
