// The Python-level behaviour of torch.optim against PyTorch 1.13 (fixtures/optim.json "errors",
// "warnings", "reprs", written by fixtures/gen_optim.py): argument checks and their texts, parameter
// group rules, load_state_dict's checks, the schedulers' checks, the warnings PyTorch gives (scheduler
// stepped before the optimizer, get_lr() outside step, step(epoch), duplicate parameters), the repr of
// an optimizer; and zero_grad's two modes, state keyed by parameter, step's grad mode.
import { describe, it, expect } from "vitest";
import { FX, T, withWarnings } from "./_support.js";
import { outcome } from "../support/fixtures.js";
import { DispatchLog } from "../support/dispatch_log.js";

const leaf = () => T.zeros(2).requires_grad_();
const O = T.optim;
const S = T.optim.lr_scheduler;

function stepped(opt: any) {
  for (const g of opt.param_groups) for (const p of g.params) p.grad = T.ones_like(p);
  opt.step();
  return opt;
}

const ERRORS: Record<string, () => unknown> = {
  sgd_negative_lr: () => new O.SGD([leaf()], { lr: -1 }),
  sgd_negative_momentum: () => new O.SGD([leaf()], { lr: 0.1, momentum: -0.5 }),
  sgd_negative_wd: () => new O.SGD([leaf()], { lr: 0.1, weight_decay: -0.5 }),
  sgd_nesterov_no_momentum: () => new O.SGD([leaf()], { lr: 0.1, nesterov: true }),
  sgd_nesterov_dampening: () => new O.SGD([leaf()], { lr: 0.1, momentum: 0.9, dampening: 0.1, nesterov: true }),
  sgd_required_lr: () => new O.SGD([leaf()]),
  empty_params: () => new O.SGD([], { lr: 0.1 }),
  tensor_params: () => new O.SGD(T.zeros(2).requires_grad_(), { lr: 0.1 }),
  non_tensor_param: () => new O.SGD([leaf(), 3], { lr: 0.1 }),
  non_leaf: () => new O.SGD([leaf().mul(2)], { lr: 0.1 }),
  two_groups_same_param: () => ((p) => new O.SGD([{ params: [p] }, { params: [p] }], { lr: 0.1 }))(leaf()),
  add_param_group_dup: () => ((p) => new O.Adam([p]).add_param_group({ params: p }))(leaf()),
  adam_negative_lr: () => new O.Adam([leaf()], { lr: -0.5 }),
  adam_eps: () => new O.Adam([leaf()], { eps: -1e-8 }),
  adam_beta0: () => new O.Adam([leaf()], { betas: [1.5, 0.999] }),
  adam_beta1: () => new O.Adam([leaf()], { betas: [0.9, -0.5] }),
  adam_wd: () => new O.Adam([leaf()], { weight_decay: -0.5 }),
  adamw_beta0: () => new O.AdamW([leaf()], { betas: [-0.5, 0.999] }),
  adamw_wd: () => new O.AdamW([leaf()], { weight_decay: -2 }),
  rmsprop_alpha: () => new O.RMSprop([leaf()], { alpha: -0.5 }),
  rmsprop_momentum: () => new O.RMSprop([leaf()], { momentum: -0.5 }),
  rmsprop_eps: () => new O.RMSprop([leaf()], { eps: -0.5 }),
  adagrad_lr_decay: () => new O.Adagrad([leaf()], { lr_decay: -0.5 }),
  adagrad_init: () => new O.Adagrad([leaf()], { initial_accumulator_value: -0.5 }),
  adagrad_eps: () => new O.Adagrad([leaf()], { eps: -0.5 }),
  load_group_count: () =>
    new O.SGD([leaf()], { lr: 0.1 }).load_state_dict(new O.SGD([{ params: [leaf()] }, { params: [leaf()] }], { lr: 0.1 }).state_dict()),
  load_group_size: () => new O.SGD([leaf()], { lr: 0.1 }).load_state_dict(new O.SGD([leaf(), leaf()], { lr: 0.1 }).state_dict()),
  lambda_lr_count: () => new S.LambdaLR(new O.SGD([{ params: [leaf()] }, { params: [leaf()] }], { lr: 0.1 }), [(e: number) => 1.0 + 0 * e]),
  scheduler_resume_no_initial_lr: () => new S.StepLR(new O.SGD([leaf()], { lr: 0.1 }), 3, { last_epoch: 4 }),
  onecycle_no_steps: () => new S.OneCycleLR(new O.SGD([leaf()], { lr: 0.1 }), { max_lr: 1.0 }),
  onecycle_total_steps: () => new S.OneCycleLR(new O.SGD([leaf()], { lr: 0.1 }), 1.0, { total_steps: 0 }),
  onecycle_epochs: () => new S.OneCycleLR(new O.SGD([leaf()], { lr: 0.1 }), 1.0, { epochs: -1, steps_per_epoch: 3 }),
  onecycle_steps_per_epoch: () => new S.OneCycleLR(new O.SGD([leaf()], { lr: 0.1 }), 1.0, { epochs: 2, steps_per_epoch: 0 }),
  onecycle_pct_start: () => new S.OneCycleLR(new O.SGD([leaf()], { lr: 0.1 }), 1.0, { total_steps: 10, pct_start: 1.5 }),
  onecycle_anneal: () => new S.OneCycleLR(new O.SGD([leaf()], { lr: 0.1 }), 1.0, { total_steps: 10, anneal_strategy: "foo" }),
  onecycle_max_lr_count: () => new S.OneCycleLR(new O.SGD([leaf()], { lr: 0.1 }), [1.0, 2.0], { total_steps: 10 }),
  onecycle_no_momentum: () => new S.OneCycleLR(new O.Adagrad([leaf()], { lr: 0.1 }), 1.0, { total_steps: 10 }),
  onecycle_overstep: () => {
    const s = new S.OneCycleLR(new O.SGD([leaf()], { lr: 0.1, momentum: 0.9 }), 1.0, { total_steps: 3 });
    for (let i = 0; i < 4; i++) {
      s.optimizer.step();
      s.step();
    }
  },
  plateau_factor: () => new S.ReduceLROnPlateau(new O.SGD([leaf()], { lr: 0.1 }), { factor: 1.0 }),
  plateau_mode: () => new S.ReduceLROnPlateau(new O.SGD([leaf()], { lr: 0.1 }), { mode: "foo" }),
  plateau_threshold_mode: () => new S.ReduceLROnPlateau(new O.SGD([leaf()], { lr: 0.1 }), { threshold_mode: "foo" }),
  constant_lr_factor: () => new S.ConstantLR(new O.SGD([leaf()], { lr: 0.1 }), { factor: 1.5 }),
  linear_lr_start: () => new S.LinearLR(new O.SGD([leaf()], { lr: 0.1 }), { start_factor: -0.5 }),
  linear_lr_end: () => new S.LinearLR(new O.SGD([leaf()], { lr: 0.1 }), { end_factor: 1.5 }),
  multiplicative_lr_count: () =>
    new S.MultiplicativeLR(new O.SGD([{ params: [leaf()] }, { params: [leaf()] }], { lr: 0.1 }), [() => 1.0, () => 1.0, () => 1.0]),
  plateau_min_lrs: () => new S.ReduceLROnPlateau(new O.SGD([leaf()], { lr: 0.1 }), { min_lr: [0.1, 0.2] }),
};

