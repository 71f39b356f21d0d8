// nn.Transformer, TransformerEncoder/Decoder and their layers.
// Replayed against PyTorch 1.13 (test/fixtures/gen_nn_seq.py -> nn_seq.json): seeded construction
// (parameter names, shapes, exact values), str(module), forward values and gradients of parameters and
// inputs for a stored upstream gradient, error types and texts (test/support/seq_cases.ts: replay).
// Tolerance for outputs and gradients: float32 round-off, |d| <= 1e-5 + 1e-5*|expected| (summation order
// in matmul/bmm differs from MKL's); parameters after seeding are compared exactly.
import { describe, it, expect } from "vitest";
import * as torch from "../../engine/index.js";
import { loadFixture } from "../support/fixtures.js";
import { expectExact, replay, replayErrors, z } from "../support/seq_cases.js";

const fx = loadFixture("nn_seq.json");
const nn = (torch as any).nn;

describe("nn.Transformer family vs PyTorch 1.13", () => {
  for (const c of fx.transformer) it(c.name, () => replay(c));

  replayErrors(fx.transformer_errors, () => {
    const t = () => new nn.Transformer({ d_model: 8, nhead: 2, num_encoder_layers: 1, num_decoder_layers: 1, dim_feedforward: 16, dropout: 0.0 });
    return {
      "Transformer batch mismatch": () => t()(z(5, 2, 8), z(4, 3, 8)),
      "Transformer d_model mismatch": () => t()(z(5, 2, 8), z(4, 2, 6)),
      "EncoderLayer bad activation": () => new nn.TransformerEncoderLayer(8, 2, { activation: "tanh" }),
    };
  });

  it("generate_square_subsequent_mask: float -inf above the diagonal", () => {
    for (const [n, v] of Object.entries<any>(fx.square_masks)) {
      const mask = nn.Transformer.generate_square_subsequent_mask(Number(n));
      expect(mask.dtype).toBe(torch.float32);
      expectExact(mask, v, `mask ${n}`);
    }
  });

  it("TransformerEncoder's layers are copies: equal values, separate storage", () => {
    torch.manual_seed(0);
    const layer = new nn.TransformerEncoderLayer(8, 2, { dim_feedforward: 16 });
    const enc = new nn.TransformerEncoder(layer, 2);
    const w0 = enc.layers[0].linear1.weight;
    const w1 = enc.layers[1].linear1.weight;
    expect(w0.tolist()).toEqual(layer.linear1.weight.tolist());
    expect(w1.tolist()).toEqual(layer.linear1.weight.tolist());
    expect(w0.data_ptr()).not.toBe(w1.data_ptr());
    expect(w0.data_ptr()).not.toBe(layer.linear1.weight.data_ptr());
  });

  it("activation as a callable: F.gelu is the 'gelu' layer; any other function is called as is", () => {
    const F = nn.functional;
    const x = torch.randn(4, 2, 8);
    const make = (activation: unknown) => {
      torch.manual_seed(0);
      return new nn.TransformerEncoderLayer(8, 2, { dim_feedforward: 16, dropout: 0.0, activation });
    };
    const byName = make("gelu");
    const byFn = make(F.gelu);
    expect([byName.activation_relu_or_gelu, byFn.activation_relu_or_gelu, make(F.relu).activation_relu_or_gelu]).toEqual([2, 2, 1]);
    expect(byFn(x).tolist()).toEqual(byName(x).tolist());
    let calls = 0;
    const custom = make((t: any) => {
      calls++;
      return F.gelu(t);
    });
    expect(custom.activation_relu_or_gelu).toBe(0);
    expect(custom(x).tolist()).toEqual(byName(x).tolist());
    expect(calls).toBe(1);
  });
});
