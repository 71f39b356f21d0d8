// torch.nn.utils.rnn (PackedSequence, pack_padded_sequence, pad_packed_sequence, pad_sequence,
// pack_sequence, unpack_sequence, unpad_sequence) and nn.RNN / LSTM / GRU on packed input, replayed against
// PyTorch 1.13 (test/fixtures/gen_rnn_packed.py -> rnn_packed.json).
// Tolerances: packing, padding and their gradients are copies, compared exactly (values, dtype, shape,
// strides); the recurrent layers' outputs and gradients within float32 round-off, |d| <= 1e-5 + 1e-5*|e|
// (matmul summation order differs from MKL's), seeded parameters exactly.
// The op trees (aten::_pack_padded_sequence, ..., aten::lstm on (data, batch_sizes)) are compared with the
// profiler's down to the ops each calls; cell-internal names are normalised as in seq_trace.test.ts
// (unsafe_chunk / in-place gate ops, see engine/aten/native/rnn/RNN.ts).
import { describe, it, expect } from "vitest";
import * as torch from "../../engine/index.js";
import type { Tensor } from "../../engine/aten/core/Tensor.js";
import { _pack_padded_sequence_default } from "../../engine/generated/_pack_padded_sequence.js";
import { _pack_padded_sequence_backward_default } from "../../engine/generated/_pack_padded_sequence_backward.js";
import { _pad_packed_sequence_default } from "../../engine/generated/_pad_packed_sequence.js";
import { loadFixture } from "../support/fixtures.js";
import { fromVal, expectClose, expectExact, replayErrors, z, type TVal } from "../support/seq_cases.js";
import { itMatchesPyTorchTrees, type CallNode } from "../support/call_tree.js";

const fx = loadFixture("rnn_packed.json");
const T = torch as any;
const nn = T.nn;
const R = nn.utils.rnn;

const isFloat = (v: TVal) => v.dtype.startsWith("float");
const opt = (t: Tensor | null, v: TVal | null, what: string) => {
  if (v === null) expect(t, what).toBeNull();
  else expectExact(t!, v, what);
};
const dtypeOf = (t: Tensor) => String(t.dtype).replace("torch.", "");
const lengthsArg = (c: any) => (c.lengths_tensor ? torch.tensor(c.lengths) : c.lengths);

describe("pack_padded_sequence / pad_packed_sequence vs PyTorch 1.13", () => {
  for (const c of fx.pack) {
    it(c.name, () => {
      const float = isFloat(c.input);
      const x = fromVal(c.input, float);
      const p = R.pack_padded_sequence(x, lengthsArg(c), { batch_first: c.batch_first, enforce_sorted: c.enforce_sorted });
      expect(p).toBeInstanceOf(R.PackedSequence);
      expectExact(p.data, c.data, "data");
      expect(dtypeOf(p.data)).toBe(c.data.dtype);
      expectExact(p.batch_sizes, c.batch_sizes, "batch_sizes");
      expect(dtypeOf(p.batch_sizes)).toBe("int64");
      opt(p.sorted_indices, c.sorted_indices, "sorted_indices");
      opt(p.unsorted_indices, c.unsorted_indices, "unsorted_indices");
      expect(String(p)).toBe(c.repr);

      const [padded, lengths] = R.pad_packed_sequence(p, c.pad_kwargs);
      expectExact(padded, c.padded, "padded");
      expect(dtypeOf(padded)).toBe(c.padded.dtype);
      expect(padded.stride()).toEqual(c.padded_strides);
      expectExact(lengths, c.out_lengths, "lengths");
      expect(dtypeOf(lengths)).toBe("int64");
      if (!float) return;

      // the input's gradient through PackPaddedSequenceBackward0 (and the sort's index_select)
      expect(p.data.grad_fn.name()).toBe(c.data_grad_fn);
      const [g1] = T.autograd.grad(p.data, x, { grad_outputs: fromVal(c.upstream_data), retain_graph: true });
      expectExact(g1, c.input_grad_from_data, "input grad from data");
      // and through pad_packed_sequence's copies back to the padded input
      const [g2] = T.autograd.grad(padded, x, { grad_outputs: fromVal(c.upstream_padded) });
      expectExact(g2, c.input_grad_from_padded, "input grad from padded");
    });
  }

  it("on device meta: the sizes, strides and batch_sizes of the real result", () => {
    const x = torch.empty(4, 3, 2, { device: "meta" }) as Tensor;
    const p = R.pack_padded_sequence(x, [4, 2, 1]);
    const m = fx.meta;
    expect([p.data.shape, p.data.stride(), String(p.data.device)]).toEqual([m.data.shape, m.data.strides, m.data.device]);
    expectExact(p.batch_sizes, m.batch_sizes, "batch_sizes");
    const [padded, lengths] = R.pad_packed_sequence(p, { batch_first: true });
    expect([padded.shape, padded.stride(), String(padded.device)]).toEqual([m.padded.shape, m.padded.strides, m.padded.device]);
    expectExact(lengths, m.lengths, "lengths");
  });
});

