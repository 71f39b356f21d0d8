// The native activation kernels (native/cpu/pointwise_activation.inc): leaky_relu, elu (selu, celu),
// softplus, mish, hardsigmoid, hardswish and the backward kernels of those and of hardtanh, against the
// TypeScript kernels (ActivationKernel.ts; activation.test.ts checks both against PyTorch's fixtures).
// float32 and bfloat16: the TS kernels' bits (the piecewise-linear ops exactly; exp, log1p and tanh
// are double polynomials rounded once, the correctly rounded float as Math.fround(Math.exp(x)) is,
// for every input here), but float32's elu (selu, celu) and softplus forward, computed in float (F32_TOL). float64: glibc's exp, log1p and tanh against V8's, within 2^-51 * max(1, |y|)
// (elu's exp(x) - 1 near 0 turns exp's last-bit difference into ~20 ulp of the result).
import { describe, expect, afterEach } from "vitest";
import * as torch from "../../../engine/index.js";
import { _set_native_isa, nativeSizePolicy } from "../../../engine/aten/native/cpu_native/NativeBackend.js";
import { bestIsa, kernelsRan, nativeIt, runnableIsas, underTs } from "../../support/native_paths.js";

nativeSizePolicy.minNumel = 0;
const ISAS = runnableIsas();
const F = torch.nn.functional;

afterEach(() => {
  if (ISAS.length > 0) _set_native_isa(bestIsa as any);
});

const flat = (t: torch.Tensor) => (t.to(torch.float64).contiguous().view(-1).tolist() as number[]);

/**
 * float32 elu (selu, celu) and softplus forward compute in float (exp within 1 ulp, softplus's log1p too):
 * elu within 4 float ulps of max(1, |y|) (its exp(x) - 1 cancels near 0 in both kernels, so exp's last
 * bit is absolute there), softplus within 4 ulps of y.
 */
const F32_TOL: Record<string, (w: number) => number> = {
  elu: (w) => Math.max(1, Math.abs(w)) * 2 ** -22, selu: (w) => Math.max(1, Math.abs(w)) * 2 ** -22,
  celu: (w) => Math.max(1, Math.abs(w)) * 2 ** -22, softplus: (w) => Math.abs(w) * 2 ** -22,
};

function expectSame(got: torch.Tensor, want: torch.Tensor, what: string, float64: boolean, tol?: (w: number) => number): void {
  const g = flat(got), w = flat(want);
  const bad = g.findIndex((v, i) => {
    if (Object.is(v, w[i]) || (Number.isNaN(v) && Number.isNaN(w[i]))) return false;
    if (tol !== undefined && Number.isFinite(w[i]) && Math.abs(v - w[i]) <= tol(w[i])) return false;
    return !(float64 && Math.abs(v - w[i]) <= Math.max(1, Math.abs(w[i])) * 2 ** -51);
  });
  expect(bad === -1 ? null : { at: bad, got: g[bad], want: w[bad] }, what).toBeNull();
}

// [name, forward, the backward stub it runs (null: none of these), dtypes]
const OPS: [string, (x: torch.Tensor) => torch.Tensor, string | null, torch.dtype[]][] = [
  ["leaky_relu", (x) => F.leaky_relu(x, 0.03), "leaky_relu_backward_stub", [torch.float32, torch.float64, torch.bfloat16]],
  ["elu", (x) => F.elu(x, 1.3), "elu_backward_stub", [torch.float32, torch.float64, torch.bfloat16]],
  ["selu", (x) => F.selu(x), "elu_backward_stub", [torch.float32, torch.float64, torch.bfloat16]],
  ["celu", (x) => F.celu(x, 0.7), "elu_backward_stub", [torch.float32, torch.float64, torch.bfloat16]],
  ["softplus", (x) => F.softplus(x, 2, 5), "softplus_backward_stub", [torch.float32, torch.float64, torch.bfloat16]],
  ["mish", (x) => F.mish(x), "mish_backward_stub", [torch.float32, torch.float64]],
  ["hardsigmoid", (x) => F.hardsigmoid(x), "hardsigmoid_backward_stub", [torch.float32, torch.float64, torch.bfloat16]],
  ["hardswish", (x) => F.hardswish(x), "hardswish_backward_stub", [torch.float32, torch.float64, torch.bfloat16]],
  ["hardtanh", (x) => F.hardtanh(x, -0.5, 2), "hardtanh_backward_stub", [torch.float32, torch.float64]],
];

/** Values over the ops' interesting ranges (to -25 and 25: exp's saturation, the +-3 corners), with the specials. */
function inputs(dtype: torch.dtype): torch.Tensor {
  torch.manual_seed(5);
  const x = torch.randn(260, 70, { dtype: torch.float64 }).mul(6);
  const flatX = x.view(-1);
  [NaN, -0, 0, Infinity, -Infinity, -3, 3, -25, 25, 1e-30, -1e-30, 2.5, -0.5, 2].forEach((v, i) => flatX.get(i * 7 + 3).fill_(v));
  return x.to(dtype);
}

describe("native activation kernels", () => {
  nativeIt("forward and backward: the TS kernels' values, contiguous, transposed and strided, in place, on every unit", () => {
    for (const isa of ISAS) {
      _set_native_isa(isa);
      for (const [name, f, backwardStub, dtypes] of OPS) {
        for (const dtype of dtypes) {
          const base = inputs(dtype), float64 = dtype === torch.float64;
          for (const [layout, x] of [["contiguous", base], ["transposed", base.t()], ["strided", base.get(":", "::3")]] as const) {
            const what = `${name} ${dtype} ${layout} [${isa}]`;
            const ran = kernelsRan(() => f(x));
            if (name !== "hardtanh") expect(ran.some((k) => k.endsWith(":native")), what).toBe(true);
            expectSame(f(x), underTs(() => f(x)), what, float64, dtype === torch.float32 ? F32_TOL[name] : undefined);
            const grad = torch.randn(x.shape, { dtype: torch.float64 }).to(dtype);
            const a = x.detach().clone().requires_grad_(), b = x.detach().clone().requires_grad_();
            const ranBack = kernelsRan(() => f(a).backward(grad));
            expect(ranBack, `${what} backward`).toContain(`${backwardStub}:native`);
            underTs(() => f(b).backward(grad));
            expectSame(a.grad!, b.grad!, `${what} backward`, float64);
          }
        }
      }
    }
  }, 120_000);

  nativeIt("in-place forms and float16 (which the TS kernels refuse with PyTorch's error)", () => {
    const x = inputs(torch.float32);
    const a = x.clone(), b = x.clone();
    F.leaky_relu(a, 0.2, true);
    underTs(() => F.leaky_relu(b, 0.2, true));
    expectSame(a, b, "leaky_relu_", false);
    const c = x.clone(), e = x.clone();
    F.elu(c, 0.5, true);
    underTs(() => F.elu(e, 0.5, true));
    expectSame(c, e, "elu_", false, F32_TOL.elu);
    expect(() => F.leaky_relu(x.to(torch.float16))).toThrow(`"leaky_relu_cpu" not implemented for 'Half'`);
    expect(() => F.mish(x.to(torch.bfloat16))).toThrow(`"mish_cpu" not implemented for 'BFloat16'`);
  });
});
