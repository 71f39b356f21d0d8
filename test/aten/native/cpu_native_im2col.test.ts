// The native im2col and col2im (native/cpu/Im2Col.cc via NativeIm2Col.ts) under F.unfold and F.fold,
// against the TypeScript kernels (vision/Im2Col.ts; its fixture suite checks those against PyTorch):
// float32 and float64, contiguous, batched and 3-d inputs, kernels with padding, stride and dilation,
// overlapping blocks (col2im's sums in the TS kernel's order: its bits), NaN and infinities; strided
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


// [name, kernel, options]
const WINDOWS: [string, number[], Record<string, unknown>][] = [
  ["3x3 pad 1", [3, 3], { padding: 1 }],
  ["2x3 stride 2", [2, 3], { stride: 2 }],
  ["3x2 dilation 2 pad (2, 1) stride (1, 3)", [3, 2], { dilation: 2, padding: [2, 1], stride: [1, 3] }],
  ["1x1", [1, 1], {}],
];

describe("native im2col / col2im", () => {
  nativeIt("F.unfold and F.fold: the TS kernels' bits", () => {
    for (const isa of ISAS) {
      _set_native_isa(isa);
      for (const dtype of [torch.float32, torch.float64]) {
        torch.manual_seed(10);
        const img = torch.randn(2, 3, 9, 11, { dtype });
        [NaN, Infinity, -Infinity, -0].forEach((v, i) => img.view(-1).get(i * 41 + 7).fill_(v));
        for (const [name, k, opts] of WINDOWS) {
          for (const [shape, x] of [["4-d", img], ["3-d", img.get(1)]] as const) {
            const what = `${name} ${shape} ${dtype} [${isa}]`;
            const unfold = () => F.unfold(x, k, opts as any);
            expect(kernelsRan(unfold), `unfold ${what}`).toContain("im2col_stub:native");
            const cols = unfold();
            expect(asText(cols), `unfold ${what}`).toBe(asText(underTs(unfold)));
            // fold the (overlapping) columns back, random values so that the sums' order shows
            const c = torch.randn(cols.shape, { dtype });
            const fold = () => F.fold(c, [9, 11], k, opts as any);
            expect(kernelsRan(fold), `fold ${what}`).toContain("col2im_stub:native");
            expect(asText(fold()), `fold ${what}`).toBe(asText(underTs(fold)));
          }
        }
      }
    }
  });

  nativeIt("declines strided inputs and bfloat16", () => {
    const img = torch.randn(2, 3, 9, 11);
    const strided = () => F.unfold(img.transpose(2, 3), [2, 2]);
    expect(kernelsRan(strided)).toContain("im2col_stub:ts");
    const bf = () => F.unfold(img.to(torch.bfloat16), [2, 2]);
    expect(kernelsRan(bf)).toContain("im2col_stub:ts");
    const cols = F.unfold(img, [2, 2]);
    const foldStrided = () => F.fold(cols.transpose(1, 2).contiguous().transpose(1, 2), [9, 11], [2, 2]);
    expect(kernelsRan(foldStrided)).toContain("col2im_stub:ts");
  });
});
