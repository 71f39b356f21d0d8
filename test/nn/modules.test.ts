// Replays test/fixtures/nn_modules.json (gen_nn_modules.py, real PyTorch 1.13): torch.nn modules built after
// torch.manual_seed(0) have PyTorch's exact parameters and buffers (the same generator draws in the same
// order), the same str(), state_dict keys and _metadata; forward outputs, parameter and input gradients and
// BatchNorm running stats agree within float32 round-off (|got - want| <= 2e-5 + 2e-5 * |want|: Glasstorch
// accumulates some float32 reductions in another order); load_state_dict, registration and constructor
// errors have the same type and text; hooks fire in the same order with the same grads; nn.init matches.
import { describe, it, expect } from "vitest";
import * as torch from "../../engine/index.js";
import type { Tensor } from "../../engine/aten/core/Tensor.js";
import { loadFixture, dec } from "../support/fixtures.js";

const nn = torch.nn as any;
const fx = loadFixture("nn_modules.json");
const RTOL = 2e-5;
const ATOL = 2e-5;

type Rec = { shape: number[]; dtype: string; values: any };

function build(r: Rec & { requires_grad?: boolean }): Tensor {
  const dtype = (torch as any)[r.dtype];
  const t = torch.tensor(dec(r.values), { dtype }) as Tensor;
  const shaped = r.shape.length === 0 ? t : (t as any).reshape(r.shape);
  if (r.requires_grad) shaped.requires_grad_(true);
  return shaped;
}

function flat(v: any): number[] {
  return Array.isArray(v) ? v.flatMap(flat) : [v];
}

function expectExact(got: Tensor, want: Rec, what: string): void {
  expect([...got.shape], `${what} shape`).toEqual(want.shape);
  expect(got.dtype.name, `${what} dtype`).toBe(want.dtype);
  expect(got.tolist(), `${what} values`).toEqual(dec(want.values));
}

function expectClose(got: Tensor | null, want: Rec | null, what: string): void {
  if (want === null) {
    expect(got, what).toBeNull();
    return;
  }
  expect(got, what).not.toBeNull();
  expect([...got!.shape], `${what} shape`).toEqual(want.shape);
  expect(got!.dtype.name, `${what} dtype`).toBe(want.dtype);
  const g = flat(got!.tolist());
  const w = flat(dec(want.values));
  g.forEach((x, i) => {
    if (Number.isNaN(w[i])) expect(Number.isNaN(x), `${what}[${i}]`).toBe(true);
    else expect(Math.abs(x - w[i]) <= ATOL + RTOL * Math.abs(w[i]), `${what}[${i}]: ${x} vs ${w[i]}`).toBe(true);
  });
}

function construct(cls: string, args: any[], kwargs: Record<string, unknown>): any {
  const kw = Object.keys(kwargs).length ? [kwargs] : [];
  return new nn[cls](...args, ...kw);
}

describe("nn modules: construction, forward and backward vs PyTorch", () => {
  for (const c of fx.modules) {
    it(c.label, () => {
      torch.manual_seed(0);
      const m = construct(c.cls, c.args, c.kwargs);
      expect(String(m)).toBe(c.str);
      const params = [...m.named_parameters()];
      expect(params.map(([n]: any) => n)).toEqual(c.params.map(([n]: any) => n));
      params.forEach(([n, p]: any, i: number) => expectExact(p, c.params[i][1], `param ${n}`));
      const bufs = [...m.named_buffers()];
      expect(bufs.map(([n]: any) => n)).toEqual(c.buffers.map(([n]: any) => n));
      bufs.forEach(([n, b]: any, i: number) => expectExact(b, c.buffers[i][1], `buffer ${n}`));
      const sd = m.state_dict();
      expect(Object.keys(sd)).toEqual(c.state_dict_keys);
      expect(sd._metadata).toEqual(c.metadata);

      const xs = c.inputs.map(build);
      if (!c.train) m.eval();
      const steps = c.cls.startsWith("BatchNorm") && c.train ? 2 : 1;
      let out: any;
      for (let s = 0; s < steps; s++) {
        torch.manual_seed(7);
        out = m(...xs);
      }
      expectClose(out, c.output, "output");
      out.backward(build(c.upstream));
      [...m.named_parameters()].forEach(([n, p]: any, i: number) => expectClose(p.grad, c.param_grads[i][1], `grad ${n}`));
      xs.forEach((x: any, i: number) => expectClose(c.input_grads[i] === null ? null : x.grad, c.input_grads[i], `input grad ${i}`));
      [...m.named_buffers()].forEach(([n, b]: any, i: number) => expectClose(b, c.buffers_after[i][1], `buffer after ${n}`));
      if (c.eval_output) {
        m.eval();
        const e = torch.no_grad(() => m(xs[0]));
        expectClose(e, c.eval_output, "eval output");
      }
    });
  }
});

