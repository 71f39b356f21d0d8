// torch.optim's optimizers against PyTorch 1.13 (fixtures/optim.json "optimizers", written by
// fixtures/gen_optim.py): SGD, Adam, AdamW, RMSprop and Adagrad with their options (weight decay,
// momentum/dampening/Nesterov, AMSGrad, betas/eps, centered, lr_decay, initial accumulator, maximize),
// two parameter groups with different options and a parameter without gradient, float32 and float64,
// step(closure). Checked: the parameters after each of 20 steps, the state_dict after them (PyTorch's
// packed format: state by parameter index, param_groups with the options), and resuming: PyTorch's
// state_dict at step 10 loaded into a fresh optimizer continues exactly as PyTorch did.
//
// Tolerance: none. Parameters, state tensors and gradients are bit-identical to PyTorch's, float32 and
// float64: the same ops in the same order, kernels that round as PyTorch's AVX2 kernels do, and Python's
// float ** int for the bias corrections. (The problem's gradients involve no reductions — Glasstorch's
// sum accumulates in double, PyTorch's in float32 — so only the closure's returned loss, a sum, gets a
// relative 1e-6.)
import { describe, it, expect } from "vitest";
import { FX, T, decStateDict, dtypeOf, encVal, lossFn, maxRelErr, problem } from "./_support.js";

const TOL: Record<string, number> = { float32: 0, float64: 0 };
const LOSS_TOL = 1e-6;

function setup(c: any) {
  const dtype = dtypeOf(c.dtype);
  const p = problem(dtype);
  const W = p.W0.clone().requires_grad_();
  const b = p.b0.clone().requires_grad_();
  const params = c.group2 === null ? [W, b] : [W, b, p.u0.clone().requires_grad_()];
  return { p, W, b, params };
}

function makeOpt(c: any, params: any[]) {
  const cls = T.optim[c.cls];
  if (c.group2 === null) return new cls(params, { ...c.kwargs });
  return new cls([{ params: [params[0]] }, { params: [params[1], params[2]], ...c.group2 }], { ...c.kwargs });
}

/** One training step as the fixture takes it; returns the closure's loss when the case uses one. */
function trainStep(c: any, opt: any, s: ReturnType<typeof setup>): number | null {
  if (c.closure) {
    const closure = () => {
      opt.zero_grad();
      const loss = lossFn(s.p, s.W, s.b, c.sign);
      loss.backward();
      return loss;
    };
    return opt.step(closure).item();
  }
  opt.zero_grad();
  lossFn(s.p, s.W, s.b, c.sign).backward();
  opt.step();
  return null;
}

const snapshot = (params: any[]) => params.map((q) => q.detach().tolist());

describe("optimizers match PyTorch step by step", () => {
  for (const c of FX.optimizers) {
    describe(`${c.name} (${c.cls} ${JSON.stringify(c.kwargs)}${c.group2 ? " + group " + JSON.stringify(c.group2) : ""}, ${c.dtype})`, () => {
      it("parameters after each of 20 steps", () => {
        const s = setup(c);
        const opt = makeOpt(c, s.params);
        for (let i = 0; i < 20; i++) {
          const loss = trainStep(c, opt, s);
          if (c.closure) expect(Math.abs(loss! - c.losses[i]), `loss ${i}`).toBeLessThanOrEqual(Math.abs(c.losses[i]) * LOSS_TOL);
          expect(maxRelErr(snapshot(s.params), c.steps[i]), `step ${i + 1}`).toBeLessThanOrEqual(TOL[c.dtype]);
        }
        // .grad after the last step (zero_grad zeroes; the unused parameter's stays None)
        const grads = s.params.map((q: any) => (q.grad === null ? null : q.grad.tolist()));
        grads.forEach((g: any, i: number) => {
          if (c.grads_after[i] === null) expect(g).toBeNull();
          else expect(maxRelErr(g, c.grads_after[i])).toBe(0);
        });
      });

      it("state_dict after 20 steps has PyTorch's packed layout and values", () => {
        const s = setup(c);
        const opt = makeOpt(c, s.params);
        for (let i = 0; i < 20; i++) trainStep(c, opt, s);
        const sd = opt.state_dict();
        const want = c.state_dict;
        expect(Object.keys(sd.state).map(Number)).toEqual(want.state.map(([k]: any) => k));
        for (const [k, ws] of want.state) {
          const got = encVal(sd.state[k]);
          expect(Object.keys(got).sort(), `state ${k}`).toEqual(Object.keys(ws).sort());
          for (const [name, w] of Object.entries<any>(ws)) {
            if (w && typeof w === "object" && "tensor" in w) {
              expect(got[name].dtype, `${k}.${name}`).toBe(w.dtype);
              expect(got[name].shape, `${k}.${name}`).toEqual(w.shape);
              expect(maxRelErr(got[name].tensor, w.tensor, 1e-4), `${k}.${name}`).toBeLessThanOrEqual(TOL[c.dtype]);
            } else {
              expect(got[name], `${k}.${name}`).toEqual(w);
            }
          }
        }
        expect(encVal(sd.param_groups)).toEqual(want.param_groups);
      });

      it("resumes from PyTorch's state_dict at step 10 exactly as PyTorch continues", () => {
        const s = setup(c);
        s.params.forEach((q: any, i: number) => T.no_grad(() => q.copy_(T.tensor(c.steps[9][i], { dtype: dtypeOf(c.dtype) }))));
        const opt = makeOpt(c, s.params);
        opt.load_state_dict(decStateDict(c.state_dict_10));
        for (let i = 10; i < 20; i++) {
          trainStep(c, opt, s);
          expect(maxRelErr(snapshot(s.params), c.steps[i]), `step ${i + 1}`).toBeLessThanOrEqual(TOL[c.dtype]);
        }
      });

      it("its own state_dict round-trips: a fresh optimizer continues bit for bit", () => {
        const a = setup(c);
        const optA = makeOpt(c, a.params);
        for (let i = 0; i < 10; i++) trainStep(c, optA, a);
        const b = setup(c);
        b.params.forEach((q: any, i: number) => T.no_grad(() => q.copy_(a.params[i])));
        const optB = makeOpt(c, b.params);
        optB.load_state_dict(optA.state_dict());
        for (let i = 10; i < 20; i++) {
          trainStep(c, optA, a);
          trainStep(c, optB, b);
        }
        expect(snapshot(b.params)).toEqual(snapshot(a.params));
      });
    });
  }
});
