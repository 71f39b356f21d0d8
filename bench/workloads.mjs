// The workloads of `npm run bench` (issue #8 item 5). Each has an id, a kind and params; the kind says
// how Glasstorch (`gt`), TensorFlow.js (`tf`) and PyTorch (bench/torch_side.py, same kind names) run it.
// All sides do the same work: the same shapes, float32, a fresh result per call unless the row says
// out=, and for training the same model, loss and optimizer step. Where a side cannot do a workload
// its builder is absent and the cell shows "—" (tfjs has no out= and no requires_grad).
// A fresh result dies at once on every side: PyTorch frees it when its refcount drops, tfjs's tf.tidy
// disposes it, and Glasstorch disposes it (`t.add(a, b).dispose()`, what `using r = ...` does). The rows
// marked "(GC-freed)" (params.free "gc", not in the goals) leave Glasstorch's result to the garbage
// collector instead, so the cost of not disposing stays visible; PyTorch runs them as its plain rows.
// `flops` / `bytes` give the work per call, for GFLOP/s and GB/s.

/** torch.nn.TransformerEncoderLayer-sized encoder step, shared by all sides. */
export const TRANSFORMER = { d_model: 128, nhead: 4, dim_feedforward: 512, seq: 64, batch: 16, dropout: 0 };
export const MLP = { inp: 784, hidden: 256, classes: 10, batch: 64, lr: 0.01 };

const convFlops = ({ input: [n, cin, h, w], weight: [cout, , kh, kw], stride, padding }) => {
  const ho = Math.floor((h + 2 * padding - kh) / stride) + 1, wo = Math.floor((w + 2 * padding - kw) / stride) + 1;
  return 2 * n * cout * ho * wo * cin * kh * kw;
};

/** Glasstorch builders: (torch, params) -> one call's work. */
export const gtKinds = {
  matmul: (t, { n, free }) => {
    const a = t.rand(n, n), b = t.rand(n, n);
    return free === "gc" ? () => t.mm(a, b) : () => { t.mm(a, b).dispose(); };
  },
  binary: (t, { n, op, out, free }) => {
    const a = t.rand(n), b = t.rand(n), o = t.empty(n);
    if (out) return () => t[op](a, b, { out: o });
    return free === "gc" ? () => t[op](a, b) : () => { t[op](a, b).dispose(); };
  },
  unary: (t, { n, op, out, free }) => {
    const a = t.rand(n), o = t.empty(n);
    if (out) return () => t[op](a, { out: o });
    return free === "gc" ? () => t[op](a) : () => { t[op](a).dispose(); };
  },
  sum: (t, { n }) => { const a = t.rand(n); return () => { t.sum(a).dispose(); }; },
  softmax: (t, { shape, log }) => {
    const x = t.rand(...shape);
    return log ? () => { t.log_softmax(x, -1).dispose(); } : () => { t.softmax(x, -1).dispose(); };
  },
  copy: (t, { n }) => { const x = t.empty(n), y = t.rand(n); return () => x.copy_(y); },
  conv2d: (t, { input, weight, stride, padding }) => {
    const x = t.rand(...input), w = t.rand(...weight);
    return () => { t.nn.functional.conv2d(x, w, null, stride, padding).dispose(); };
  },
  // a 1-element result is left to the garbage collector (a young-generation object with no native
  // block: the normal way to use Glasstorch at this size, as a 1-element tensor is PyTorch's)
  overhead: (t, { requires_grad }) => {
    const a = t.ones(1, { requires_grad }), b = t.ones(1, { requires_grad });
    return () => t.add(a, b);
  },
  mlp: (t, p) => {
    const nn = t.nn;
    const model = new nn.Sequential(new nn.Linear(p.inp, p.hidden), new nn.ReLU(), new nn.Linear(p.hidden, p.classes));
    const opt = new t.optim.SGD(model.parameters(), { lr: p.lr });
    const x = t.randn(p.batch, p.inp), y = t.randint(0, p.classes, [p.batch]);
    return () => {
      opt.zero_grad();
      const loss = nn.functional.cross_entropy(model.forward(x), y);
      loss.backward();
      opt.step();
      return loss;
    };
  },
  transformer: (t, p) => {
    const layer = new t.nn.TransformerEncoderLayer(p.d_model, p.nhead, { dim_feedforward: p.dim_feedforward, dropout: p.dropout, batch_first: true });
    const src = t.randn(p.batch, p.seq, p.d_model);
    return () => {
      layer.zero_grad();
      layer.forward(src).sum().backward();
    };
  },
};