function errOf(fn: () => unknown): { type: string; message: string } | null {
  try {
    fn();
    return null;
  } catch (e: any) {
    return { type: e.name, message: e.message };
  }
}

describe("state_dict / load_state_dict", () => {
  const s = fx.state_dict;
  it("error texts", () => {
    torch.manual_seed(0);
    const lin = new nn.Linear(3, 4);
    expect(errOf(() => lin.load_state_dict({ weight: torch.zeros(4, 3) }))).toEqual(s.missing);
    expect(errOf(() => lin.load_state_dict({ weight: torch.zeros(4, 3), bias: torch.zeros(4), extra: torch.zeros(1) }))).toEqual(s.unexpected);
    expect(errOf(() => lin.load_state_dict({ weight: torch.zeros(3, 3), bias: torch.zeros(4) }))).toEqual(s.size_mismatch);
    expect(errOf(() => lin.load_state_dict({ weight: torch.zeros(2), "foo.bar": torch.zeros(1) }))).toEqual(s.all);
    const seq = new nn.Sequential(new nn.Linear(2, 3), new nn.ReLU(), new nn.Sequential(new nn.Linear(3, 1), new nn.BatchNorm1d(1)));
    expect(errOf(() => seq.load_state_dict({ "0.weight": torch.zeros(3, 2) }))).toEqual(s.nested_missing);
    const r = lin.load_state_dict({ weight: torch.ones(4, 3), x: torch.zeros(1) }, { strict: false });
    expect({ ...r, weight: lin.weight.tolist() }).toEqual(s.non_strict);
    const sd = seq.state_dict();
    expect(Object.keys(sd)).toEqual(s.nested_keys);
    expect(Object.fromEntries(Object.entries(sd._metadata))).toEqual(Object.fromEntries(s.nested_metadata));
  });
  it("round-trips into a fresh model", () => {
    torch.manual_seed(0);
    const a = new nn.Sequential(new nn.Linear(2, 3), new nn.BatchNorm1d(3));
    const b = new nn.Sequential(new nn.Linear(2, 3), new nn.BatchNorm1d(3));
    expect(b.load_state_dict(a.state_dict())).toEqual({ missing_keys: [], unexpected_keys: [] });
    expect(b.get(0).weight.tolist()).toEqual(a.get(0).weight.tolist());
  });
  it("BatchNorm: a version-1 checkpoint without num_batches_tracked loads it as 0; version 2 requires it", () => {
    const bn = new nn.BatchNorm1d(2);
    bn.num_batches_tracked.fill_(5);
    const sd1 = { weight: torch.full([2], 2.0), bias: torch.zeros(2), running_mean: torch.ones(2), running_var: torch.ones(2) };
    const r = bn.load_state_dict(sd1);
    expect({ missing_keys: r.missing_keys, num_batches_tracked: bn.num_batches_tracked.item(), weight: bn.weight.tolist() }).toEqual(s.bn_v1);
    const sd2: any = { ...sd1 };
    Object.defineProperty(sd2, "_metadata", { value: { "": { version: 2 } }, enumerable: false });
    expect(errOf(() => bn.load_state_dict(sd2))).toEqual(s.bn_v2_missing);
  });
});