describe("errors: PyTorch's exception types and texts", () => {
  it("every fixture scenario is re-enacted", () => {
    expect(Object.keys(ERRORS).sort()).toEqual(Object.keys(FX.errors).sort());
  });
  for (const [name, want] of Object.entries<any>(FX.errors)) {
    it(name, () => {
      const got = withWarnings(() => outcome(ERRORS[name])).got;
      if ("value" in want) expect(got.error).toBeUndefined();
      else expect({ error: got.error, message: got.message }).toEqual(want);
    });
  }
});

const WARNINGS: Record<string, () => unknown> = {
  scheduler_before_optimizer: () => {
    const s = new S.StepLR(new O.SGD([leaf()], { lr: 0.1 }), 3);
    s.step();
    s.step();
  },
  get_lr_outside_step: () => {
    const s = new S.StepLR(new O.SGD([leaf()], { lr: 0.1 }), 3);
    s.optimizer.step();
    s.step();
    return s.get_lr();
  },
  epoch_deprecated: () => {
    const s = new S.ExponentialLR(new O.SGD([leaf()], { lr: 0.1 }), 0.5);
    s.optimizer.step();
    s.step(3);
  },
  duplicate_params: () => {
    const p = leaf();
    return new O.SGD([p, p], { lr: 0.1 });
  },
  in_order: () => {
    const s = new S.StepLR(stepped(new O.SGD([leaf()], { lr: 0.1 })), 3);
    s.optimizer.step();
    s.step();
  },
};

