// The native im2col and col2im (native/cpu/Im2Col.cc) registered into their stubs (vision/Im2Col.ts):
// float32 and float64 with both tensors contiguous; other dtypes (bfloat16, float16) and layouts run the
// TypeScript kernels. im2col copies; col2im adds in the TS kernel's order within each plane: its bits.

import { ScalarType } from "../../../c10/ScalarType.js";
import { typedView } from "../../../c10/ElementAccess.js";
import type { Tensor } from "../../core/Tensor.js";
import { im2col_stub, col2im_stub, type Geometry } from "../vision/Im2Col.js";
import type { NativeAddon } from "./NativeBackend.js";

const geometry = new Float64Array(14);

export function registerIm2ColKernels(addon: NativeAddon): void {
  /** cols and image, both contiguous and of one float dtype, through the addon's `im2col` or `col2im`. */
  const run = (op: "im2col" | "col2im", cols: Tensor, image: Tensor, N: number, C: number, H: number, W: number, OH: number, OW: number, g: Geometry): boolean => {
    const st = cols.dtype.scalarType;
    if ((st !== ScalarType.Float && st !== ScalarType.Double) || image.dtype.scalarType !== st) return false;
    const c = cols._impl, i = image._impl;
    if (!c.is_contiguous() || !i.is_contiguous()) return false;
    geometry.set([N, C, H, W, OH, OW, g.kh, g.kw, g.dh, g.dw, g.ph, g.pw, g.sh, g.sw]);
    return addon[op](st, typedView(c.storage, c.dtype), c.storage_offset(), typedView(i.storage, i.dtype), i.storage_offset(), geometry);
  };
  im2col_stub.register("native", (output, self, N, C, H, W, OH, OW, g) => run("im2col", output, self, N, C, H, W, OH, OW, g));
  col2im_stub.register("native", (self, output, N, C, H, W, OH, OW, g) => run("col2im", self, output, N, C, H, W, OH, OW, g));
}
