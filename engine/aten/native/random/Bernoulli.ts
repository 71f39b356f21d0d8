// bernoulli (aten/src/ATen/native/Distributions.cpp and native/DistributionTemplates.h): every element of
// self becomes 1 with probability p (a float, or a tensor of probabilities), drawn from the generator by
// bernoulli_stub / bernoulli_tensor_stub (cpu/DistributionKernels.cpp) — the same draws as PyTorch for the
// same seed. The functional forms fill a fresh tensor like self (at::empty_like(self).bernoulli_(...)).

import { RuntimeError, TypeError_ } from "../../../c10/Errors.js";
import { Tensor } from "../../core/Tensor.js";
import type { RandomDtype } from "../../core/DistributionsHelper.js";
import type { CPUGeneratorImpl } from "../../core/CPUGeneratorImpl.js";
import * as K from "../../cpu/DistributionKernels.js";
import { write_values_kernel } from "../../cpu/FillKernel.js";
import { Generator, default_generator } from "../../Generator.js";
import { DispatchStub } from "../DispatchStub.js";
import { computeNumel, contiguousStrides } from "../../../c10/Contiguity.js";
import { empty_like_default } from "../../../generated/empty_like.js";
import { expand_default } from "../../../generated/expand.js";
import { bernoulli__Tensor as bernoulli__Tensor_op, bernoulli__float as bernoulli__float_op } from "../../../generated/bernoulli.js";

const REF = "aten/src/ATen/native/cpu/DistributionKernels.cpp";

/** get_generator_or_default<CPUGeneratorImpl>(gen, detail::getDefaultCPUGenerator()). */
function cpuGenerator(gen: unknown): CPUGeneratorImpl {
  const g = gen ?? default_generator;
  if (!(g instanceof Generator)) throw new TypeError_("argument 'generator' must be torch.Generator");
  return g._impl;
}

const dtypeName = (t: Tensor) => t.dtype.name as RandomDtype;

/** bernoulli_scalar_kernel: one draw per element of self, compared with p. */
export const bernoulli_scalar_stub = new DispatchStub<(self: Tensor, p: number, gen: CPUGeneratorImpl) => void>("bernoulli_scalar_stub", REF);
bernoulli_scalar_stub.register("ts", (self, p, gen) => {
  write_values_kernel(self._impl, K.bernoulli_scalar(gen, self.numel(), dtypeName(self), p));
});

/** bernoulli_tensor_kernel: one draw per element, each with its own probability. */
export const bernoulli_tensor_stub = new DispatchStub<(self: Tensor, p: Tensor, gen: CPUGeneratorImpl) => void>("bernoulli_tensor_stub", REF);
bernoulli_tensor_stub.register("ts", (self, p, gen) => {
  write_values_kernel(self._impl, K.bernoulli_tensor(gen, p._flatNumbers(), dtypeName(p), dtypeName(self)));
});

/** bernoulli_.float: `0 <= p <= 1` is checked before any draw; on meta nothing is checked or drawn (as 1.13). */
export function bernoulli__float(self: Tensor, p: number, generator: unknown): Tensor {
  const gen = cpuGenerator(generator);
  if (self.is_meta) return self;
  if (!(0 <= p && p <= 1)) throw new RuntimeError(`bernoulli_ expects p to be in [0, 1], but got p=${K.cppDouble(p)}`);
  bernoulli_scalar_stub.call(self.device.type, self, p, gen);
  return self;
}

/** bernoulli_.Tensor: p is expanded to self's shape (expand_inplace), one probability per element. */
export function bernoulli__Tensor(self: Tensor, p: Tensor, generator: unknown): Tensor {
  const gen = cpuGenerator(generator);
  if (self.is_meta) return self;
  const sizes = [...self._impl.sizes()];
  const same = p.dim() === sizes.length && p._impl.sizes().every((s, i) => s === sizes[i]);
  const pExpanded = same ? p : (expand_default.call(p, sizes, false) as Tensor);
  bernoulli_tensor_stub.call(self.device.type, self, pExpanded, gen);
  return self;
}

/** bernoulli.out (bernoulli_out_impl): out.resize_(self.sizes()) (no resize warning), then drawn with self's probabilities. */
export function bernoulli_out(self: Tensor, generator: unknown, out: Tensor): Tensor {
  const shape = [...self._impl.sizes()];
  const needed = (out._impl.storage_offset() + computeNumel(shape)) * out.element_size();
  if (needed > out._impl.storage.nbytes()) out._impl.storage.resize(needed);
  const same = out._impl.sizes().length === shape.length && out._impl.sizes().every((s, i) => s === shape[i]);
  if (!same) out._impl.set_sizes_and_strides(shape, contiguousStrides(shape));
  return bernoulli__Tensor(out, self, generator);
}

/** bernoulli (CompositeExplicitAutograd): at::empty_like(self).bernoulli_(self, gen). */
export function bernoulli(self: Tensor, generator: unknown): Tensor {
  const result = empty_like_default.call(self, null, null, null, null, "contiguous_format") as Tensor;
  return bernoulli__Tensor_op.call(result, self, generator) as Tensor;
}

/** bernoulli.p (CompositeImplicitAutograd): at::empty_like(self).bernoulli_(p, gen). */
export function bernoulli_p(self: Tensor, p: number, generator: unknown): Tensor {
  const result = empty_like_default.call(self, null, null, null, null, "contiguous_format") as Tensor;
  return bernoulli__float_op.call(result, p, generator) as Tensor;
}