describe("warnings: the UserWarnings PyTorch gives", () => {
  for (const [name, want] of Object.entries<any>(FX.warnings)) {
    it(name, () => {
      expect(withWarnings(WARNINGS[name]).warnings).toEqual(want);
    });
  }

  it("optimizer.step replaced after the scheduler was made: PyTorch's 'overridden' warning", () => {
    const opt = new O.SGD([leaf()], { lr: 0.1 });
    const s = new S.StepLR(opt, 3);
    opt.step = () => null;
    const { warnings } = withWarnings(() => s.step());
    expect(warnings).toEqual([
      "Seems like `optimizer.step()` has been overridden after learning rate scheduler initialization. Please, make sure to call `optimizer.step()` before `lr_scheduler.step()`. See more details at https://pytorch.org/docs/stable/optim.html#how-to-adjust-learning-rate",
    ]);
  });
});

describe("Optimizer API", () => {
  it("repr lists each group's options sorted by name, as PyTorch prints them", () => {
    expect(String(new O.SGD([leaf()], { lr: 0.1, momentum: 0.9 }))).toBe(FX.reprs.sgd);
    expect(String(new O.Adam([{ params: [leaf()] }, { params: [leaf()], lr: 0.5 }], { lr: 0.01 }))).toBe(FX.reprs.adam_two_groups);
  });

  it("zero_grad() zeroes .grad in place (1.13's default); zero_grad(true) / {set_to_none: true} sets it to None", () => {
    const p = leaf();
    const opt = new O.SGD([p], { lr: 0.1 });
    p.mul(p).sum().backward();
    const g = p.grad;
    opt.zero_grad();
    expect(p.grad).toBe(g);
    expect(p.grad.tolist()).toEqual([0, 0]);
    opt.zero_grad({ set_to_none: true });
    expect(p.grad).toBeNull();
    p.mul(3).sum().backward();
    opt.zero_grad(true);
    expect(p.grad).toBeNull();
  });

  it("a parameter whose .grad is None is skipped (no state, no change)", () => {
    const p = leaf(), q = T.ones(2).requires_grad_();
    const opt = new O.Adam([p, q], { lr: 0.1 });
    p.grad = T.ones(2);
    opt.step();
    expect(q.tolist()).toEqual([1, 1]);
    expect(opt.state.has(q)).toBe(false);
    expect(Object.keys(opt.state.get(p)).sort()).toEqual(["exp_avg", "exp_avg_sq", "step"]);
    expect(opt.state.get(p).step.dtype).toBe(T.float32);
  });

  it("state is keyed by the parameter; state_dict packs it by index in group order", () => {
    const a = leaf(), b = leaf(), c = leaf();
    const opt = new O.SGD([{ params: [a, b] }, { params: [c], lr: 0.5 }], { lr: 0.1, momentum: 0.9 });
    a.grad = T.ones(2);
    c.grad = T.ones(2);
    opt.step();
    expect(opt.state.get(a).momentum_buffer).toBeInstanceOf(T.Tensor);
    const sd = opt.state_dict();
    expect(Object.keys(sd.state)).toEqual(["0", "2"]);
    expect(sd.param_groups.map((g: any) => g.params)).toEqual([[0, 1], [2]]);
    expect(sd.param_groups[1].lr).toBe(0.5);
    // the state in state_dict is the live state (as PyTorch's); load_state_dict copies it
    expect(sd.state[0].momentum_buffer).toBe(opt.state.get(a).momentum_buffer);
    const opt2 = new O.SGD([{ params: [leaf(), leaf()] }, { params: [leaf()] }], { lr: 0.1 });
    opt2.load_state_dict(sd);
    const p2 = opt2.param_groups[0].params[0];
    expect(opt2.state.get(p2).momentum_buffer).not.toBe(sd.state[0].momentum_buffer);
    expect(opt2.state.get(p2).momentum_buffer.tolist()).toEqual([1, 1]);
    expect(opt2.param_groups[0].momentum).toBe(0.9); // the saved options replace the constructor's
  });

  it("load_state_dict casts floating-point state to the parameter's dtype, but not `step`", () => {
    const p = T.zeros(2, { dtype: T.float64 }).requires_grad_();
    const src = new O.Adam([T.zeros(2).requires_grad_()], { lr: 0.1 });
    stepped(src);
    const opt = new O.Adam([p], { lr: 0.1 });
    opt.load_state_dict(src.state_dict());
    expect(opt.state.get(p).exp_avg.dtype).toBe(T.float64);
    expect(opt.state.get(p).step.dtype).toBe(T.float32);
  });

  it("add_param_group fills the defaults; required options must be given", () => {
    const opt = new O.SGD([leaf()], { lr: 0.1, momentum: 0.9 });
    opt.add_param_group({ params: [leaf()], lr: 0.01 });
    expect(opt.param_groups[1].lr).toBe(0.01);
    expect(opt.param_groups[1].momentum).toBe(0.9);
    const req = new O.SGD([{ params: [leaf()], lr: 0.2 }]);
    expect(req.param_groups[0].lr).toBe(0.2);
  });

  it("step runs without recording history; the closure runs with grad enabled and its loss is returned", () => {
    const p = T.ones(2).requires_grad_();
    const opt = new O.SGD([p], { lr: 0.1 });
    const loss = T.no_grad(() =>
      opt.step(() => {
        opt.zero_grad();
        const l = p.mul(p).sum();
        expect(T.is_grad_enabled()).toBe(true);
        l.backward();
        return l;
      }),
    );
    expect(loss.item()).toBe(2);
    expect(p.grad_fn).toBeNull();
    expect(p.tolist()).toEqual([0.800000011920929, 0.800000011920929]);
    expect(T.is_grad_enabled()).toBe(true);
  });

  it("parameters may come from any iterable (a generator)", () => {
    const ps = [leaf(), leaf()];
    function* gen() {
      yield* ps;
    }
    const opt = new O.RMSprop(gen());
    expect(opt.param_groups[0].params).toEqual(ps);
    expect(opt.param_groups[0].params[0]).toBe(ps[0]);
  });

  it("the functional forms update lists of tensors (torch.optim._functional)", () => {
    const p = T.ones(2), g = T.full([2], 2.0);
    const bufs = [null];
    O._functional.sgd([p], [g], bufs, { weight_decay: 0, momentum: 0.5, lr: 0.1, dampening: 0, nesterov: false, maximize: false });
    expect(p.tolist()).toEqual([0.800000011920929, 0.800000011920929]);
    expect(bufs[0]).toBeInstanceOf(T.Tensor);
  });
});