describe("registration errors and __setattr__ routing", () => {
  const r = fx.registration;
  it("texts", () => {
    const m = new nn.Module();
    expect(errOf(() => m.register_parameter("a.b", null))).toEqual(r.param_dot);
    expect(errOf(() => m.register_parameter("", null))).toEqual(r.param_empty);
    expect(errOf(() => m.register_parameter("w", torch.zeros(2)))).toEqual(r.param_type);
    expect(errOf(() => m.register_buffer("b", 3))).toEqual(r.buffer_type);
    m.x = 5;
    expect(errOf(() => m.register_parameter("x", null))).toEqual(r.attr_exists);
    const lin = new nn.Linear(2, 2);
    expect(errOf(() => (lin.weight = torch.zeros(2, 2)))).toEqual(r.assign_tensor_to_param);
    expect(errOf(() => m.add_module("a.b", new nn.ReLU()))).toEqual(r.module_name_dot);
    expect(errOf(() => m.add_module("a", 3))).toEqual(r.not_module);
    expect(errOf(() => new nn.Linear(3))).toEqual(r.linear_missing);
    expect(errOf(() => new nn.Linear(3, 4, { bia: false }))).toEqual(r.linear_kw);
    expect(errOf(() => m.register_parameter("w", new nn.Parameter(torch.zeros(2)).mul(2)))).toEqual(r.nonleaf);
  });
  it("assignment registers Parameters, Modules and buffers; del and reassignment move them", () => {
    class Net extends nn.Module {
      constructor() {
        super();
        this.fc = new nn.Linear(2, 2);
        this.w = new nn.Parameter(torch.ones(2));
        this.register_buffer("scale", torch.ones(1));
        this.plain = 3;
      }
      forward(x: any) {
        return this.fc(x).mul(this.w).mul(this.scale);
      }
    }
    const net: any = new Net();
    expect(Object.keys(net._modules)).toEqual(["fc"]);
    expect(Object.keys(net._parameters)).toEqual(["w"]);
    expect(net.scale).toBe(net._buffers.scale);
    net.scale = torch.full([1], 2.0);
    expect(net._buffers.scale.tolist()).toEqual([2]);
    expect([...net.named_parameters()].map(([n]: any) => n)).toEqual(["w", "fc.weight", "fc.bias"]);
    net.w = null;
    expect(net.w).toBeNull();
    expect("w" in net._parameters).toBe(true);
    delete net.fc;
    expect("fc" in net._modules).toBe(false);
    expect(net.fc).toBeUndefined();
    net.fc = new nn.Linear(2, 2);
    net.fc = new nn.Parameter(torch.zeros(1)); // a Parameter replaces the child module, as __setattr__'s remove_from does
    expect("fc" in net._modules).toBe(false);
    expect(net._parameters.fc).toBe(net.fc);
  });
});

