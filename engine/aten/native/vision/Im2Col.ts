// im2col / col2im (aten/src/ATen/native/Im2Col.cpp, Col2Im.cpp, im2col_shape_check.h), the ops under
// F.unfold and F.fold. im2col lays each sliding kernel_size block of a (N, C, H, W) input out as a
// column: (N, C*kh*kw, L), L the number of blocks; col2im sums the columns back into (N, C, H, W)
// (overlapping blocks add up). 3-d inputs are a batch of one, squeezed again afterwards.

import { RuntimeError } from "../../../c10/Errors.js";
import { ScalarType } from "../../../c10/ScalarType.js";
import { maybe_wrap_dim } from "../../../c10/WrapDimMinimal.js";
import { scalarRound } from "./UpSampleKernels.js";
import type { Tensor } from "../../core/Tensor.js";
import { empty_impl, wrap } from "../../core/empty.js";
import { resize_output } from "../Resize.js";
import { DispatchStub } from "../DispatchStub.js";
import { AT_DISPATCH } from "../unary/Dispatch.js";
import { readDense, sizesStr, writeDense } from "../conv/Dense.js";
import { fromRaw, toRaw } from "../../../c10/ElementAccess.js";

const { Double, Float, BFloat16, Half } = ScalarType;
const divRtn = (a: number, b: number) => Math.floor(a / b);

export interface Geometry { kh: number; kw: number; dh: number; dw: number; ph: number; pw: number; sh: number; sw: number }

function geometry(k: number[], d: number[], p: number[], s: number[]): Geometry {
  const n = (x: number[], name: string) => {
    if (x.length !== 2) throw new RuntimeError(`It is expected ${name} equals to 2, but got size ${x.length}`);
  };
  n(k, "kernel_size");
  n(d, "dilation");
  n(p, "padding");
  n(s, "stride");
  return { kh: k[0], kw: k[1], dh: d[0], dw: d[1], ph: p[0], pw: p[1], sh: s[0], sw: s[1] };
}

const blocks = (size: number, pad: number, dil: number, k: number, stride: number) => divRtn(size + 2 * pad - (dil * (k - 1) + 1), stride) + 1;

function im2col_shape_check(input: Tensor, g: Geometry): [number, number] {
  if (!(g.kw > 0 && g.kh > 0)) throw new RuntimeError(`kernel size should be greater than zero, but got kernel_height: ${g.kh} kernel_width: ${g.kw}`);
  if (!(g.dw > 0 && g.dh > 0)) throw new RuntimeError(`dilation should be greater than zero, but got dilation_height: ${g.dh} dilation_width: ${g.dw}`);
  if (!(g.pw >= 0 && g.ph >= 0)) throw new RuntimeError(`padding should be non-negative, but got pad_height: ${g.ph} pad_width: ${g.pw}`);
  if (!(g.sw > 0 && g.sh > 0)) throw new RuntimeError(`stride should be greater than zero, but got stride_height: ${g.sh} stride_width: ${g.sw}`);
  const s = input.shape;
  const ndim = s.length;
  // input.size(1), input.size(2): an IndexError below 3 dims
  const valid = s[maybe_wrap_dim(1, ndim)] !== 0 && s[maybe_wrap_dim(2, ndim)] !== 0;
  if (!((ndim === 3 && s[0] !== 0 && valid) || (ndim === 4 && valid && s[3] !== 0))) {
    throw new RuntimeError(`Expected 3D or 4D (batch mode) tensor with possibly 0 batch size and other non-zero dimensions for input, but got: ${sizesStr(s)}`);
  }
  const b = ndim === 3 ? -1 : 0;
  const [H, W] = [s[b + 2], s[b + 3]];
  const oh = blocks(H, g.ph, g.dh, g.kh, g.sh);
  const ow = blocks(W, g.pw, g.dw, g.kw, g.sw);
  if (oh < 1 || ow < 1) {
    throw new RuntimeError(`Given input with spatial size (${H}, ${W}), kernel_size=(${g.kh}, ${g.kw}), dilation=(${g.dh}, ${g.dw}), padding=(${g.ph}, ${g.pw}), calculated shape of the array of sliding blocks as (${oh}, ${ow}), but its components must be at least one.`);
  }
  return [oh, ow];
}