describe("verbose=true prints what PyTorch prints", () => {
  function printed(fn: () => void): string[] {
    const lines: string[] = [];
    const orig = console.log;
    console.log = (...a: unknown[]) => void lines.push(a.map(String).join(" "));
    try {
      withWarnings(fn);
    } finally {
      console.log = orig;
    }
    return lines;
  }

  it("StepLR: each step, and step(epoch)", () => {
    const lines = printed(() => {
      const opt = new O.SGD([{ params: [leaf()] }, { params: [leaf()], lr: 0.01 }], { lr: 0.1 });
      const s = new S.StepLR(opt, 2, { gamma: 0.3, verbose: true });
      for (let i = 0; i < 3; i++) {
        opt.step();
        s.step();
      }
      s.step(7);
    });
    expect(lines).toEqual(FX.verbose.step_lr);
  });

  it("ReduceLROnPlateau: each reduction", () => {
    const lines = printed(() => {
      const s = new S.ReduceLROnPlateau(new O.SGD([leaf()], { lr: 0.1 }), { patience: 0, verbose: true });
      for (const m of [1.0, 1.0, 1.0]) s.step(m);
    });
    expect(lines).toEqual(FX.verbose.plateau);
  });
});

// Compared: each op and its first argument's shape. Two differences of the engine (not of torch.optim)
// are normalized away: a Python float passed to a Tensor overload reaches PyTorch's Python key as a number
// but Glasstorch's as a 0-d tensor (so later arguments are not compared), and PyTorch's log shows each
// Tensor.detach() twice and Tensor.data as a detach, where Glasstorch's detach dispatches once and .data
// not at all (so aten::detach is dropped from both logs).
const norm = (calls: any[]) => calls.filter((c) => c.op !== "aten::detach").map((c) => `${c.op} ${JSON.stringify(c.args[0] ?? null)}`);