describe("pad_sequence / pack_sequence / unpack_sequence / unpad_sequence vs PyTorch 1.13", () => {
  for (const c of fx.pad_sequence) {
    it(`pad_sequence: ${c.name}`, () => {
      const seqs = c.sequences.map((v: TVal) => fromVal(v, isFloat(v)));
      const out = R.pad_sequence(seqs, c.kwargs);
      expectExact(out, c.out, "out");
      expect(dtypeOf(out)).toBe(c.out.dtype);
      if (!c.grads) return;
      const grads = T.autograd.grad(out, seqs, { grad_outputs: fromVal(c.upstream) });
      grads.forEach((g: Tensor, i: number) => expectExact(g, c.grads[i], `grad ${i}`));
    });
  }

  for (const c of fx.pack_sequence) {
    it(c.name, () => {
      const p = R.pack_sequence(c.sequences.map((v: TVal) => fromVal(v)), { enforce_sorted: c.enforce_sorted });
      expectExact(p.data, c.data, "data");
      expectExact(p.batch_sizes, c.batch_sizes, "batch_sizes");
      opt(p.sorted_indices, c.sorted_indices, "sorted_indices");
      opt(p.unsorted_indices, c.unsorted_indices, "unsorted_indices");
      expect(String(p)).toBe(c.repr);
      const back = R.unpack_sequence(p);
      expect(back.length).toBe(c.unpacked.length);
      back.forEach((t: Tensor, i: number) => expectExact(t, c.unpacked[i], `unpacked ${i}`));
    });
  }

  for (const c of fx.unpad) {
    it(c.name, () => {
      const padded = fromVal(c.padded);
      const res = R.unpad_sequence(padded, torch.tensor(c.lengths), { batch_first: c.batch_first });
      expect(res.length).toBe(c.result.length);
      res.forEach((t: Tensor, i: number) => expectExact(t, c.result[i], `sequence ${i}`));
      // PyTorch transposes the padded input in place when batch_first is False
      expect([padded.shape, padded.stride()]).toEqual([c.padded_after.shape, c.padded_after.strides]);
    });
  }
});

describe("PackedSequence (namedtuple-like) vs PyTorch 1.13", () => {
  const m = fx.misc;
  const packed = () => R.pack_padded_sequence(fromVal(m.input), [1, 3, 2], { enforce_sorted: false });

  it("fields, len, indexing and destructuring", () => {
    const p = packed();
    expect([...R.PackedSequence._fields]).toEqual(m.fields);
    expect([...p._fields]).toEqual(m.fields);
    expect(p.length).toBe(m.len);
    expect([p[0], p[1], p[2], p[3]]).toEqual([p.data, p.batch_sizes, p.sorted_indices, p.unsorted_indices]);
    const [data, batch_sizes, sorted_indices, unsorted_indices] = p;
    expect([data, batch_sizes, sorted_indices, unsorted_indices]).toEqual([p.data, p.batch_sizes, p.sorted_indices, p.unsorted_indices]);
    expect(Object.keys(p._asdict())).toEqual(m.fields);
    const q = p._replace({ data: p.data.mul(2) });
    expect(q.batch_sizes).toBe(p.batch_sizes);
    expect(q.data.tolist()).toEqual(p.data.mul(2).tolist());
  });

  it("to / double / long: data converted, the same PackedSequence when nothing changes", () => {
    const p = packed();
    expect(p.to(torch.float32)).toBe(p);
    expect(p.float()).toBe(p);
    const d = p.double();
    expect(String(d.data.dtype)).toBe(m.double_dtype);
    expect(String(d)).toBe(m.double_repr);
    expect(String(p.long())).toBe(m.long_repr);
    expect(d.batch_sizes).toBe(p.batch_sizes);
    expect(p.is_cuda).toBe(false);
  });

  it("PackedSequence((data, batch_sizes), {sorted_indices}) computes unsorted_indices", () => {
    const p = packed();
    const t = new R.PackedSequence([p.data, p.batch_sizes], { sorted_indices: p.sorted_indices });
    expectExact(t.unsorted_indices, m.tuple_ctor_unsorted, "unsorted_indices");
    expect(t.data).toBe(p.data);
  });
});

