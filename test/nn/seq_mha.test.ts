// nn.MultiheadAttention (1.13's slow path).
// Replayed against PyTorch 1.13 (test/fixtures/gen_nn_seq.py -> nn_seq.json): seeded construction
// (parameter names, shapes, exact values), str(module), forward values and gradients of parameters and
// inputs for a stored upstream gradient, error types and texts (test/support/seq_cases.ts: replay).
// Tolerance for outputs and gradients: float32 round-off, |d| <= 1e-5 + 1e-5*|expected| (summation order
// in matmul/bmm differs from MKL's); parameters after seeding are compared exactly.
import { describe, it, expect } from "vitest";
import * as torch from "../../engine/index.js";
import { loadFixture } from "../support/fixtures.js";
import { replay, replayErrors, z } from "../support/seq_cases.js";

const fx = loadFixture("nn_seq.json");
const nn = (torch as any).nn;

describe("nn.MultiheadAttention vs PyTorch 1.13", () => {
  for (const c of fx.mha) it(c.name, () => replay(c));

  replayErrors(fx.mha_errors, () => {
    const m = new nn.MultiheadAttention(8, 2);
    const q = z(3, 2, 8);
    return {
      "MHA embed_dim not divisible": () => new nn.MultiheadAttention(8, 3),
      "MHA wrong query embed": () => m(z(3, 2, 7), z(3, 2, 7), z(3, 2, 7)),
      "MHA 2-D attn_mask wrong shape": () => m(q, q, q, { attn_mask: z(3, 4) }),
      "MHA 3-D attn_mask wrong shape": () => m(q, q, q, { attn_mask: z(2, 3, 3) }),
      "MHA 4-D attn_mask": () => m(q, q, q, { attn_mask: z(1, 1, 3, 3) }),
      "MHA key value mismatch": () => m(q, z(4, 2, 8), z(5, 2, 8)),
      "MHA unbatched query batched key": () => m(z(3, 8), q, q),
      "MHA int attn_mask": () => m(q, q, q, { attn_mask: torch.zeros(3, 3, { dtype: torch.int64 }) }),
    };
  });
});