/** TensorFlow.js builders: (tf, params) -> one call's work (run inside tf.tidy), or absent. */
export const tfKinds = {
  // tf.tidy always disposes the result: the "(GC-freed)" rows have no tfjs twin
  matmul: (tf, { n, free }) => { if (free) return null; const a = tf.randomUniform([n, n]), b = tf.randomUniform([n, n]); return () => tf.matMul(a, b); },
  binary: (tf, { n, op, out, free }) => {
    if (out || free) return null; // tfjs has no out=
    const a = tf.randomUniform([n]), b = tf.randomUniform([n]);
    return () => tf[op](a, b);
  },
  unary: (tf, { n, op, out, free }) => { if (out || free) return null; const a = tf.randomUniform([n]); return () => tf[op](a); },
  sum: (tf, { n }) => { const a = tf.randomUniform([n]); return () => tf.sum(a); },
  softmax: (tf, { shape, log }) => { const x = tf.randomUniform(shape); return log ? () => tf.logSoftmax(x) : () => tf.softmax(x); },
  // tfjs convolves NHWC input with HWIO filters (its native layout), same sizes and arithmetic
  conv2d: (tf, { input: [n, c, h, w], weight: [cout, cin, kh, kw], stride, padding }) => {
    const x = tf.randomUniform([n, h, w, c]), f = tf.randomUniform([kh, kw, cin, cout]);
    const pad = [[0, 0], [padding, padding], [padding, padding], [0, 0]];
    return () => tf.conv2d(x, f, stride, pad);
  },
  overhead: (tf, { requires_grad }) => {
    if (requires_grad) return null; // no requires_grad in tfjs (gradients come from tf.grad tapes)
    const a = tf.ones([1]), b = tf.ones([1]);
    return () => tf.add(a, b);
  },
  // the same MLP: variables initialised like nn.Linear (U(-1/sqrt(fan_in), 1/sqrt(fan_in))), softmax
  // cross-entropy averaged over the batch, SGD minimize = zero_grad + forward + backward + step
  mlp: (tf, p) => {
    const lin = (i, o) => {
      const k = 1 / Math.sqrt(i);
      return [tf.variable(tf.randomUniform([i, o], -k, k)), tf.variable(tf.randomUniform([o], -k, k))];
    };
    const [w1, b1] = lin(p.inp, p.hidden), [w2, b2] = lin(p.hidden, p.classes);
    const x = tf.randomNormal([p.batch, p.inp]);
    const y = tf.oneHot(tf.randomUniform([p.batch], 0, p.classes, "int32"), p.classes);
    const opt = tf.train.sgd(p.lr);
    return () => opt.minimize(() => tf.losses.softmaxCrossEntropy(y, tf.add(tf.matMul(tf.relu(tf.add(tf.matMul(x, w1), b1)), w2), b2)), false, [w1, b1, w2, b2]);
  },
  // a hand-built post-norm encoder layer with nn.TransformerEncoderLayer's parameters and shapes
  // (packed in_proj, 4 heads, ReLU feed-forward, LayerNorm eps 1e-5, no dropout); gradients of
  // out.sum() for every parameter through tf.variableGrads, like backward() without an optimizer step
  transformer: (tf, p) => {
    const D = p.d_model, H = p.nhead, hd = D / H, F = p.dim_feedforward, B = p.batch, S = p.seq;
    const v = (shape, k) => tf.variable(tf.randomUniform(shape, -k, k));
    const inW = v([D, 3 * D], Math.sqrt(6 / (4 * D))), inB = tf.variable(tf.zeros([3 * D]));
    const outW = v([D, D], 1 / Math.sqrt(D)), outB = tf.variable(tf.zeros([D]));
    const w1 = v([D, F], 1 / Math.sqrt(D)), b1 = v([F], 1 / Math.sqrt(D));
    const w2 = v([F, D], 1 / Math.sqrt(F)), b2 = v([D], 1 / Math.sqrt(F));
    const g1 = tf.variable(tf.ones([D])), be1 = tf.variable(tf.zeros([D])), g2 = tf.variable(tf.ones([D])), be2 = tf.variable(tf.zeros([D]));
    const src = tf.randomNormal([B, S, D]);
    const lin = (x, w, b) => tf.add(tf.matMul(tf.reshape(x, [-1, w.shape[0]]), w), b);
    const layerNorm = (x, g, b) => {
      const { mean, variance } = tf.moments(x, -1, true);
      return tf.add(tf.mul(tf.div(tf.sub(x, mean), tf.sqrt(tf.add(variance, 1e-5))), g), b);
    };
    const heads = (x) => tf.transpose(tf.reshape(x, [B, S, H, hd]), [0, 2, 1, 3]);
    const forward = () => {
      const qkv = lin(src, inW, inB);
      const [q, k, val] = tf.split(qkv, 3, 1).map(heads);
      const att = tf.softmax(tf.div(tf.matMul(q, k, false, true), Math.sqrt(hd)));
      const ctx = tf.reshape(tf.transpose(tf.matMul(att, val), [0, 2, 1, 3]), [B * S, D]);
      const x1 = layerNorm(tf.add(tf.reshape(src, [B * S, D]), lin(ctx, outW, outB)), g1, be1);
      const ff = lin(tf.relu(lin(x1, w1, b1)), w2, b2);
      return tf.sum(layerNorm(tf.add(x1, ff), g2, be2));
    };
    const vars = [inW, inB, outW, outB, w1, b1, w2, b2, g1, be1, g2, be2];
    return () => tf.variableGrads(forward, vars);
  },
};

