// torch.optim.lr_scheduler against PyTorch 1.13 (fixtures/optim.json "schedulers" / "closed_form",
// written by fixtures/gen_optim.py): StepLR, MultiStepLR (a repeated milestone), ExponentialLR,
// MultiplicativeLR, ConstantLR, LinearLR (up and down), PolynomialLR,
// CosineAnnealingLR (the recursive form, past T_max), LambdaLR (one lambda, a list), OneCycleLR (cos,
// linear three-phase, Adam's beta1, no momentum) and ReduceLROnPlateau (min/max, rel/abs, cooldown,
// min_lr per group, eps) on two parameter groups: the lr after the constructor's initial step and after
// each of 30 epochs, get_last_lr(), the momentum OneCycleLR cycles, the scheduler's state_dict, and
// step(epoch)'s closed forms. Each epoch calls optimizer.step() first, so no warning is expected.
//
// Tolerance: none — lrs and momenta are compared exactly. The arithmetic is Python's, op for op, with
// float ** int and math.cos rounded as glibc rounds them (V8's ** and Math.cos can be an ulp off, which
// the recursive CosineAnnealingLR would carry along). REL below is the knob, kept at 0.
import { describe, it, expect } from "vitest";
import { FX, T, decVal, withWarnings } from "./_support.js";
import { pyPow } from "../../engine/optim/_utils.js";

const REL = 0;
const LAMBDAS: Record<string, (e: number) => number> = {
  m095: () => 0.95,
  pow095: (e) => pyPow(0.95, e), // Python's 0.95 ** e
  inv: (e) => 1 / (e + 1),
  pow09: (e) => pyPow(0.9, e),
};

/** Numbers within REL of PyTorch's (NaN = NaN, infinities equal), everything else equal. */
function expectClose(got: any, want: any, where: string): void {
  if (typeof want === "number") {
    if (Number.isNaN(want)) return void expect(got, where).toBeNaN();
    if (!Number.isFinite(want) || want === 0) return void expect(got, where).toBe(want);
    expect(typeof got, where).toBe("number");
    expect(Math.abs(got - want), `${where}: ${got} vs ${want}`).toBeLessThanOrEqual(Math.abs(want) * REL);
    return;
  }
  if (Array.isArray(want)) {
    expect(Array.isArray(got) && got.length, where).toBe(want.length);
    want.forEach((w, i) => expectClose(got[i], w, `${where}[${i}]`));
    return;
  }
  if (want && typeof want === "object") {
    if ("callable" in want) return void expect(typeof got, where).toBe("function");
    expect(Object.keys(got).sort(), where).toEqual(Object.keys(want).sort());
    for (const k of Object.keys(want)) expectClose(got[k], want[k], `${where}.${k}`);
    return;
  }
  expect(got, where).toEqual(want);
}

function optimizerFor(c: any) {
  const W = T.zeros(3, 4).requires_grad_();
  const b = T.zeros(4).requires_grad_();
  const cls = T.optim[c.opt];
  if (c.two_groups) return new cls([{ params: [W] }, { params: [b], lr: c.opt_kwargs.lr / 10 }], { ...c.opt_kwargs });
  return new cls([W, b], { ...c.opt_kwargs });
}

function schedulerFor(c: any, opt: any) {
  const kwargs = { ...c.kwargs };
  if ("lr_lambda" in kwargs) {
    const ll = kwargs.lr_lambda;
    kwargs.lr_lambda = Array.isArray(ll) ? ll.map((x: string) => LAMBDAS[x]) : LAMBDAS[ll];
  }
  return new T.optim.lr_scheduler[c.sched](opt, kwargs);
}

const momentumOf = (opt: any) => {
  const g = opt.param_groups;
  if ("betas" in g[0]) return g.map((x: any) => x.betas[0]);
  if ("momentum" in g[0]) return g.map((x: any) => x.momentum);
  return null;
};

function run(c: any) {
  const opt = optimizerFor(c);
  const { got, warnings } = withWarnings(() => {
    const s = schedulerFor(c, opt);
    const lrs = [opt.param_groups.map((g: any) => g.lr)];
    const last = c.metrics === null ? [s.get_last_lr()] : [];
    const moms = [momentumOf(opt)];
    for (let e = 0; e < c.epochs; e++) {
      opt.step();
      if (c.metrics === null) {
        s.step();
        last.push(s.get_last_lr());
      } else {
        s.step(c.metrics[e]);
        last.push(s._last_lr);
      }
      lrs.push(opt.param_groups.map((g: any) => g.lr));
      moms.push(momentumOf(opt));
    }
    return { s, lrs, last, moms };
  });
  return { ...got, warnings, opt };
}

describe("lr schedulers match PyTorch over 30 epochs", () => {
  for (const c of FX.schedulers) {
    describe(`${c.name}: ${c.sched}(${JSON.stringify(c.kwargs)}) on ${c.opt}`, () => {
      it("lr after the constructor and after each epoch, get_last_lr(), momentum, no warnings", () => {
        const r = run(c);
        expectClose(r.lrs, c.lrs, "lr");
        expectClose(r.last, c.last_lr, "get_last_lr");
        expectClose(r.moms, c.momentum, "momentum");
        expect(r.warnings).toEqual(c.warnings);
      });

      it("state_dict: the scheduler's fields, as PyTorch's __dict__ minus the optimizer", () => {
        const r = run(c);
        const sd = r.s.state_dict();
        expect("optimizer" in sd).toBe(false);
        expectClose(sd, decVal(c.state_dict), "state_dict");
      });

      it("load_state_dict into a fresh scheduler continues the same schedule", () => {
        // after 15 epochs, a new scheduler on a new optimizer takes both state_dicts
        const half = { ...c, epochs: 15 };
        const a = run(half);
        const opt2 = optimizerFor(c);
        opt2.load_state_dict(a.opt.state_dict());
        const s2 = withWarnings(() => schedulerFor(c, opt2)).got;
        s2.load_state_dict(a.s.state_dict());
        opt2.load_state_dict(a.opt.state_dict()); // the constructor's initial step moved the lr; restore it
        const lrs: number[][] = [];
        withWarnings(() => {
          for (let e = 15; e < c.epochs; e++) {
            opt2.step();
            if (c.metrics === null) s2.step();
            else s2.step(c.metrics[e]);
            lrs.push(opt2.param_groups.map((g: any) => g.lr));
          }
        });
        expectClose(lrs, c.lrs.slice(16), "lr after resuming");
      });
    });
  }
});

describe("step(epoch) uses the closed form, with PyTorch's deprecation warning", () => {
  for (const c of FX.closed_form) {
    it(`${c.name}: ${c.sched}(${JSON.stringify(c.kwargs)}) at epochs ${JSON.stringify(c.epochs)}`, () => {
      const W = T.zeros(2).requires_grad_(), b = T.zeros(2).requires_grad_();
      const opt = new T.optim.SGD([{ params: [W] }, { params: [b], lr: 0.01 }], { lr: 0.1 });
      const s = new T.optim.lr_scheduler[c.sched](opt, { ...c.kwargs });
      const { got, warnings } = withWarnings(() =>
        c.epochs.map((e: number) => {
          opt.step();
          s.step(e);
          return s.get_last_lr();
        }),
      );
      expectClose(got, c.lrs, "lr");
      expect(warnings.length).toBe(c.epochs.length);
      expect(new Set(warnings).size).toBe(1);
      expect(warnings[0]).toBe(FX.warnings.epoch_deprecated[0]);
    });
  }
});