describe("printing", () => {
  const r = fx.repr;
  it("container trees and extra_repr texts", () => {
    torch.manual_seed(0);
    const seq = new nn.Sequential(new nn.Conv2d(1, 4, 3), new nn.ReLU(), new nn.MaxPool2d(2), new nn.Flatten(), new nn.Sequential(new nn.Linear(4, 2), new nn.Dropout(0.1)));
    expect(String(seq)).toBe(r.sequential);
    const ml = new nn.ModuleList([new nn.Linear(2, 2), new nn.Tanh()]);
    ml.append(new nn.BatchNorm1d(2));
    expect(String(ml)).toBe(r.modulelist);
    const md = new nn.ModuleDict({ enc: new nn.Linear(2, 3), act: new nn.GELU(), list: new nn.ModuleList([new nn.Identity()]) });
    expect(String(md)).toBe(r.moduledict);
    const pl = new nn.ParameterList([new nn.Parameter(torch.zeros(2, 3)), new nn.Parameter(torch.zeros(4))]);
    expect(String(pl)).toBe(r.parameterlist);
    expect(Object.keys(pl.state_dict())).toEqual(r.parameterlist_keys);
    class Net extends nn.Module {
      constructor() {
        super();
        this.fc = new nn.Linear(2, 2);
        this.register_buffer("scale", torch.ones(1));
        this.register_buffer("tmp", torch.zeros(1), { persistent: false });
      }
    }
    const net = new Net();
    expect(String(net)).toBe(r.net);
    expect(Object.keys(net.state_dict())).toEqual(r.net_keys);
    expect([...net.named_buffers()].map(([n]: any) => n)).toEqual(r.net_buffers);
    expect(String(new nn.Module())).toBe(r.empty_module);
    expect(String(new nn.Parameter(torch.tensor([1.5, 2.0])))).toBe(r.parameter_repr);
    expect(String(new nn.Parameter(torch.tensor([1.5, 2.0]), false))).toBe(r.parameter_repr_nograd);
    const extra = [
      new nn.Conv2d(2, 4, 3, { padding: "same" }), new nn.Conv1d(2, 2, 3, { padding: 2, padding_mode: "circular", bias: false }),
      new nn.ConvTranspose2d(2, 2, 2, { stride: 2 }), new nn.Embedding(10, 3, { padding_idx: 0, max_norm: 1.0, norm_type: 1.0, scale_grad_by_freq: true }),
      new nn.BatchNorm1d(4, { momentum: null }), new nn.LayerNorm([2, 3]), new nn.GroupNorm(1, 2, { affine: false }), new nn.InstanceNorm2d(3),
      new nn.Softmax(), new nn.Hardtanh(), new nn.ReLU({ inplace: true }), new nn.LeakyReLU({ inplace: true }), new nn.Dropout({ p: 0.25, inplace: true }),
      new nn.AvgPool1d(2), new nn.AvgPool2d([2, 1], { stride: 1 }), new nn.MaxPool1d(3, 1, 1), new nn.Unflatten(-1, [2, 2]), new nn.Bilinear(2, 3, 4, { bias: false }),
      new nn.CrossEntropyLoss(), new nn.Threshold(1.0, 2.5, true), new nn.Softplus(2, 10), new nn.Linear(1, 1, { bias: false }),
    ].map(String);
    extra.forEach((s, i) => expect(s, `extra[${i}]`).toBe(r.extra[i]));
  });
});