const mm = (n) => ({ id: `matmul ${n}x${n}`, kind: "matmul", params: { n }, flops: 2 * n ** 3, goal: n >= 512 });
const ew = (kind, op, n, out) => ({
  id: `${op} ${n.toExponential().replace("e+", "e")}${out ? " out=" : ""}`, kind, params: { op, n, out },
  bytes: (kind === "binary" ? 3 : 2) * 4 * n, goal: true,
});
/** The same row with Glasstorch's result left to the garbage collector (listed, not a goal). */
const gcFreed = (w) => ({ ...w, id: `${w.id} (GC-freed)`, params: { ...w.params, free: "gc" }, goal: false });
const conv = (input, weight, stride, padding) => {
  const p = { input, weight, stride, padding };
  return { id: `conv2d ${input.join("x")} * ${weight[0]} ${weight[2]}x${weight[3]} s${stride} p${padding}`, kind: "conv2d", params: p, flops: convFlops(p), goal: true };
};

/** The kernel workloads, full or --quick (a smoke run: small sizes, the heavy models shrunk). */
export function kernelWorkloads(quick) {
  const list = [];
  for (const n of quick ? [64, 256] : [64, 128, 256, 512, 1024, 2048]) list.push(mm(n));
  // above 512 the product's allocation is < 1% of the call: no GC-freed twin (it would double the TS GEMM's slow cells)
  for (const n of quick ? [64, 256] : [64, 128, 256, 512]) list.push(gcFreed(mm(n)));
  for (const n of quick ? [1e6] : [1e6, 1e7]) {
    for (const out of [false, true]) {
      list.push(ew("binary", "add", n, out), ew("binary", "mul", n, out), ew("unary", "exp", n, out));
    }
    list.push(gcFreed(ew("binary", "add", n, false)), gcFreed(ew("binary", "mul", n, false)), gcFreed(ew("unary", "exp", n, false)));
  }
  list.push({ id: "sum 1e7", kind: "sum", params: { n: 1e7 }, bytes: 4e7, goal: true });
  const sm = quick ? [512, 1024] : [4096, 1024];
  list.push({ id: `softmax ${sm.join("x")} dim=-1`, kind: "softmax", params: { shape: sm }, bytes: 2 * 4 * sm[0] * sm[1], goal: true });
  list.push({ id: `log_softmax ${sm.join("x")} dim=-1`, kind: "softmax", params: { shape: sm, log: true }, bytes: 2 * 4 * sm[0] * sm[1], goal: true });
  // STREAM-like copy (x.copy_(y), 2^25 floats = 128 MiB each way): the measured memory bandwidth the
  // elementwise rows are compared with
  const cn = quick ? 1 << 22 : 1 << 25;
  list.push({ id: `copy_ ${cn} (STREAM copy)`, kind: "copy", params: { n: cn }, bytes: 2 * 4 * cn, stream: true });
  // ResNet-50's layer1 3x3 convolution and its 7x7/2 stem, batch 8 (batch 1 in --quick)
  const nb = quick ? 1 : 8;
  list.push(conv([nb, 64, 56, 56], [64, 64, 3, 3], 1, 1), conv([nb, 3, 224, 224], [64, 3, 7, 7], 2, 3));
  list.push({ id: "add 1-element (per-op overhead)", kind: "overhead", params: { requires_grad: false }, goal: "overhead" });
  list.push({ id: "add 1-element, requires_grad inputs", kind: "overhead", params: { requires_grad: true }, goal: "overhead" });
  list.push({ id: `MLP train step 784-256-10 b${MLP.batch} SGD`, kind: "mlp", params: MLP, goal: true, warm_ms: quick ? 500 : 4000 });
  const tr = quick ? { ...TRANSFORMER, batch: 2 } : TRANSFORMER;
  list.push({ id: `Transformer encoder layer fwd+bwd b${tr.batch} s${tr.seq} d${tr.d_model}`, kind: "transformer", params: tr, goal: true, warm_ms: quick ? 500 : 4000 });
  return list.map((w) => ({ group: "kernels", ...w }));
}