describe("Tensor.transpose_ (unpad_sequence's in-place transpose) vs PyTorch 1.13", () => {
  const c = fx.transpose_;
  it("swaps sizes and strides in place; TransposeBackward1 carries the gradient", () => {
    const x = fromVal(c.input, true) as any;
    const y = x.mul(1);
    const r = y.transpose_(0, 2);
    expect(r === y).toBe(c.same_object);
    expect([y.shape, y.stride()]).toEqual([c.shape, c.strides]);
    expectExact(y, c.values, "values");
    expect(y.grad_fn.name()).toBe(c.grad_fn);
    y.backward(fromVal(c.upstream));
    expectExact(x.grad, c.grad, "grad");
  });
  it("error: dim out of range", () => {
    expect(() => (z(2, 3) as any).transpose_(0, 2)).toThrow(c.error.message);
    try {
      (z(2, 3) as any).transpose_(0, 2);
    } catch (e: any) {
      expect(e.name).toBe(c.error.error);
    }
  });
});

function construct(c: any): any {
  return new nn[c.ctor](...c.args, ...(Object.keys(c.kwargs).length ? [c.kwargs] : []));
}

describe("nn.RNN / LSTM / GRU on a PackedSequence vs PyTorch 1.13", () => {
  for (const c of fx.modules) {
    it(c.name, () => {
      torch.manual_seed(0);
      const m = construct(c);
      m.train(c.train);
      const named = [...m.named_parameters()];
      expect(named.map(([n]: [string]) => n)).toEqual(c.params.map((p: any) => p.name));
      named.forEach(([n, p]: [string, any], i: number) => expectExact(p, c.params[i], `parameter ${n}`));
      const x = fromVal(c.input, true);
      const hx = c.hidden === null ? null : Array.isArray(c.hidden) ? c.hidden.map((v: TVal) => fromVal(v, true)) : fromVal(c.hidden, true);
      const p = R.pack_padded_sequence(x, c.lengths, { batch_first: c.batch_first, enforce_sorted: c.enforce_sorted });
      torch.manual_seed(2);
      const [out, h] = hx === null ? m(p) : m(p, hx);
      expect(out).toBeInstanceOf(R.PackedSequence);
      expectExact(out.batch_sizes, c.out_batch_sizes, "output batch_sizes");
      opt(out.sorted_indices, c.out_sorted_indices, "output sorted_indices");
      const outs: Tensor[] = [c.pad_after ? R.pad_packed_sequence(out, { batch_first: c.batch_first })[0] : out.data, ...(Array.isArray(h) ? h : [h])];
      expect(outs.length).toBe(c.outputs.length);
      let loss: any = null;
      outs.forEach((o: any, i: number) => {
        expectClose(o, c.outputs[i], i === 0 ? "output" : `h_n[${i - 1}]`);
        const term = o.mul(fromVal(c.upstream[i])).sum();
        loss = loss === null ? term : loss.add(term);
      });
      loss.backward();
      named.forEach(([n, q]: [string, any], i: number) => {
        if (c.param_grads[i] === null) expect(q.grad, `grad of ${n}`).toBeNull();
        else expectClose(q.grad, c.param_grads[i], `grad of ${n}`);
      });
      expectClose((x as any).grad, c.input_grad, "padded input grad");
      if (c.hidden_grads !== null) {
        if (Array.isArray(c.hidden_grads)) c.hidden_grads.forEach((g: TVal, j: number) => expectClose(hx[j].grad, g, `h_0[${j}] grad`));
        else expectClose(hx.grad, c.hidden_grads, "h_0 grad");
      }
    });
  }

  replayErrors(fx.errors, () => {
    const lstm = new nn.LSTM(2, 3);
    const gru = new nn.GRU(2, 3);
    const good = R.pack_padded_sequence(z(3, 2, 2), [3, 1]);
    return {
      "pack: lengths length != batch": () => R.pack_padded_sequence(z(3, 2, 2), [3, 2, 1]),
      "pack: lengths not sorted": () => R.pack_padded_sequence(z(3, 2, 2), [1, 3]),
      "pack: zero length": () => R.pack_padded_sequence(z(3, 2, 2), [3, 0]),
      "pack: zero length unsorted": () => R.pack_padded_sequence(z(3, 2, 2), [0, 3], { enforce_sorted: false }),
      "pack: empty input": () => R.pack_padded_sequence(z(0, 2, 2), [1, 1]),
      "pack: 2-D lengths tensor": () => R.pack_padded_sequence(z(3, 2, 2), torch.tensor([[3, 1]])),
      "pad_packed: total_length too short": () => R.pad_packed_sequence(good, { total_length: 2 }),
      "pad_sequence: empty list": () => R.pad_sequence([]),
      "pad_sequence: not iterable": () => R.pad_sequence(3),
      "PackedSequence: batch_sizes missing": () => new R.PackedSequence(z(3)),
      "LSTM packed: wrong h0 batch": () => lstm(good, [z(1, 3, 3), z(1, 3, 3)]),
      "LSTM packed: wrong c0 size": () => lstm(good, [z(1, 2, 3), z(1, 2, 4)]),
      "GRU packed: wrong input size": () => gru(R.pack_padded_sequence(z(3, 2, 5), [3, 1])),
      "GRU packed: wrong hx layers": () => gru(good, z(2, 2, 3)),
    };
  });
});

