// The native conv_transpose2d forward (NativeConvTranspose.ts: Conv.cc's grad_input path) against the
// TypeScript kernel (conv/ConvKernels.ts, which sums each output element in double and rounds once):
// float32 and float64, stride, padding, output_padding, dilation, bias, groups (channel slices), on every
// unit. The GEMM's sums differ from the TS kernel's in the last bits, so each element is checked within
// the rounding bound of its sum: (terms + 2) * eps * (the same convolution of |x|, |w|, |b|).
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

const flat = (t: torch.Tensor) => t.to(torch.float64).contiguous().view(-1).tolist() as number[];

// [name, in channels, out channels per group, kernel, stride, padding, output_padding, dilation, groups, bias]
const CASES: [string, number, number, [number, number], number[], number[], number[], number[], number, boolean][] = [
  ["2x2 stride 2", 6, 4, [2, 2], [2, 2], [0, 0], [0, 0], [1, 1], 1, false],
  ["3x3 pad 1 bias", 5, 3, [3, 3], [1, 1], [1, 1], [0, 0], [1, 1], 1, true],
  ["3x2 stride (2, 3) pad (1, 0) out_pad (1, 2) bias", 4, 3, [3, 2], [2, 3], [1, 0], [1, 2], [1, 1], 1, true],
  ["3x3 dilation 2 stride 2 pad 2", 3, 2, [3, 3], [2, 2], [2, 2], [1, 1], [2, 2], 1, true],
  ["groups 2", 6, 2, [2, 3], [1, 2], [0, 1], [0, 0], [1, 1], 2, true],
];

describe("native conv_transpose2d", () => {
  nativeIt("within the rounding bound of the TS kernel's sums, on every unit", () => {
    for (const isa of ISAS) {
      _set_native_isa(isa);
      for (const dtype of [torch.float32, torch.float64]) {
        const eps = dtype === torch.float32 ? 2 ** -24 : 2 ** -53;
        for (const [name, C, Og, k, stride, padding, outPad, dilation, groups, withBias] of CASES) {
          torch.manual_seed(13);
          const x = torch.randn(3, C, 7, 6, { dtype }), w = torch.randn(C, Og, k[0], k[1], { dtype });
          const b = withBias ? torch.randn(Og * groups, { dtype }) : null;
          const f = (xx: torch.Tensor, ww: torch.Tensor, bb: torch.Tensor | null) => F.conv_transpose2d(xx, ww, bb, stride, padding, outPad, groups, dilation);
          const what = `${name} ${dtype} [${isa}]`;
          expect(kernelsRan(() => f(x, w, b)), what).toContain("slow_conv_transpose2d_stub:native");
          const got = flat(f(x, w, b)), want = flat(underTs(() => f(x, w, b)));
          const mag = flat(underTs(() => f(x.abs(), w.abs(), b && b.abs())));
          const terms = (C / groups) * k[0] * k[1];
          expect(got.length, what).toBe(want.length);
          const bad = got.findIndex((v, i) => !(Math.abs(v - want[i]) <= (terms + 2) * eps * mag[i]));
          expect(bad === -1 ? null : { at: bad, got: got[bad], want: want[bad], bound: (terms + 2) * eps * mag[bad] }, what).toBeNull();
        }
      }
    }
  });

  nativeIt("stride 1 on rows wide enough for the implicit GEMM (no columns), and a strided weight, within the bound", () => {
    for (const isa of ISAS) {
      _set_native_isa(isa);
      torch.manual_seed(21);
      // 8 input channels (72 taps), 24 columns: the padded row 26 is within 1/8 of it (Conv.cc use_implicit)
      const x = torch.randn(2, 8, 5, 24), w = torch.randn(8, 6, 3, 3), b = torch.randn(6);
      const wt = torch.randn(6, 8, 3, 3).transpose(0, 1); // [8, 6, 3, 3] with strides of a transpose
      for (const [name, ww, bb] of [["contiguous", w, b], ["strided weight", wt, null]] as const) {
        const f = (xx: torch.Tensor, www: torch.Tensor, bbb: torch.Tensor | null) => F.conv_transpose2d(xx, www, bbb, 1, 1);
        const what = `${name} [${isa}]`;
        expect(kernelsRan(() => f(x, ww, bb)), what).toContain("slow_conv_transpose2d_stub:native");
        const got = flat(f(x, ww, bb)), want = flat(underTs(() => f(x, ww, bb)));
        const mag = flat(underTs(() => f(x.abs(), ww.abs(), bb && bb.abs())));
        const bad = got.findIndex((v, i) => !(Math.abs(v - want[i]) <= (72 + 2) * 2 ** -24 * mag[i]));
        expect(bad === -1 ? null : { at: bad, got: got[bad], want: want[bad] }, what).toBeNull();
      }
    }
  });

  nativeIt("a transposed input (made contiguous first), int64 in TypeScript, and the backward as before", () => {
    const x = torch.randn(2, 4, 5, 6), w = torch.randn(4, 3, 2, 2);
    const xt = x.transpose(2, 3).contiguous().transpose(2, 3);
    expect(kernelsRan(() => F.conv_transpose2d(xt, w, null, 2))).toContain("slow_conv_transpose2d_stub:native");
    const gt = flat(F.conv_transpose2d(xt, w, null, 2)), wt = flat(underTs(() => F.conv_transpose2d(xt, w, null, 2)));
    expect(gt.every((v, i) => Math.abs(v - wt[i]) <= 1e-5 * (1 + Math.abs(wt[i])))).toBe(true);
    const xi = torch.randint(-3, 4, [1, 2, 3, 3]), wi = torch.randint(-3, 4, [2, 2, 2, 2]);
    const ints = () => F.conv_transpose2d(xi, wi, null, 2);
    expect(kernelsRan(ints)).toContain("slow_conv_transpose2d_stub:ts");
    const a = x.clone().requires_grad_(), c = x.clone().requires_grad_();
    const g = torch.randn(2, 3, 10, 12);
    F.conv_transpose2d(a, w, null, 2).backward(g);
    underTs(() => F.conv_transpose2d(c, w, null, 2).backward(g));
    const ga = flat(a.grad!), gc = flat(c.grad!);
    expect(ga.every((v, i) => Math.abs(v - gc[i]) <= 1e-5 * (1 + Math.abs(gc[i])))).toBe(true);
  });
});
