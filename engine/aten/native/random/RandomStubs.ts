// The bulk random kernels as DispatchStubs: PyTorch's uniform_stub / normal_stub / random_from_to_stub
// (cpu/DistributionKernels.cpp) and randperm_cpu's loop (TensorFactories.cpp), for a contiguous output
// the caller has already checked. The TypeScript implementations are the contiguous fills in
// cpu/DistributionKernels.ts; the native addon registers its own (native/cpu/Random.cc), which
// advance the same generator state (mt19937.stateArray()), so either one continues the other's stream.
//
// Each takes (generator, out typed array, element offset, count, params...) and writes out[off .. off+n).

import type { CPUGeneratorImpl } from "../../core/CPUGeneratorImpl.js";
import * as K from "../../cpu/DistributionKernels.js";
import { DispatchStub } from "../DispatchStub.js";
import type { Tensor } from "../../core/Tensor.js";
import type { RandomDtype } from "../../core/DistributionsHelper.js";
import { write_values_kernel } from "../../cpu/FillKernel.js";

const REF = "aten/src/ATen/native/cpu/DistributionKernels.cpp";

export type IntOrFloatOut = BigInt64Array | Int32Array | Float32Array | Float64Array;

/** torch.rand / uniform_ on a contiguous float32 (Float32Array) or float64 (Float64Array) tensor. */
export const uniform_fill_stub = new DispatchStub<
  (gen: CPUGeneratorImpl, out: Float32Array | Float64Array, off: number, n: number, from: number, to: number) => void
>("uniform_stub", REF);
uniform_fill_stub.register("ts", (gen, out, off, n, from, to) => {
  if (out instanceof Float32Array) K.uniform_fill_float(gen, out, off, n, from, to);
  else K.uniform_fill_double(gen, out, off, n, from, to);
});

/** torch.randn / normal_ on a contiguous float32 tensor of >= 16 elements (normal_fill_AVX2). */
export const normal_fill_stub = new DispatchStub<
  (gen: CPUGeneratorImpl, out: Float32Array, off: number, n: number, mean: number, std: number) => void
>("normal_stub", REF);
normal_fill_stub.register("ts", (gen, out, off, n, mean, std) => K.normal_fill_float(gen, out, off, n, mean, std));

/** torch.randint / random_(from, to) with a range below 2^32: (word % range) + base. */
export const random_from_to_fill_stub = new DispatchStub<
  (gen: CPUGeneratorImpl, out: IntOrFloatOut, off: number, n: number, range: number, base: number) => void
>("random_from_to_stub", REF);
random_from_to_fill_stub.register("ts", (gen, out, off, n, range, base) => K.random_from_to_fill(gen, out, off, n, range, base));

/** torch.randperm(n) into a contiguous int64 tensor. */
export const randperm_fill_stub = new DispatchStub<(gen: CPUGeneratorImpl, out: BigInt64Array, off: number, n: number) => void>(
  "randperm_cpu",
  "aten/src/ATen/native/TensorFactories.cpp",
);
randperm_fill_stub.register("ts", (gen, out, off, n) => K.randperm_fill(gen, out, off, n));

/**
 * torch.multinomial(probs, n, replacement=True) into a fresh contiguous int64 `out` (rows x n): one 53-bit
 * uniform per sample, binary-searched in the row's normalized cumulative sum (cpu/MultinomialKernel.cpp).
 * The arguments are checked (multinomial_check); the probabilities' values are checked here.
 */
export const multinomial_replacement_stub = new DispatchStub<
  (gen: CPUGeneratorImpl, probs: Tensor, rows: number, categories: number, n: number, out: Tensor) => void
>("multinomial_with_replacement_stub", "aten/src/ATen/native/cpu/MultinomialKernel.cpp");
multinomial_replacement_stub.register("ts", (gen, probs, rows, categories, n, out) => {
  const values = K.multinomial(gen, probs._flatNumbers(), rows, categories, n, true, probs.dtype.name as RandomDtype);
  write_values_kernel(out._impl, values);
});
