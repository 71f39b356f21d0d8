// The native logsumexp (native/cpu/Reductions.cc logsumexp_impl, pointwise_kernels.inc lse_sum) against
// the TypeScript kernel (engine/aten/native/reduce3/LogSumExp.ts): the same steps in the same rounding
// (max with NaN winning, |max| = inf replaced by 0, each exp(x - max) in the element type, the terms
// added in order in double, log and the add in the element type). float32: the unit's float exp (within
// 1 ulp) against the TS kernel's correctly rounded one: s within 2^-23 relative, so log(s) within 2^-23, plus
// each kernel's roundings of s (2^-24), of log(s) (< 8 here: 2^-22) and of the sum (half an ulp of
// |m| + log(s) < 48: 2^-19): within 2 * 2^-23 * (1 + max|x|) (measured against float64: 0.2); float64:
// glibc's exp and log against V8's, each within 1 ulp, so the result (log(s) + m, which may cancel) within
// 16 * 2^-52 * (1 + max|x|).
// Any dims, strided inputs, keepdim, every runnable unit, 1 and 2 threads.
import { describe, expect, afterEach } from "vitest";
import * as torch from "../../../engine/index.js";
import { nativeSizePolicy } from "../../../engine/aten/native/cpu_native/NativeBackend.js";
import { _set_native_isa } from "../../../engine/aten/native/cpu_native/NativeBackend.js";
import { kernelsRan, nativeIt as native, restoreNativeDefaults, runnableIsas, underTs } from "../../support/native_paths.js";

nativeSizePolicy.minNumel = 0;
afterEach(restoreNativeDefaults);

/** The largest difference between a and b (same shape) in units of `unit`; NaN matching NaN, infinities exact. */
function worstError(a: torch.Tensor, b: torch.Tensor, unit: number): number {
  const x = a.flatten().tolist() as number[], y = b.flatten().tolist() as number[];
  expect(x.length).toBe(y.length);
  let worst = 0;
  for (let i = 0; i < x.length; i++) {
    if ((Number.isNaN(x[i]) && Number.isNaN(y[i])) || x[i] === y[i]) continue;
    if (!Number.isFinite(x[i]) || !Number.isFinite(y[i])) return Infinity;
    worst = Math.max(worst, Math.abs(x[i] - y[i]) / unit);
  }
  return worst;
}

describe("logsumexp", () => {
  native("rows, columns, several dims, strided and keepdim, NaN and infinities: the TS kernel's values", () => {
    torch.manual_seed(3);
    for (const dtype of [torch.float32, torch.float64]) {
      const x = torch.randn(37, 29, 11, { dtype }).mul(8);
      const special = torch.randn(6, 5, { dtype });
      special.set(0, 1, NaN);
      special.set(1, 2, Infinity);
      special.set(2, ":", -Infinity);
      special.set(3, 0, Infinity);
      special.set(3, 1, -Infinity);
      const long = torch.randn(11, 601, { dtype }).mul(8);
      long.set(5, 300, NaN);
      const zeros = torch.randn(6, 70, { dtype }).abs().neg();
      zeros.set(0, 3, -0);
      zeros.set(0, 9, 0);
      zeros.set(1, 3, 0);
      zeros.set(1, 9, -0);
      zeros.set(2, ":", -0);
      const cases: [string, () => torch.Tensor][] = [
        ["last dim", () => torch.logsumexp(x, -1)],
        ["first dim", () => torch.logsumexp(x, 0)],
        ["two dims keepdim", () => torch.logsumexp(x, [0, 2], true)],
        ["all dims", () => torch.logsumexp(x, [0, 1, 2])],
        ["strided", () => torch.logsumexp(x.permute(2, 0, 1).get(":", "::2"), 1)],
        ["NaN, +inf, all -inf rows", () => torch.logsumexp(special, 1)],
        ["empty reduced dim", () => torch.logsumexp(torch.zeros(3, 0, { dtype }), 1)],
        // rows longer than lse_sum_rows4's 256-element blocks, four at a time and a remainder
        ["long rows", () => torch.logsumexp(long, 1)],
        // maxima of +0 and -0 (the vectorized max may pick either sign)
        ["zero maxima", () => torch.logsumexp(zeros, 1)],
      ];
      for (const [what, f] of cases) {
        const want = underTs(f);
        for (const [isa, threads] of runnableIsas().flatMap((i) => [[i, 1], [i, 2]] as const)) {
          _set_native_isa(isa as any);
          torch.set_num_threads(threads);
          if (what !== "empty reduced dim") expect(kernelsRan(f), what).toContain("logsumexp:native");
          const got = f();
          expect(got.shape, what).toEqual(want.shape);
          // float32: 2 * 2^-23 * (1 + max|x|); float64: 16 * 2^-52 * (1 + max|x|)
          const unit = (dtype === torch.float32 ? 2 ** -23 : 2 ** -52) * (1 + 40);
          expect(worstError(got, want, unit), `${dtype} ${what} (${isa}, ${threads} threads)`).toBeLessThanOrEqual(dtype === torch.float32 ? 2 : 16);
        }
      }
    }
  });

  native("float16/bfloat16, integer inputs and a float64 out= of a float32 input stay on the TS kernel", () => {
    expect(kernelsRan(() => torch.logsumexp(torch.ones(4, 3, { dtype: torch.bfloat16 }), 1))).toEqual(["logsumexp:ts"]);
    expect(kernelsRan(() => torch.logsumexp(torch.ones(4, 3, { dtype: torch.int64 }), 1))).toEqual(["logsumexp:ts"]);
    const out = torch.empty(4, { dtype: torch.float64 });
    expect(kernelsRan(() => torch.logsumexp(torch.ones(4, 3), 1, false, { out }))).toEqual(["logsumexp:ts"]);
  });
});
