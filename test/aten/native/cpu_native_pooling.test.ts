// The native max_pool1d and adaptive_max_pool2d forward kernels (native/cpu/Pooling.cc via
// NativePooling.ts) against the TypeScript kernels (pooling/PoolKernels.ts; pooling.test.ts checks those
// against PyTorch's fixtures): float32 and float64 over contiguous inputs, windows with padding, stride,
// dilation and ceil_mode, NaN (which wins) and infinities; the values and indices exactly. Strided
// inputs and bfloat16 decline to the TS kernels.
import { describe, expect, afterEach } from "vitest";
import * as torch from "../../../engine/index.js";
import { _set_native_isa, nativeSizePolicy } from "../../../engine/aten/native/cpu_native/NativeBackend.js";
import { kernelsRan, nativeIt, restoreNativeDefaults, runnableIsas, underTs } from "../../support/native_paths.js";
import { asText } from "../../support/exact_text.js";

nativeSizePolicy.minNumel = 0;
const ISAS = runnableIsas();
const F = torch.nn.functional;

afterEach(restoreNativeDefaults);


function input(shape: number[], dtype: torch.dtype): torch.Tensor {
  torch.manual_seed(2);
  const x = torch.randn(shape, { dtype });
  [NaN, Infinity, -Infinity, -0, NaN].forEach((v, i) => x.view(-1).get(i * 37 + 6).fill_(v));
  return x;
}

describe("native pooling kernels", () => {
  nativeIt("max_pool1d: the TS kernel's values for windows with stride, padding, dilation and ceil_mode", () => {
    for (const isa of ISAS) {
      _set_native_isa(isa);
      for (const dtype of [torch.float32, torch.float64]) {
        const x3 = input([3, 5, 41], dtype), x2 = input([7, 33], dtype);
        const cases: [string, () => torch.Tensor][] = [
          ["k2", () => F.max_pool1d(x3, 2)],
          ["k3 s2 p1", () => F.max_pool1d(x3, 3, 2, 1)],
          ["k4 s3 p2 d2 ceil", () => F.max_pool1d(x3, 4, 3, 2, 2, true)],
          ["2-d k5 s1 p2", () => F.max_pool1d(x2, 5, 1, 2)],
          ["2-d k1", () => F.max_pool1d(x2, 1)],
          ["all -inf", () => F.max_pool1d(torch.full([2, 9], -Infinity, { dtype }), 3, 2, 1)],
        ];
        for (const [name, f] of cases) {
          const what = `max_pool1d ${name} ${dtype} [${isa}]`;
          expect(kernelsRan(f), what).toContain("max_pool1d_stub:native");
          expect(asText(f()), what).toBe(asText(underTs(f)));
        }
      }
    }
  });

  nativeIt("adaptive_max_pool2d: values and indices, output sizes that divide and that do not, 3-d and 4-d", () => {
    for (const isa of ISAS) {
      _set_native_isa(isa);
      for (const dtype of [torch.float32, torch.float64]) {
        const x4 = input([2, 3, 13, 10], dtype), x3 = input([4, 9, 16], dtype);
        const cases: [string, () => [torch.Tensor, torch.Tensor]][] = [
          ["7x7 of 13x10", () => F.adaptive_max_pool2d(x4, 7, true) as any],
          ["4x5 of 13x10", () => F.adaptive_max_pool2d(x4, [4, 5], true) as any],
          ["1x1", () => F.adaptive_max_pool2d(x4, 1, true) as any],
          ["3-d 9x16 (identity)", () => F.adaptive_max_pool2d(x3, [9, 16], true) as any],
          ["3-d 20x3 (larger than the input)", () => F.adaptive_max_pool2d(x3, [20, 3], true) as any],
        ];
        for (const [name, f] of cases) {
          const what = `adaptive_max_pool2d ${name} ${dtype} [${isa}]`;
          expect(kernelsRan(f), what).toContain("adaptive_max_pool2d_kernel:native");
          const [v, i] = f(), [wv, wi] = underTs(f);
          expect(asText(v), what).toBe(asText(wv));
          expect(asText(i), `${what} indices`).toBe(asText(wi));
        }
        // the backward (max_pool2d's kernel) through the native indices
        const a = x4.clone().requires_grad_(), b = x4.clone().requires_grad_();
        const g = torch.randn([2, 3, 7, 7], { dtype });
        (F.adaptive_max_pool2d(a, 7) as torch.Tensor).backward(g);
        underTs(() => (F.adaptive_max_pool2d(b, 7) as torch.Tensor).backward(g));
        expect(asText(a.grad!), `adaptive_max_pool2d backward ${dtype} [${isa}]`).toBe(asText(b.grad!));
      }
    }
  });

  nativeIt("declines strided inputs and bfloat16, which the TS kernels run", () => {
    const x = input([3, 5, 40], torch.float32);
    const strided = () => F.max_pool1d(x.get(":", ":", "::2"), 2);
    expect(kernelsRan(strided)).toContain("max_pool1d_stub:ts");
    const bf = () => F.adaptive_max_pool2d(x.view(3, 5, 5, 8).to(torch.bfloat16), 3, true) as any;
    expect(kernelsRan(bf)).toContain("adaptive_max_pool2d_kernel:ts");
    const transposed = () => F.adaptive_max_pool2d(x.view(3, 5, 5, 8).transpose(2, 3), 3, true) as any;
    expect(kernelsRan(transposed)).toContain("adaptive_max_pool2d_kernel:ts");
  });
});
