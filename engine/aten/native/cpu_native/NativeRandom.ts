// The native random kernels (native/cpu/Random.cc) under the bulk random stubs (native/random/RandomStubs.ts):
// torch.rand / uniform_ (float32, float64), torch.randn / normal_ (float32, n >= 16: normal_fill_AVX2),
// torch.randint / random_(from, to) with a range below 2^32 (int64, int32, float32, float64) and
// torch.randperm (int64), multinomial with replacement (float32, float64 probabilities), and bernoulli_(p) and torch.bernoulli(probs) / bernoulli_(p_tensor) (float32,
// float64, the integer dtypes, bool) on a contiguous self (probabilities: contiguous float32, float64, bfloat16). The addon advances the generator's own state array (mt19937.stateArray()), so its draws and the
// TypeScript ones form one stream, and get_rng_state / set_rng_state see both.
// Where the addon declines (an invalid state, an unexpected array), the TypeScript kernel runs.

import type { NativeAddon } from "./NativeBackend.js";
import { uniform_fill_stub, normal_fill_stub, random_from_to_fill_stub, randperm_fill_stub, multinomial_replacement_stub } from "../random/RandomStubs.js";
import { bernoulli_scalar_stub, bernoulli_tensor_stub } from "../random/Bernoulli.js";
import { typedView } from "../../../c10/ElementAccess.js";
import { ScalarType } from "../../../c10/ScalarType.js";

export function registerRandomKernels(addon: NativeAddon): void {
  if (typeof addon.rng_uniform !== "function") return; // an addon built before Random.cc: the TypeScript kernels run
  uniform_fill_stub.register("native", (gen, out, off, n, from, to) => addon.rng_uniform(gen.engineState(), out, off, n, from, to));
  normal_fill_stub.register("native", (gen, out, off, n, mean, std) => addon.rng_normal(gen.engineState(), out, off, n, mean, std));
  random_from_to_fill_stub.register("native", (gen, out, off, n, range, base) =>
    addon.rng_random_from_to(gen.engineState(), out, off, n, range, base),
  );
  randperm_fill_stub.register("native", (gen, out, off, n) => addon.rng_randperm(gen.engineState(), out, off, n));
  // multinomial(replacement=True): contiguous float32/float64 probabilities (bfloat16: TypeScript)
  if (typeof addon.rng_multinomial_replacement === "function") {
    multinomial_replacement_stub.register("native", (gen, probs, rows, categories, n, out) => {
      const p = probs._impl, st = p.dtype.scalarType;
      if ((st !== ScalarType.Float && st !== ScalarType.Double) || !p.is_contiguous() || !p.storage.hasData()) return false;
      const o = out._impl;
      return addon.rng_multinomial_replacement(
        gen.engineState(), typedView(o.storage, o.dtype) as BigInt64Array, o.storage_offset(), rows, categories, n,
        typedView(p.storage, p.dtype) as Float32Array | Float64Array, p.storage_offset(),
      );
    });
  }
  // bernoulli_(p) (dropout's mask): a contiguous self of a dtype whose 1 is the typed array's 1 (not float16/bfloat16)
  if (typeof addon.rng_bernoulli !== "function") return;
  bernoulli_scalar_stub.register("native", (self, p, gen) => {
    const impl = self._impl, st = impl.dtype.scalarType;
    if (!impl.is_contiguous() || st === ScalarType.Half || st === ScalarType.BFloat16) return false;
    return addon.rng_bernoulli(gen.engineState(), typedView(impl.storage, impl.dtype), impl.storage_offset(), impl.numel(), p);
  });
  if (typeof addon.rng_bernoulli_tensor !== "function") return;
  const PROB_KIND = new Map([[ScalarType.Float, 0], [ScalarType.Double, 1], [ScalarType.BFloat16, 2]]);
  bernoulli_tensor_stub.register("native", (self, p, gen) => {
    const impl = self._impl, st = impl.dtype.scalarType, kind = PROB_KIND.get(p.dtype.scalarType);
    if (kind === undefined || !impl.is_contiguous() || !p._impl.is_contiguous() || st === ScalarType.Half || st === ScalarType.BFloat16) return false;
    return addon.rng_bernoulli_tensor(
      gen.engineState(), typedView(impl.storage, impl.dtype), impl.storage_offset(), impl.numel(),
      typedView(p._impl.storage, p.dtype), p._impl.storage_offset(), kind,
    );
  });
}