describe("hooks", () => {
  const h = fx.hooks;
  it("forward pre-hooks, forward hooks and full backward hooks fire in PyTorch's order", () => {
    torch.manual_seed(0);
    const seq = new nn.Sequential(new nn.Linear(3, 2), new nn.Tanh(), new nn.Linear(2, 2));
    const log: string[] = [];
    [...seq].forEach((m: any, i: number) => {
      m.register_forward_pre_hook(() => void log.push(`pre${i}`));
      m.register_forward_hook(() => void log.push(`fwd${i}`));
      m.register_full_backward_hook(() => void log.push(`bwd${i}`));
    });
    seq.register_forward_pre_hook(() => void log.push("pre_seq"));
    seq.register_forward_hook(() => void log.push("fwd_seq"));
    const x = build({ ...h.x, requires_grad: true });
    seq(x).sum().backward();
    expect(log).toEqual(h.order);
  });
  it("full backward hook sees grad_input/grad_output and may replace grad_input", () => {
    torch.manual_seed(0);
    const lin = new nn.Linear(3, 2);
    const seen: any = {};
    lin.register_full_backward_hook((_m: any, gi: any[], go: any[]) => {
      seen.gi = gi;
      seen.go = go;
      return [gi[0].mul(2)];
    });
    const f = h.full;
    const x = build({ ...f.x, requires_grad: true });
    lin(x).backward(build(f.upstream));
    expect(seen.gi.length).toBe(f.grad_input.length);
    seen.gi.forEach((g: any, i: number) => expectClose(g, f.grad_input[i], `grad_input ${i}`));
    seen.go.forEach((g: any, i: number) => expectClose(g, f.grad_output[i], `grad_output ${i}`));
    expectClose(x.grad, f.x_grad, "x.grad");
    expectClose(lin.weight.grad, f.weight_grad, "weight.grad");
  });
  it("hooks replace inputs and outputs; handles remove them", () => {
    const lin = new nn.Linear(2, 2);
    const rp = h.replace;
    torch.no_grad(() => {
      lin.weight.copy_(build(rp.weight));
      lin.bias.copy_(build(rp.bias));
    });
    const hp = lin.register_forward_pre_hook((_m: any, inp: any[]) => [inp[0].mul(0)]);
    const hf = lin.register_forward_hook((_m: any, _i: any, out: any) => out.add(1));
    const x = torch.ones(1, 2);
    expectClose(lin(x), rp.with_hooks, "with hooks");
    hp.remove();
    hf.remove();
    expectClose(lin(x), rp.without, "without hooks");
  });
});

describe("nn.init", () => {
  const I = fx.init;
  const init = nn.init;
  const cases: [string, (t: any) => unknown, number[]][] = [
    ["uniform_", (t) => init.uniform_(t, -2, 3), [3, 4]],
    ["normal_", (t) => init.normal_(t, 1, 0.5), [3, 4]],
    ["constant_", (t) => init.constant_(t, 0.3), [2, 2]],
    ["ones_", init.ones_, [2, 2]],
    ["zeros_", init.zeros_, [2, 2]],
    ["eye_", init.eye_, [3, 4]],
    ["dirac_", init.dirac_, [4, 2, 3, 3]],
    ["dirac_groups", (t) => init.dirac_(t, 2), [4, 2, 3]],
    ["xavier_uniform_", init.xavier_uniform_, [5, 3]],
    ["xavier_normal_", (t) => init.xavier_normal_(t, 2.0), [5, 3]],
    ["kaiming_uniform_", init.kaiming_uniform_, [4, 3, 2]],
    ["kaiming_uniform_relu_fan_out", (t) => init.kaiming_uniform_(t, { mode: "fan_out", nonlinearity: "relu" }), [4, 6]],
    ["kaiming_normal_", (t) => init.kaiming_normal_(t, { a: 0.1 }), [4, 3]],
    ["trunc_normal_", (t) => init.trunc_normal_(t, { mean: 0.5, std: 2.0, a: -1.0, b: 3.0 }), [4, 5]],
    ["trunc_normal_default", init.trunc_normal_, [200]],
    ["orthogonal_", init.orthogonal_, [3, 5]],
    ["orthogonal_tall", (t) => init.orthogonal_(t, 2.0), [5, 3]],
  ];
  for (const [name, fn, shape] of cases) {
    it(name, () => {
      torch.manual_seed(0);
      const t = torch.empty(shape);
      fn(t);
      expectClose(t, I[name], name);
    });
  }
  it("calculate_gain and errors", () => {
    const gains = [["linear", null], ["tanh", null], ["relu", null], ["leaky_relu", null], ["leaky_relu", 0.2], ["selu", null], ["conv2d", null]].map(([n, p]) =>
      init.calculate_gain(n, p),
    );
    expect(gains).toEqual(I.gains);
    expect(errOf(() => init.xavier_uniform_(torch.empty(3)))).toEqual(I.errors.fan);
    expect(errOf(() => init.kaiming_uniform_(torch.empty(3, 3), { mode: "fan" }))).toEqual(I.errors.mode);
    expect(errOf(() => init.calculate_gain("foo"))).toEqual(I.errors.gain);
    expect(errOf(() => init.eye_(torch.empty(3)))).toEqual(I.errors.eye);
  });
});