describe("the packed ops' trees: what PyTorch 1.13's profiler records", () => {
  const r = (...s: number[]) => torch.randn(...s) as any;
  const x = r(4, 3, 2);
  const xb = x.transpose(0, 1).contiguous();
  const lengths = torch.tensor([4, 2, 1]);
  const [data, bs] = _pack_padded_sequence_default.call(x, lengths, false) as Tensor[];
  const [h, c, h2] = [r(1, 3, 4), r(1, 3, 4), r(2, 3, 4)];
  const lw = [r(16, 2), r(16, 4), r(16), r(16)];
  const gw = [r(12, 2), r(12, 4), r(12), r(12)];
  const sw = [r(4, 2), r(4, 4), r(4), r(4)];
  const grad = r(7, 2);
  const seqs = [r(2, 2), r(3, 2)];
  const calls: Record<string, () => () => unknown> = {
    _pack_padded_sequence: () => () => _pack_padded_sequence_default.call(x, lengths, false),
    "_pack_padded_sequence batch_first": () => () => _pack_padded_sequence_default.call(xb, lengths, true),
    _pack_padded_sequence_backward: () => () => _pack_padded_sequence_backward_default.call(grad, [4, 3, 2], bs, false),
    "_pack_padded_sequence_backward batch_first": () => () => _pack_padded_sequence_backward_default.call(grad, [3, 4, 2], bs, true),
    _pad_packed_sequence: () => () => _pad_packed_sequence_default.call(data, bs, false, 0.0, 4),
    "_pad_packed_sequence batch_first total_length": () => () => _pad_packed_sequence_default.call(data, bs, true, 1.0, 6),
    pad_sequence: () => () => T._C._nn.pad_sequence(seqs, false, 0.0),
    "pad_sequence batch_first": () => () => T._C._nn.pad_sequence(seqs, true, 0.0),
    "lstm.data": () => () => T.lstm(data, bs, [h, c], lw, true, 1, 0.0, false, false),
    "lstm.data bidirectional": () => () => T.lstm(data, bs, [h2, h2], [...lw, ...lw], true, 1, 0.0, false, true),
    "gru.data": () => () => T.gru(data, bs, h, gw, true, 1, 0.0, false, false),
    "rnn_tanh.data bidirectional": () => () => T.rnn_tanh(data, bs, h2, [...sw, ...sw], true, 1, 0.0, false, true),
    "rnn_relu.data no bias": () => () => T.rnn_relu(data, bs, h, sw.slice(0, 2), false, 1, 0.0, false, false),
  };
  const rename = (op: string) => op.replace(/_$/, "").replace("aten::unsafe_chunk", "aten::chunk");
  const prune = (nodes: CallNode[], depth = 2): CallNode[] =>
    nodes
      .filter((n) => n.op !== "aten::cudnn_is_acceptable")
      .map((n) => ({ op: rename(n.op), children: depth > 1 ? prune(n.children, depth - 1) : [] }));
  itMatchesPyTorchTrees(fx.trees, calls, (nodes) => prune(nodes));
});
