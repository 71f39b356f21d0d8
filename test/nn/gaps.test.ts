// nn.PReLU, nn.CosineEmbeddingLoss, nn.MarginRankingLoss as modules, and copy.deepcopy of modules, against
// PyTorch 1.13 (test/fixtures/gen_nn_gaps.py -> nn_gaps.json): repr, seeded inputs, forward values, the
// gradients autograd gives (PreluBackward0 -> prelu_backward; the losses through their decompositions).
// Tolerance: values exact for prelu's elementwise results; 1e-6 relative (+1e-7 absolute) where a sum is
// involved (the shared PReLU weight's gradient, the cosine's dot products, the mean/sum reductions), as
// Glasstorch's float32 sums accumulate in a different order.
// The op-level cases (dtypes, errors, non-contiguous inputs) are in activation.json / loss.json.
import { describe, expect, it } from "vitest";
import * as torch from "../../engine/index.js";
import { loadFixture } from "../support/fixtures.js";

const fx = loadFixture("nn_gaps.json");
const T = torch as any;
const nn = T.nn;

function close(got: any, want: any, rtol: number, where: string): void {
  const g = [got].flat(Infinity) as number[];
  const w = [want].flat(Infinity) as number[];
  expect(g.length, where).toBe(w.length);
  g.forEach((v, i) => {
    if (!(Math.abs(v - w[i]) <= 1e-7 + rtol * Math.abs(w[i]))) expect.fail(`${where}[${i}]: ${v}, PyTorch ${w[i]}`);
  });
}

describe("nn.PReLU vs PyTorch 1.13", () => {
  for (const c of fx.prelu) {
    it(c.name, () => {
      torch.manual_seed(0);
      const dtype = T[c.dtype];
      const m = c.name === "shared" ? new nn.PReLU() : c.name === "channels" ? new nn.PReLU(3, { init: 0.1 }) : c.name === "channels_2d" ? new nn.PReLU(5, 0.3) : new nn.PReLU(2, { dtype: T.float64 });
      expect(String(m)).toBe(c.repr);
      expect(m.weight).toBeInstanceOf(nn.Parameter);
      expect(m.weight.dtype).toBe(dtype);
      expect(m.weight.tolist()).toEqual(c.weight);
      const x = T.randn(...c.shape, { dtype, requires_grad: true });
      expect(x.tolist()).toEqual(c.x);
      const y = m(x);
      expect(y.grad_fn.name()).toBe(c.grad_fn);
      expect(y.tolist()).toEqual(c.y);
      const g = T.randn_like(y);
      expect(g.tolist()).toEqual(c.g);
      y.backward(g);
      expect(x.grad.tolist()).toEqual(c.x_grad);
      close(m.weight.grad.tolist(), c.w_grad, 1e-6, "weight.grad");
    });
  }
});

describe("nn.CosineEmbeddingLoss and nn.MarginRankingLoss vs PyTorch 1.13", () => {
  fx.losses.forEach((c: any, i: number) => {
    it(`${c.repr} ${JSON.stringify(c.kwargs)} (#${i})`, () => {
      const m = new nn[c.cls](c.kwargs);
      expect(String(m)).toBe(c.repr);
      const x1 = T.tensor(c.x1, { requires_grad: true });
      const x2 = T.tensor(c.x2, { requires_grad: true });
      const loss = m(x1, x2, T.tensor(c.target));
      close(loss.tolist(), c.loss, 1e-6, "loss");
      loss.sum().backward();
      close(x1.grad.tolist(), c.x1_grad, 1e-6, "x1.grad");
      close(x2.grad.tolist(), c.x2_grad, 1e-6, "x2.grad");
    });
  });
});

