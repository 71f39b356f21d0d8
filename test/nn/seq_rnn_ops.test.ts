// aten::rnn_tanh / rnn_relu / lstm / gru (engine/ops/native_functions/rnn.yaml) replayed against PyTorch
// 1.13 (test/fixtures/gen_nn_seq.py): the fixture's module parameters passed as the flat weight list, the
// module's own prologue (zeros for a missing hx, the batch dim of an unbatched input) done here, forward
// values and the gradients of every parameter and input for the stored upstream gradient.
// Tolerance: float32 round-off, |d| <= 1e-5 + 1e-5*|expected| (the matmul summation order differs).
import { describe, it, expect } from "vitest";
import * as torch from "../../engine/index.js";
import type { Tensor } from "../../engine/aten/core/Tensor.js";
import { loadFixture } from "../support/fixtures.js";
import { expectClose, fromVal } from "../support/seq_cases.js";

const fx = loadFixture("nn_seq.json");
const T = torch as any;

describe("aten RNN ops vs PyTorch 1.13", () => {
  for (const c of fx.rnn) {
    it(c.name, () => {
      const kw = { num_layers: 1, bias: true, batch_first: false, dropout: 0, bidirectional: false, proj_size: 0, nonlinearity: "tanh", ...c.kwargs };
      const [input_size, hidden_size] = c.args;
      void input_size;
      const params: Tensor[] = c.params.map((p: any) => fromVal(p, true));
      let x = fromVal(c.inputs[0], true);
      const xLeaf = x;
      const batched = x.dim() === 3;
      const batch_dim = kw.batch_first ? 0 : 1;
      if (!batched) x = x.unsqueeze(batch_dim);
      const B = x.size(batch_dim);
      const D = kw.bidirectional ? 2 : 1;
      const hin = c.inputs[1];
      const hLeaves: Tensor[] = [];
      const leaf = (v: any) => {
        const t = fromVal(v, true);
        hLeaves.push(t);
        return t;
      };
      if (c.seed !== undefined) torch.manual_seed(c.seed);
      let out: Tensor[];
      if (c.ctor === "LSTM") {
        const real = kw.proj_size > 0 ? kw.proj_size : hidden_size;
        const hx = hin ? hin.map(leaf) : [torch.zeros(kw.num_layers * D, B, real), torch.zeros(kw.num_layers * D, B, hidden_size)];
        torch.manual_seed(2);
        out = T.lstm(x, hx, params, kw.bias, kw.num_layers, kw.dropout, c.train, kw.bidirectional, kw.batch_first);
      } else {
        const hx = hin ? leaf(hin) : torch.zeros(kw.num_layers * D, B, hidden_size);
        const f = c.ctor === "GRU" ? T.gru : kw.nonlinearity === "relu" ? T.rnn_relu : T.rnn_tanh;
        torch.manual_seed(2);
        out = f(x, hx, params, kw.bias, kw.num_layers, kw.dropout, c.train, kw.bidirectional, kw.batch_first);
      }
      if (!batched) out = [out[0].squeeze(batch_dim), ...out.slice(1).map((h: any) => h.squeeze(1))];
      expect(out.length).toBe(c.outputs.length);
      out.forEach((o, i) => expectClose(o, c.outputs[i], `output ${i}`));
      let loss: any = null;
      out.forEach((o: any, i) => {
        const term = o.mul(fromVal(c.upstream[i])).sum();
        loss = loss === null ? term : loss.add(term);
      });
      loss.backward();
      params.forEach((p: any, i) => expectClose(p.grad, c.param_grads[i], `grad ${c.params[i].name}`));
      expectClose((xLeaf as any).grad, c.input_grads[0], "input grad");
      const hg = c.input_grads[1] ? (Array.isArray(c.input_grads[1]) ? c.input_grads[1] : [c.input_grads[1]]) : [];
      hg.forEach((g: any, i: number) => expectClose((hLeaves[i] as any).grad, g, `hx[${i}] grad`));
    });
  }

  it("on device meta: the sizes, strides and dtype of the CPU results", () => {
    const meta = (...s: number[]) => torch.empty(s, { device: "meta" });
    const cpu = (...s: number[]) => torch.zeros(...s);
    const run = (mk: (...s: number[]) => any) => {
      const w = (inp: number) => [mk(16, inp), mk(16, 4), mk(16), mk(16)];
      // 2 layers, bidirectional, batch_first: layer 1 reads both directions (8 features)
      const lstm = T.lstm(mk(2, 5, 3), [mk(4, 2, 4), mk(4, 2, 4)], [...w(3), ...w(3), ...w(8), ...w(8)], true, 2, 0, false, true, true);
      const gru = T.gru(mk(5, 2, 3), mk(1, 5, 4), [mk(12, 3), mk(12, 4), mk(12), mk(12)], true, 1, 0, false, false, true);
      const cell = T.rnn_tanh_cell(mk(2, 3), mk(2, 4), mk(4, 3), mk(4, 4));
      return [...lstm, ...gru, cell].map((t: any) => ({ device: t.device.type, shape: t.shape, stride: t.stride(), dtype: t.dtype }));
    };
    const m = run(meta);
    const c = run(cpu);
    expect(m.map((r) => r.device)).toEqual(m.map(() => "meta"));
    expect(m.map(({ shape, stride, dtype }) => ({ shape, stride, dtype }))).toEqual(c.map(({ shape, stride, dtype }) => ({ shape, stride, dtype })));
  });

  it("lstm expects two hidden states", () => {
    const x = torch.zeros(2, 1, 3);
    expect(() => T.lstm(x, [torch.zeros(1, 1, 4)], [], true, 1, 0, false, false, false)).toThrow("lstm expects two hidden states");
  });
});
