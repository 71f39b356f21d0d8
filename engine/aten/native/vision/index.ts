// Kernels of the vision family (engine/ops/native_functions/vision.yaml), re-exported into at::native
// (../index.ts) under the names the yaml's `dispatch:` entries use.

export { upsample_nearest1d, upsample_nearest2d, upsample_bilinear2d, upsample_nearest1d_out_cpu, upsample_nearest2d_out_cpu, upsample_bilinear2d_out_cpu } from "./UpSample.js";
export { pixel_shuffle_cpu, pixel_unshuffle_cpu, math_pixel_shuffle, math_pixel_unshuffle } from "./PixelShuffle.js";
export { im2col_out_cpu, im2col_cpu, col2im_out_cpu, col2im_cpu, im2col_meta, col2im_meta } from "./Im2Col.js";
export { upsample_nearest1d_backward_out_cpu, upsample_nearest2d_backward_out_cpu, upsample_bilinear2d_backward_out_cpu, upsample_nearest1d_backward, upsample_nearest2d_backward, upsample_bilinear2d_backward } from "./UpSampleBackward.js";
