// Replays the gradient fixtures written through test/fixtures/_grad_cases.py (grads.json, grads_*.json): per
// case and dtype, the grad_fn name, the forward values, the first-order gradients (torch.autograd.grad with a
// fixed upstream gradient), whether each gradient requires grad under create_graph, and the second-order
// gradients of sum(g * w) — or PyTorch's error.
// Tolerances: float64 |a - e| <= 1e-12 + 1e-12 |e| (PyTorch's ops run in the same order, so most values are
// the same bits; vectorized kernels may round a last bit differently); float32 1e-6 + 1e-5 |e|. A family may
// widen them per case (`tolerance`), saying why.
import { describe, it, expect } from "vitest";
import * as torch from "../../engine/index.js";
import type { Tensor } from "../../engine/aten/core/Tensor.js";
import { dec } from "./fixtures.js";
import { buildWindow, dtypeNamed } from "./windows.js";
const T = torch as any;

const updown = (n: number, k: number) => Array.from({ length: n }, (_, i) => (((i * k) % 11) - 5) / 4);

interface Run {
  name: string | null;
  out: (Tensor | null)[];
  grads: (Tensor | null)[];
  grads_requires_grad: (boolean | null)[];
  grads2: (Tensor | null)[] | null;
}

/** The case's call on fresh inputs, then the same autograd.grad calls gen_grads.py makes. */
function run(c: any, dtype: string): Run {
  const inputs: Tensor[] = [];
  const decode = (a: any): any => {
    if (a && typeof a === "object" && "list" in a) return a.list.map(decode);
    if (a && typeof a === "object" && "dtype" in a && !("input" in a)) return dtypeNamed(a.dtype);
    if (a && typeof a === "object" && "input" in a) {
      const t = buildWindow({ ...a.input, dtype: a.input.dtype ?? dtype });
      if (a.grad) {
        t.requires_grad_(true);
        inputs.push(t);
      }
      return t;
    }
    return a;
  };
  const args = c.args.map(decode);
  if (c.clone_self) args[0] = args[0].clone();
  const tail = Object.keys(c.kwargs).length ? [c.kwargs] : [];
  // "aten": torch.ops.aten.<op> in the script (slice has no Python binding); Glasstorch's Tensor.<op> here
  // (an aten op with no Tensor method here, like index or linalg_vector_norm: its torch.ops overload);
  // "nn": torch._C._nn.<op> (the python_module: nn ops) in both
  const atenOverload = () => { const p = T.ops.aten[c.op]; return p.default ?? p.Tensor; };
  const out =
    c.variant === "method" || (c.variant === "aten" && typeof args[0][c.op] === "function") ? args[0][c.op](...args.slice(1), ...tail)
    : c.variant === "aten" ? atenOverload().call(...args, ...tail)
    : c.variant === "nn" ? T._C._nn[c.op](...args, ...tail)
    : c.op.split(".").reduce((m: any, k: string) => m[k], T)(...args, ...tail); // "linalg.solve": torch.linalg.solve
  const outs: Tensor[] = Array.isArray(out) ? [...out] : [out];
  const diff = (c.outs ?? [0]).map((i: number) => outs[i]);
  const dt = dtypeNamed(dtype);
  const vs = diff.map((o: Tensor) => torch.tensor(updown(o.numel(), 7), { dtype: dt }).reshape([...o.shape]));
  const grads = torch.autograd.grad(diff, inputs, { grad_outputs: vs, allow_unused: true, retain_graph: true });
  const gcg = torch.autograd.grad(diff, inputs, { grad_outputs: vs, allow_unused: true, create_graph: true });
  const live = gcg.filter((g): g is Tensor => g !== null && g.requires_grad);
  let grads2: (Tensor | null)[] | null = null;
  if (live.length) {
    const terms = live.map((g) => g.mul(torch.tensor(updown(g.numel(), 5), { dtype: g.dtype }).reshape([...g.shape])).sum());
    const s = terms.reduce((a, b) => (a === null ? b : a.add(b)), null as Tensor | null)!;
    grads2 = torch.autograd.grad(s, inputs, { allow_unused: true });
  }
  return { name: diff[0].grad_fn ? diff[0].grad_fn.name() : null, out: diff, grads, grads_requires_grad: gcg.map((g) => (g === null ? null : g.requires_grad)), grads2 };
}

function close(actual: Tensor | null, expected: any, dtype: string, what: string, tol: [number, number]): void {
  if (expected === null) {
    expect(actual, `${what}: PyTorch gives None`).toBeNull();
    return;
  }
  expect(actual, `${what}: PyTorch gives a tensor`).not.toBeNull();
  const a = actual!;
  expect([...a.shape], `${what} sizes`).toEqual(expected.sizes);
  expect(a.dtype.name, `${what} dtype`).toBe(expected.dtype);
  const got = a.reshape([-1]).tolist() as number[];
  const want = dec(expected.values) as number[];
  const [atol, rtol] = tol;
  for (let i = 0; i < want.length; i++) {
    const g = got[i], e = want[i];
    if (Number.isNaN(e) || !Number.isFinite(e)) {
      expect(Object.is(g, e) || (Number.isNaN(g) && Number.isNaN(e)), `${what}[${i}]: ${g} vs ${e}`).toBe(true);
    } else {
      expect(Math.abs(g - e) <= atol + rtol * Math.abs(e), `${what}[${i}]: ${g} vs ${e}`).toBe(true);
    }
  }
}


export interface GradCaseOptions {
  /** Cases not compared, each for a reason the test file states. */
  skip?: ReadonlySet<string>;
  /** [atol, rtol] for a case and dtype, where the default is too tight (say why). */
  tolerance?: (caseName: string, dtype: string) => [number, number] | undefined;
  /** Glasstorch's own create_graph flags for a case where they differ from PyTorch's (say why in the test). */
  requires_grad_differs?: (caseName: string) => (boolean | null)[] | undefined;
}

/** One `it` per case and dtype of a gradient fixture. */
export function describeGradCases(title: string, fixture: any, opts: GradCaseOptions = {}): void {
describe(title, () => {
  for (const c of fixture.cases) {
    for (const dtype of Object.keys(c.results)) {
      const e = c.results[dtype];
      const tol = opts.tolerance?.(c.name, dtype) ?? (dtype === "float64" ? [1e-12, 1e-12] : [1e-6, 1e-5]);
      (opts.skip?.has(c.name) ? it.skip : it)(`${c.name} (${dtype}): ${e.name ?? e.error}`, () => {
        if (e.error) {
          expect(() => run(c, dtype)).toThrow(expect.objectContaining({ name: e.error, message: e.message }));
          return;
        }
        const r = run(c, dtype);
        expect(r.name).toBe(e.name);
        e.out.forEach((o: any, i: number) => close(r.out[i], o, dtype, "output", tol));
        expect(r.grads.length).toBe(e.grads.length);
        e.grads.forEach((g: any, i: number) => close(r.grads[i], g, dtype, `grad ${i}`, tol));
        expect(r.grads_requires_grad, "gradients that require grad under create_graph").toEqual(opts.requires_grad_differs?.(c.name) ?? e.grads_requires_grad);
        if (e.grads2 === null) expect(r.grads2).toBeNull();
        else e.grads2.forEach((g: any, i: number) => close(r.grads2![i], g, dtype, `second-order grad ${i}`, tol));
      });
    }
  }
});
}