describe("Module API", () => {
  const M = fx.misc;
  it("iteration, modes, zero_grad, dtype conversion, default init of a model", () => {
    torch.manual_seed(0);
    const seq = new nn.Sequential(new nn.Linear(2, 3), new nn.ReLU(), new nn.Linear(3, 1));
    expect([...seq.named_parameters()].map(([n]: any) => n)).toEqual(M.named_parameters);
    expect([...seq.named_modules()].map(([n, m]: any) => [n, m._get_name()])).toEqual(M.named_modules);
    expect([...seq.named_children()].map(([n]: any) => n)).toEqual(M.named_children);
    expect([...seq.named_parameters({ prefix: "model" })].map(([n]: any) => n)).toEqual(M.named_parameters_prefix);
    expect([...seq.named_parameters({ recurse: false })].map(([n]: any) => n)).toEqual(M.nonrecurse);
    const shared = new nn.Linear(2, 2);
    expect([...new nn.Sequential(shared, shared).named_parameters()].map(([n]: any) => n)).toEqual(M.shared_dedup);
    expect(String(seq.get("0:2"))).toBe(M.slice);
    expect(String(seq.get(-1))).toBe(M.neg);
    expect(seq.length).toBe(M.len);
    const x = torch.ones(1, 2);
    seq(x).sum().backward();
    seq.zero_grad();
    [...seq.parameters()].forEach((p: any, i: number) => expectExact(p.grad, M.zero_grad[i], `zeroed grad ${i}`));
    seq(x).sum().backward();
    seq.zero_grad({ set_to_none: true });
    expect([...seq.parameters()].map((p: any) => p.grad === null)).toEqual(M.zero_grad_none);
    seq.eval();
    expect([...seq.modules()].map((m: any) => m.training)).toEqual(M.eval_training);
    seq.train();
    expect([...seq.modules()].map((m: any) => m.training)).toEqual(M.train_training);
    seq.double();
    expect([...seq.parameters()].map((p: any) => `torch.${p.dtype.name}`)).toEqual(M.double_dtypes);
    const bn = new nn.BatchNorm1d(2).half();
    expect([...bn.named_buffers(), ...bn.named_parameters()].map(([n, b]: any) => [n, `torch.${b.dtype.name}`])).toEqual(M.half_bn);
    seq.requires_grad_(false);
    expect([...seq.parameters()].map((p: any) => p.requires_grad)).toEqual(M.requires_grad_);

    torch.manual_seed(0);
    const model = new nn.Sequential(new nn.Conv2d(1, 2, 3), new nn.BatchNorm2d(2), new nn.ReLU(), new nn.Flatten(), new nn.Linear(8, 3), new nn.Embedding(4, 2));
    const sd = model.state_dict();
    expect(Object.keys(sd)).toEqual(M.model_state.map(([k]: any) => k));
    M.model_state.forEach(([k, v]: any) => expectExact(sd[k], v, k));

    const emb = nn.Embedding.from_pretrained(torch.tensor([[1.5, 2.0], [3.0, 4.0]]), { padding_idx: 1 });
    expect(String(emb)).toBe(M.from_pretrained.str);
    expect(emb.weight.requires_grad).toBe(M.from_pretrained.requires_grad);
    expectExact(emb.weight, M.from_pretrained.weight, "from_pretrained weight");
  });
  it("a module is callable, and model.forward skips the hooks", () => {
    const lin = new nn.Linear(2, 2);
    let n = 0;
    lin.register_forward_hook(() => void n++);
    lin(torch.ones(1, 2));
    lin.__call__(torch.ones(1, 2));
    lin.forward(torch.ones(1, 2));
    expect(n).toBe(2);
    expect(lin instanceof nn.Linear && lin instanceof nn.Module).toBe(true);
  });
});
