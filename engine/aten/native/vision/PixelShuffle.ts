// pixel_shuffle / pixel_unshuffle (aten/src/ATen/native/PixelShuffle.cpp, cpu/PixelShuffleKernel.cpp):
// (*, C*r*r, H, W) <-> (*, C, H*r, W*r). out[..., c, h*r + i, w*r + j] = in[..., c*r*r + i*r + j, h, w].
// On CPU a kernel copies the elements; on other devices (meta included) the math_ forms reshape and
// permute, giving the same contiguous result.

import { RuntimeError } from "../../../c10/Errors.js";
import type { Tensor } from "../../core/Tensor.js";
import { empty_impl, wrap } from "../../core/empty.js";
import { DispatchStub } from "../DispatchStub.js";
import { readDense, writeDense } from "../conv/Dense.js";

function check_pixel_shuffle_shapes(self: Tensor, r: number): void {
  if (!(self.dim() >= 3)) throw new RuntimeError(`pixel_shuffle expects input to have at least 3 dimensions, but got input with ${self.dim()} dimension(s)`);
  if (!(r > 0)) throw new RuntimeError(`pixel_shuffle expects a positive upscale_factor, but got ${r}`);
  const c = self.shape[self.dim() - 3];
  if (c % (r * r) !== 0) {
    throw new RuntimeError(`pixel_shuffle expects its input's 'channel' dimension to be divisible by the square of upscale_factor, but input.size(-3)=${c} is not divisible by ${r * r}`);
  }
}

function check_pixel_unshuffle_shapes(self: Tensor, r: number): void {
  if (!(self.dim() >= 3)) throw new RuntimeError(`pixel_unshuffle expects input to have at least 3 dimensions, but got input with ${self.dim()} dimension(s)`);
  if (!(r > 0)) throw new RuntimeError(`pixel_unshuffle expects a positive downscale_factor, but got ${r}`);
  const [h, w] = self.shape.slice(-2);
  if (h % r !== 0) throw new RuntimeError(`pixel_unshuffle expects height to be divisible by downscale_factor, but input.size(-2)=${h} is not divisible by ${r}`);
  if (w % r !== 0) throw new RuntimeError(`pixel_unshuffle expects width to be divisible by downscale_factor, but input.size(-1)=${w} is not divisible by ${r}`);
}

type ShuffleFn = (output: Tensor, input: Tensor, r: number) => void;

/** Moves every element between the shuffled (C, H*r, W*r) and unshuffled (C*r*r, H, W) layouts. */
function shuffle(output: Tensor, input: Tensor, r: number, up: boolean): void {
  const big = up ? output : input; // (.., C, H*r, W*r)
  const [C, HR, WR] = big.shape.slice(-3);
  const H = HR / r, W = WR / r;
  const batch = big.numel() / (C * HR * WR);
  const x = readDense(input);
  const y = new Float64Array(x.length);
  for (let b = 0; b < batch; b++) {
    for (let c = 0; c < C; c++) {
      for (let i = 0; i < r; i++) {
        for (let j = 0; j < r; j++) {
          for (let h = 0; h < H; h++) {
            for (let w = 0; w < W; w++) {
              const small = (((b * C + c) * r * r + i * r + j) * H + h) * W + w;
              const large = ((b * C + c) * HR + h * r + i) * WR + w * r + j;
              if (up) y[large] = x[small];
              else y[small] = x[large];
            }
          }
        }
      }
    }
  }
  writeDense(output, y);
}

export const pixel_shuffle_kernel = new DispatchStub<ShuffleFn>("pixel_shuffle_kernel", "aten/src/ATen/native/cpu/PixelShuffleKernel.cpp");
pixel_shuffle_kernel.register("ts", (o, i, r) => shuffle(o, i, r, true));
export const pixel_unshuffle_kernel = new DispatchStub<ShuffleFn>("pixel_unshuffle_kernel", "aten/src/ATen/native/cpu/PixelShuffleKernel.cpp");
pixel_unshuffle_kernel.register("ts", (o, i, r) => shuffle(o, i, r, false));

const shuffledSizes = (self: Tensor, r: number): number[] => {
  const s = self.shape;
  return [...s.slice(0, -3), s[s.length - 3] / (r * r), s[s.length - 2] * r, s[s.length - 1] * r];
};
const unshuffledSizes = (self: Tensor, r: number): number[] => {
  const s = self.shape;
  return [...s.slice(0, -3), s[s.length - 3] * r * r, s[s.length - 2] / r, s[s.length - 1] / r];
};

export function pixel_shuffle_cpu(self: Tensor, r: number): Tensor {
  check_pixel_shuffle_shapes(self, r);
  const output = wrap(empty_impl(shuffledSizes(self, r), self.dtype, self.device));
  if (output.numel() > 0) pixel_shuffle_kernel.call("cpu", output, self, r);
  return output;
}

export function pixel_unshuffle_cpu(self: Tensor, r: number): Tensor {
  check_pixel_unshuffle_shapes(self, r);
  const output = wrap(empty_impl(unshuffledSizes(self, r), self.dtype, self.device));
  if (output.numel() > 0) pixel_unshuffle_kernel.call("cpu", output, self, r);
  return output;
}

/** math_pixel_shuffle on a device without a kernel (meta here): the same checks and a contiguous result. */
export function math_pixel_shuffle(self: Tensor, r: number): Tensor {
  check_pixel_shuffle_shapes(self, r);
  if (self.device.type !== "meta") throw new RuntimeError(`pixel_shuffle: no kernel for device ${self.device.type}`);
  return wrap(empty_impl(shuffledSizes(self, r), self.dtype, self.device));
}

export function math_pixel_unshuffle(self: Tensor, r: number): Tensor {
  check_pixel_unshuffle_shapes(self, r);
  if (self.device.type !== "meta") throw new RuntimeError(`pixel_unshuffle: no kernel for device ${self.device.type}`);
  return wrap(empty_impl(unshuffledSizes(self, r), self.dtype, self.device));
}