function col2im_shape_check(input: Tensor, oh: number, ow: number, g: Geometry): void {
  if (!(g.kw > 0 && g.kh > 0)) throw new RuntimeError(`kernel size should be greater than zero, but got kernel_height: ${g.kh} kernel_width: ${g.kw}`);
  if (!(g.sw > 0 && g.sh > 0)) throw new RuntimeError(`stride should be greater than zero, but got stride_height: ${g.sh} stride_width: ${g.sw}`);
  if (!(g.dw > 0 && g.dh > 0)) throw new RuntimeError(`dilation should be greater than zero, but got dilation_height: ${g.dh} dilation_width: ${g.dw}`);
  if (!(g.pw >= 0 && g.ph >= 0)) throw new RuntimeError(`padding should be non-negative, but got pad_height: ${g.ph} pad_width: ${g.pw}`);
  const s = input.shape;
  const ndim = s.length;
  if (!((ndim === 2 && s[0] !== 0 && s[1] !== 0) || (ndim === 3 && s[1] !== 0 && s[2] !== 0))) {
    throw new RuntimeError(`Expected 2D or 3D (batch mode) tensor for input with possibly 0 batch size and non-zero dimensions for input, but got: ${sizesStr(s)}`);
  }
  const b = ndim === 3 ? 0 : -1;
  const nPlane = s[b + 1];
  if (nPlane % (g.kw * g.kh) !== 0) {
    throw new RuntimeError(`Expected size of input's dimension 1 to be divisible by the product of kernel_size, but got input.size(1)=${nPlane} and kernel_size=(${g.kh}, ${g.kw}).`);
  }
  const length = s[b + 2];
  const nh = divRtn(oh + 2 * g.ph - g.dh * (g.kh - 1) - 1, g.sh) + 1;
  const nw = divRtn(ow + 2 * g.pw - g.dw * (g.kw - 1) - 1, g.sw) + 1;
  const where = `output_size=(${oh}, ${ow}), kernel_size=(${g.kh}, ${g.kw}), dilation=(${g.dh}, ${g.dw}), padding=(${g.ph}, ${g.pw}), stride=(${g.sh}, ${g.sw})`;
  if (length !== nh * nw) {
    throw new RuntimeError(`Given ${where}, expected size of input's dimension 2 to match the calculated number of sliding blocks ${nh} * ${nw} = ${nh * nw}, but got input.size(2)=${length}.`);
  }
  if (!(nh >= 1 && nw >= 1)) {
    throw new RuntimeError(`Given ${where}, calculated shape of the array of sliding blocks as (${nh}, ${nw}), which is too small (non-positive)`);
  }
  if (ow < 1 || oh < 1) throw new RuntimeError(`Expected output spatial size to be positive, but got: output_size=(${oh}, ${ow})`);
}

/** (cols, image: contiguous-or-not tensors; image N x C x H x W, cols N x C*kh*kw x OH*OW; g the window). */
type ColFn = (cols: Tensor, image: Tensor, N: number, C: number, H: number, W: number, OH: number, OW: number, g: Geometry) => void;

/** Visits every (block position, kernel offset) pair: column row c*kh*kw + i*kw + j, column l = y*OW + x. */
function forEachPatch(N: number, C: number, H: number, W: number, OH: number, OW: number, g: Geometry, fn: (col: number, img: number) => void): void {
  const L = OH * OW;
  const rows = C * g.kh * g.kw;
  for (let n = 0; n < N; n++) {
    for (let c = 0; c < C; c++) {
      for (let i = 0; i < g.kh; i++) {
        for (let j = 0; j < g.kw; j++) {
          const row = (c * g.kh + i) * g.kw + j;
          for (let y = 0; y < OH; y++) {
            const ih = y * g.sh - g.ph + i * g.dh;
            for (let x = 0; x < OW; x++) {
              const iw = x * g.sw - g.pw + j * g.dw;
              const col = (n * rows + row) * L + y * OW + x;
              fn(col, ih >= 0 && ih < H && iw >= 0 && iw < W ? ((n * C + c) * H + ih) * W + iw : -1);
            }
          }
        }
      }
    }
  }
}