describe("a step reaches the aten ops PyTorch's does, in order (TorchDispatchMode log vs PyTorch's)", () => {
  const ARGS: Record<string, [string, any]> = {
    sgd: ["SGD", { lr: 0.1, momentum: 0.9, nesterov: true, weight_decay: 0.1, maximize: true }],
    sgd_plain: ["SGD", { lr: 0.1 }],
    adam: ["Adam", { lr: 0.1, amsgrad: true, weight_decay: 0.1, maximize: true }],
    adamw: ["AdamW", { lr: 0.1, amsgrad: true }],
    rmsprop: ["RMSprop", { lr: 0.1, centered: true, momentum: 0.5, weight_decay: 0.1 }],
    rmsprop_plain: ["RMSprop", { lr: 0.1 }],
    adagrad: ["Adagrad", { lr: 0.1, lr_decay: 0.1, weight_decay: 0.1 }],
  };
  const logOf = (fn: () => unknown) => {
    const mode = new DispatchLog();
    {
      using _m = mode.enter();
      fn();
    }
    return mode.calls;
  };
  const withGrads = () => {
    const W = T.zeros(3, 4).requires_grad_(), b = T.zeros(4).requires_grad_();
    W.grad = T.full([3, 4], 0.5);
    b.grad = T.full([4], -0.25);
    return [W, b];
  };
  for (const [name, [cls, kw]] of Object.entries(ARGS)) {
    it(`${name}: first step (lazy state), second step, zero_grad`, () => {
      const opt = new O[cls](withGrads(), kw);
      const got = [logOf(() => opt.step()), logOf(() => opt.step()), logOf(() => opt.zero_grad())];
      expect(got.map(norm)).toEqual(FX.traces[name].map(norm));
    });
  }
  const clips: Record<string, (ps: any[]) => unknown> = {
    clip_grad_norm_2: (ps) => T.nn.utils.clip_grad_norm_(ps, 0.1),
    clip_grad_norm_inf: (ps) => T.nn.utils.clip_grad_norm_(ps, 0.1, { norm_type: Infinity }),
    clip_grad_value_: (ps) => T.nn.utils.clip_grad_value_(ps, 0.3),
  };
  for (const [name, fn] of Object.entries(clips)) {
    it(name, () => {
      const ps = withGrads();
      expect(norm(logOf(() => fn(ps)))).toEqual(norm(FX.traces[name]));
    });
  }
});

describe("differentiable=true: the update is recorded by autograd (a non-leaf parameter), as in PyTorch", () => {
  for (const [name, c] of Object.entries<any>(FX.differentiable)) {
    it(`${name}: ${c.cls}(${JSON.stringify(c.kwargs)}) — values after 3 steps, grad_fn, backward to the leaf`, () => {
      const w = T.tensor(c.w0, { dtype: T.float32 }).requires_grad_();
      const p = w.mul(1.0);
      p.retain_grad();
      const opt = new O[c.cls]([p], { differentiable: true, ...c.kwargs });
      for (const g of c.grads) {
        p.grad = T.tensor(g, { dtype: T.float32 });
        opt.step();
      }
      expect(p.detach().tolist()).toEqual(c.p);
      expect(p.grad_fn.name()).toBe(c.grad_fn);
      const r = outcome(() => p.mul(p).sum().backward());
      if ("error" in c.backward) expect({ error: r.error, message: r.message }).toEqual(c.backward);
      else expect(w.grad.tolist()).toEqual(c.backward.value);
    });
  }
});