describe("torch.copy.deepcopy (Python's copy.deepcopy) of modules, parameters and tensors", () => {
  function tiedModel() {
    torch.manual_seed(2);
    const emb = new nn.Embedding(5, 3);
    const head = new nn.Linear(3, 5, { bias: false });
    head.weight = emb.weight;
    const model = new nn.Sequential(emb, new nn.Tanh(), head, new nn.BatchNorm1d(4));
    model.eval();
    return model;
  }

  it("keeps a tied weight tied, shares nothing with the original, keeps training/repr/state_dict (as PyTorch)", () => {
    const want = fx.deepcopy;
    const model = tiedModel();
    const c = T.copy.deepcopy(model);
    expect([...model.parameters()]).toHaveLength(want.n_params_original);
    expect([...c.parameters()]).toHaveLength(want.n_params_copy);
    expect(c[0].weight === c[2].weight).toBe(want.tied_in_copy);
    expect(c[0].weight === model[0].weight).toBe(want.shares_with_original);
    expect(c.training).toBe(want.training);
    expect(c[3].training).toBe(false);
    expect(String(c)).toBe(want.repr);
    expect(c[0].weight.constructor.name).toBe(want.param_type);
    expect(Object.keys(c.state_dict())).toEqual(want.state_dict_keys);
    // the same values in new storage: writing to the copy leaves the original alone
    expect(c[0].weight.tolist()).toEqual(model[0].weight.tolist());
    T.no_grad(() => c[0].weight.fill_(7));
    expect(model[0].weight.tolist()).not.toEqual(c[0].weight.tolist());
    expect(c[2].weight.tolist()[0]).toEqual([7, 7, 7]);
    expect(c).toBeInstanceOf(nn.Sequential);
    expect(typeof c).toBe("function"); // callable like any module
  });

  it("copies buffers, plain attributes and hooks; a Parameter's grad is not copied, a tensor's is", () => {
    const m = new nn.BatchNorm1d(2);
    m.running_mean.add_(1.5);
    m.extra = { steps: [1, 2] };
    const seen: string[] = [];
    m.register_forward_hook(() => void seen.push("hook"));
    m.weight.grad = T.ones(2);
    const c = T.copy.deepcopy(m);
    expect(c.running_mean.tolist()).toEqual([1.5, 1.5]);
    expect(c.running_mean === m.running_mean).toBe(false);
    expect(c.extra).toEqual({ steps: [1, 2] });
    expect(c.extra === m.extra).toBe(false);
    expect(c.weight.grad).toBeNull(); // Parameter.__deepcopy__ makes Parameter(data.clone(), requires_grad)
    c(T.randn(3, 2));
    expect(seen).toEqual(["hook"]);
    const t = T.ones(3, { requires_grad: true });
    t.grad = T.full([3], 2.0, { dtype: T.float32 });
    const tc = T.copy.deepcopy(t);
    expect(tc.requires_grad).toBe(true);
    expect(tc.grad.tolist()).toEqual([2, 2, 2]);
  });

  it("views of one storage stay views of one (copied) storage; non-leaf tensors are refused with PyTorch's text", () => {
    const base = T.arange(6, { dtype: T.float32 });
    const [a, b] = T.copy.deepcopy([base.narrow(0, 0, 4), base.narrow(0, 2, 4)]);
    a.fill_(-1);
    expect(b.tolist()).toEqual([-1, -1, 4, 5]);
    expect(base.tolist()).toEqual([0, 1, 2, 3, 4, 5]);
    expect(() => T.copy.deepcopy(T.ones(2, { requires_grad: true }).mul(2))).toThrow(fx.deepcopy.nonleaf_error);
  });

  it("TransformerEncoder's layer clones are independent deep copies", () => {
    const layer = new nn.TransformerEncoderLayer(8, 2, { dim_feedforward: 16, dropout: 0.0 });
    const enc = new nn.TransformerEncoder(layer, 2);
    const [l0, l1] = enc.layers;
    expect(l0 === layer || l1 === layer).toBe(false);
    expect(l0.linear1.weight.tolist()).toEqual(layer.linear1.weight.tolist());
    expect(l0.linear1.weight === l1.linear1.weight).toBe(false);
    expect([...enc.parameters()]).toHaveLength(2 * [...layer.parameters()].length);
  });
});