/** im2col: cols (the output) from image (self). */
export const im2col_stub = new DispatchStub<ColFn>("im2col_stub", "aten/src/ATen/native/im2col.h");
im2col_stub.register("ts", (output, self, N, C, H, W, OH, OW, g) => {
  const cols = new Float64Array(output.numel()), image = readDense(self);
  forEachPatch(N, C, H, W, OH, OW, g, (col, img) => { cols[col] = img < 0 ? 0 : image[img]; });
  writeDense(output, cols);
});
/** col2im: image (the output, H x W = output_size) from cols (self), the blocks OH x OW. */
export const col2im_stub = new DispatchStub<ColFn>("col2im_stub", "aten/src/ATen/native/im2col.h");
// col2im adds into the output tensor itself: every partial sum is rounded to its dtype
col2im_stub.register("ts", (self, output, N, C, H, W, OH, OW, g) => {
  const st = self.dtype.scalarType;
  const round = st === Half ? (v: number) => fromRaw(Half, toRaw(Half, v)) as number : scalarRound(st);
  const cols = readDense(self), image = new Float64Array(output.numel());
  forEachPatch(N, C, H, W, OH, OW, g, (col, img) => { if (img >= 0) image[img] = round(image[img] + cols[col]); });
  writeDense(output, image);
});

export function im2col_out_cpu(self: Tensor, kernel: number[], dilation: number[], padding: number[], stride: number[], output: Tensor): Tensor {
  const g = geometry(kernel, dilation, padding, stride);
  const [OH, OW] = im2col_shape_check(self, g);
  const batched = self.dim() === 4;
  const [N, C, H, W] = batched ? self.shape : [1, ...self.shape];
  const rows = C * g.kh * g.kw;
  resize_output(output, batched ? [N, rows, OH * OW] : [rows, OH * OW]);
  AT_DISPATCH("im2col_out_cpu", self.dtype.scalarType, [Double, Float, BFloat16, Half]);
  if (output.numel() === 0) return output;
  im2col_stub.call("cpu", output, self, N, C, H, W, OH, OW, g);
  return output;
}

export function im2col_cpu(self: Tensor, kernel: number[], dilation: number[], padding: number[], stride: number[]): Tensor {
  return im2col_out_cpu(self, kernel, dilation, padding, stride, wrap(empty_impl([0], self.dtype, self.device)));
}

export function col2im_out_cpu(self: Tensor, outputSize: number[], kernel: number[], dilation: number[], padding: number[], stride: number[], output: Tensor): Tensor {
  if (outputSize.length !== 2) throw new RuntimeError(`It is expected output_size equals to 2, but got size ${outputSize.length}`);
  const g = geometry(kernel, dilation, padding, stride);
  const [OH, OW] = outputSize;
  col2im_shape_check(self, OH, OW, g);
  const batched = self.dim() === 3;
  const [N, rows] = batched ? self.shape : [1, self.shape[0]];
  const C = rows / (g.kh * g.kw);
  resize_output(output, batched ? [N, C, OH, OW] : [C, OH, OW]);
  AT_DISPATCH("col2im_out_cpu", self.dtype.scalarType, [Double, Float, BFloat16, Half]);
  if (output.numel() === 0) return output;
  const nh = blocks(OH, g.ph, g.dh, g.kh, g.sh);
  const nw = blocks(OW, g.pw, g.dw, g.kw, g.sw);
  col2im_stub.call("cpu", self, output, N, C, OH, OW, nh, nw, g);
  return output;
}

export function col2im_cpu(self: Tensor, outputSize: number[], kernel: number[], dilation: number[], padding: number[], stride: number[]): Tensor {
  return col2im_out_cpu(self, outputSize, kernel, dilation, padding, stride, wrap(empty_impl([0], self.dtype, self.device)));
}

const pyTuple = (xs: readonly number[]): string => (xs.length === 1 ? `(${xs[0]},)` : `(${xs.join(", ")})`);

/**
 * im2col on device='meta': PyTorch 1.13 runs the Python decomposition (torch/_decomp/decompositions.py),
 * whose checks and texts are its own (the unformatted "{param_name} ..." text included).
 */