describe("foreach=true (RMSprop, Adagrad): the _multi_tensor_* paths agree with the single-tensor loops", () => {
  // PyTorch's two implementations differ only in float round-off (the order of ops; Adagrad's clipped
  // learning rate is a float32 tensor on the foreach path): 30 steps on a random problem, every option on.
  const cases: [string, Record<string, unknown>][] = [
    ["RMSprop", { lr: 0.01, alpha: 0.9, centered: true, momentum: 0.5, weight_decay: 0.1, maximize: true }],
    ["RMSprop", { lr: 0.01 }],
    ["Adagrad", { lr: 0.1, lr_decay: 0.01, weight_decay: 0.1, initial_accumulator_value: 0.1, eps: 1e-6, maximize: true }],
    ["Adagrad", { lr: 0.1 }],
  ];
  for (const [cls, kw] of cases) {
    it(`${cls} ${JSON.stringify(kw)}: within 1e-5 relative of each other after 30 steps`, () => {
      T.manual_seed(5);
      const w0 = T.randn(4, 5), b0 = T.randn(5);
      const grads = Array.from({ length: 30 }, () => [T.randn(4, 5), T.randn(5)]);
      const run = (foreach: boolean) => {
        const ps = [w0.clone().requires_grad_(), b0.clone().requires_grad_()];
        const opt = new (O as any)[cls](ps, { ...kw, foreach });
        for (const g of grads) {
          ps.forEach((q, i) => (q.grad = g[i].clone()));
          opt.step();
        }
        return ps.map((q) => q.detach());
      };
      const single = run(false), multi = run(true);
      for (let i = 0; i < 2; i++) {
        const rel = multi[i].sub(single[i]).abs().div(single[i].abs().clamp_min(1e-3)).max().item();
        expect(rel).toBeLessThan(1e-5);
        expect(single[i].sub([w0, b0][i]).abs().max().item()).toBeGreaterThan(1e-3); // the parameters moved
      }
    });
  }
});

describe("options Glasstorch does not run", () => {
  it("differentiable=true with foreach=true: RMSprop's _multi_tensor_ path refuses, as in PyTorch", () => {
    const p = T.zeros(2).requires_grad_().mul(1);
    p.retain_grad();
    const opt = new O.RMSprop([p], { foreach: true, differentiable: true });
    p.grad = T.ones(2);
    expect(() => opt.step()).toThrow("_foreach ops don't support autograd");
  });
  it("fused=true is CUDA-only, as in PyTorch", () => {
    expect(() => new O.Adam([leaf()], { fused: true })).toThrow("FusedAdam requires all the params to be CUDA, floating point");
  });
});

describe("old state dicts", () => {
  it("Adam turns a numeric step (PyTorch < 1.12's format) into a float32 tensor on load", () => {
    const p = leaf();
    const opt = new O.Adam([p], { lr: 0.1 });
    opt.load_state_dict({
      state: { 0: { step: 3, exp_avg: T.ones(2), exp_avg_sq: T.ones(2) } },
      param_groups: [{ lr: 0.1, betas: [0.9, 0.999], eps: 1e-8, weight_decay: 0, amsgrad: false, params: [0] }],
    });
    const st = opt.state.get(p);
    expect(st.step).toBeInstanceOf(T.Tensor);
    expect(st.step.dtype).toBe(T.float32);
    expect(st.step.item()).toBe(3);
    // the options the old format lacked are filled in (__setstate__)
    expect(opt.param_groups[0].maximize).toBe(false);
    expect(opt.param_groups[0].foreach).toBeNull();
    expect(opt.param_groups[0].params[0]).toBe(p);
  });
});

describe("LambdaLR with a callable object", () => {
  it("calls __call__, and state_dict saves the object's fields (Python saves a callable object's __dict__)", () => {
    const opt = new O.SGD([leaf()], { lr: 1.0 });
    const f = { scale: 0.5, __call__(e: number) { return this.scale ** e; } };
    const s = new S.LambdaLR(opt, f);
    opt.step();
    s.step();
    expect(s.get_last_lr()).toEqual([0.5]);
    const sd = s.state_dict();
    expect(sd.lr_lambdas).toEqual([{ scale: 0.5 }]);
    const g = { scale: 0.1, __call__(e: number) { return this.scale ** e; } };
    const s2 = new S.LambdaLR(new O.SGD([leaf()], { lr: 1.0 }), g);
    s2.load_state_dict(sd);
    expect(g.scale).toBe(0.5);
    expect(s2.last_epoch).toBe(1);
  });
});
