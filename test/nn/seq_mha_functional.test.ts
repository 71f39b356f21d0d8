// F.multi_head_attention_forward replayed against PyTorch 1.13's nn.MultiheadAttention fixtures
// (test/fixtures/gen_nn_seq.py): the module's parameters passed to the functional form as
// MultiheadAttention.forward passes them (batch_first transposes, separate q/k/v weights when kdim/vdim
// differ), forward values, averaged or per-head weights, and gradients of parameters and inputs.
// Tolerance: float32 round-off, |d| <= 1e-5 + 1e-5*|expected|.
import { describe, it, expect } from "vitest";
import * as torch from "../../engine/index.js";
import type { Tensor } from "../../engine/aten/core/Tensor.js";
import { loadFixture } from "../support/fixtures.js";
import { expectClose, fromVal } from "../support/seq_cases.js";

const fx = loadFixture("nn_seq.json");
const F = torch.nn.functional as any;

describe("F.multi_head_attention_forward vs PyTorch 1.13", () => {
  for (const c of fx.mha) {
    it(c.name, () => {
      const [embed_dim, num_heads] = c.args;
      const kw = { dropout: 0, batch_first: false, add_zero_attn: false, ...c.kwargs };
      const P: Record<string, Tensor> = {};
      const params = c.params.map((p: any) => (P[p.name] = fromVal(p, true)));
      const leaves = c.inputs.map((v: any) => (v === null ? null : fromVal(v, true)));
      let [q, k, v] = [leaves[0], leaves[1] ?? leaves[0], leaves[2] ?? leaves[0]] as any[];
      if (kw.batch_first && q.dim() === 3) [q, k, v] = [q.transpose(1, 0), k.transpose(1, 0), v.transpose(1, 0)];
      const ck: any = {};
      for (const [name, val] of Object.entries<any>(c.call_kwargs)) ck[name] = val && typeof val === "object" && "values" in val ? fromVal(val) : val;
      const separate = "q_proj_weight" in P;
      torch.manual_seed(2);
      let [out, w] = F.multi_head_attention_forward(
        q, k, v, embed_dim, num_heads, P.in_proj_weight ?? null, P.in_proj_bias ?? null, P.bias_k ?? null, P.bias_v ?? null, kw.add_zero_attn,
        kw.dropout, P["out_proj.weight"], P["out_proj.bias"] ?? null,
        {
          training: c.train, key_padding_mask: ck.key_padding_mask ?? null, need_weights: ck.need_weights ?? true, attn_mask: ck.attn_mask ?? null,
          average_attn_weights: ck.average_attn_weights ?? true, use_separate_proj_weight: separate,
          q_proj_weight: P.q_proj_weight ?? null, k_proj_weight: P.k_proj_weight ?? null, v_proj_weight: P.v_proj_weight ?? null,
        },
      );
      if (kw.batch_first && q.dim() === 3) out = out.transpose(1, 0);
      const outs = [out, w];
      expect(outs.map((o) => o === null)).toEqual(c.outputs.map((o: any) => o === null));
      let loss: any = null;
      outs.forEach((o: any, i: number) => {
        if (o === null) return;
        expectClose(o, c.outputs[i], `output ${i}`);
        const term = o.mul(fromVal(c.upstream[i])).sum();
        loss = loss === null ? term : loss.add(term);
      });
      loss.backward();
      params.forEach((p: any, i: number) => expectClose(p.grad, c.param_grads[i], `grad ${c.params[i].name}`));
      leaves.forEach((x: any, i: number) => x && expectClose(x.grad, c.input_grads[i], `input ${i} grad`));
    });
  }
});