export function im2col_meta(self: Tensor, kernel: number[], dilation: number[], padding: number[], stride: number[]): Tensor {
  for (const [x, what] of [[kernel, "kernel"], [dilation, "dilation"], [padding, "padding"], [stride, "stride"]] as const) {
    if (x.length !== 2) throw new RuntimeError(`im2col(): only 2D ${what} supported`);
  }
  const bad = "{param_name} should be greater {'than' zero, but got {param}";
  if (!kernel.every((p) => p > 0) || !dilation.every((p) => p > 0) || !stride.every((p) => p > 0)) throw new RuntimeError(bad);
  const s = input_shape(self);
  const ndim = s.length;
  if (!((ndim === 3 || ndim === 4) && s.slice(-3).every((d) => d !== 0))) {
    throw new RuntimeError(`Expected 3D or 4D (batch mode) tensor for input with possible 0 batch size and non-zero dimensions, but got: ${pyTuple(s)}`);
  }
  const out = s.slice(-2).map((size, i) => 1 + Math.floor((size + 2 * padding[i] - dilation[i] * (kernel[i] - 1) - 1) / stride[i]));
  if (!out.every((c) => c > 0)) {
    throw new RuntimeError(`Given an input with spacial size ${pyTuple(s.slice(-2))}, kernel_size=${sizesStr(kernel)}, dilation=${sizesStr(dilation)}, padding=${sizesStr(padding)}, stride=${sizesStr(stride)}, the calculated shape of the array of sliding blocks is ${pyTuple(out)}, but its components must be at least one.`);
  }
  const C = s[ndim - 3];
  const rows = C * kernel[0] * kernel[1];
  return wrap(empty_impl(ndim === 4 ? [s[0], rows, out[0] * out[1]] : [rows, out[0] * out[1]], self.dtype, self.device));
}

const input_shape = (t: Tensor): number[] => [...t.shape];

export function col2im_meta(self: Tensor, outputSize: number[], kernel: number[], dilation: number[], padding: number[], stride: number[]): Tensor {
  if (outputSize.length !== 2) throw new RuntimeError("only 2D output_size supported");
  for (const [x, what] of [[kernel, "kernel"], [dilation, "dilation"], [padding, "padding"], [stride, "stride"]] as const) {
    if (x.length !== 2) throw new RuntimeError(`only 2D ${what} supported`);
  }
  const bad = "{param_name} should be greater than zero, but got {param}";
  if (!kernel.every((p) => p > 0) || !dilation.every((p) => p > 0) || !padding.every((p) => p >= 0) || !stride.every((p) => p > 0) || !outputSize.every((p) => p > 0)) {
    throw new RuntimeError(bad);
  }
  const s = input_shape(self);
  const ndim = s.length;
  if (!((ndim === 2 || ndim === 3) && s.slice(-2).every((d) => d !== 0))) {
    throw new RuntimeError(`Expected 2D or 3D (batch mode) tensor for input with possible 0 batch size and non-zero dimensions, but got: ${pyTuple(s)}`);
  }
  const prod = kernel[0] * kernel[1];
  if (s[ndim - 2] % prod !== 0) {
    throw new RuntimeError(`Expected size of input's first non-batch dimension to be divisible by the product of kernel_size, but got input.shape[-2] = ${s[ndim - 2]} and kernel_size=${sizesStr(kernel)}`);
  }
  const col = outputSize.map((o, i) => 1 + Math.floor((o + 2 * padding[i] - dilation[i] * (kernel[i] - 1) - 1) / stride[i]));
  const L = col[0] * col[1];
  const where = `Given output_size=${sizesStr(outputSize)}, kernel_size=${sizesStr(kernel)}, dilation=${sizesStr(dilation)}, padding=${sizesStr(padding)}, stride=${sizesStr(stride)}, expected input.size(-1) to be ${L} but got ${s[ndim - 1]}.`;
  if (s[ndim - 1] !== L || !(L > 0)) throw new RuntimeError(where);
  const C = s[ndim - 2] / prod;
  return wrap(empty_impl(ndim === 3 ? [s[0], C, ...outputSize] : [C, ...outputSize], self.dtype, self.device));
}
