// The native reductions (native/cpu/Reductions.cc), registered into the reduction DispatchStubs:
//   sum_stub (and mean through it): float32/float64 into float32/float64, float16/bfloat16 into
//     themselves, float32 or float64 (in double, rounded once), integers and bool into int64
//   std_var_stub (var, std, var_mean, std_mean): float32, float64
//   max_values/min_values (amax/amin), max_all/min_all (max(), min()), max/min (.dim, values and
//   indices), argmax/argmin: every real dtype, bool, float16 and bfloat16 (compared in float)
//   logsumexp: float32, float64 into the same dtype (the TS kernel's steps and rounding)
//   prod_stub: every real dtype, bool, float16 and bfloat16 into float32/float64 (in double lanes, in
//     the TS kernel's order, laneReduce's: the same bits), integers and bool into int64 (exact, wrapping)
//   norm_stub (linalg.vector_norm, norm): ord 0, 1, 2, inf, -inf; float32 into float32/float64, float64
//     into float64; in the result type, in laneReduce's order as the TS kernel (the same bits)
//   and_stub / or_stub (all, any): every dtype above into bool or uint8
//   count_nonzero_stub: every dtype above into int64 (exact counts)
// over any dims, any strides (the output too: out= may be strided).
// A float32 sum into float32 adds runs of 16 elements per lane (16 rows per column) in float before
// they join a double, as PyTorch's float32 sums accumulate in float: within 16 * 2^-24 * sum|x| of
// the TypeScript kernel's double sum (the tests' bound), not bit for bit; every other sum is in double.

import { ScalarType } from "../../../c10/ScalarType.js";
import { typedView } from "../../../c10/ElementAccess.js";
import type { Tensor } from "../../core/Tensor.js";
import { sum_stub } from "../ReduceOps.js";
import {
  max_values_stub, min_values_stub, max_all_stub, min_all_stub, max_stub, min_stub, argmax_stub, argmin_stub,
  prod_stub, and_stub, or_stub,
} from "../reduce/ReduceOps.js";
import { std_var_stub, count_nonzero_stub } from "../reduce/Statistics.js";
import { logsumexp_stub } from "../reduce3/LogSumExp.js";
import { norm_stub } from "../reduce3/Norms.js";
import { nativeSizePolicy, type NativeAddon } from "./NativeBackend.js";

const { Byte, Char, Short, Int, Long, Half, Float, Double, Bool, BFloat16 } = ScalarType;
const NATIVE_DTYPES = new Set<ScalarType>([Byte, Char, Short, Int, Long, Half, Float, Double, Bool, BFloat16]);

/** Reductions.cc's Kind */
const Kind = { sum: 0, mean: 1, var: 2, std: 3, max: 4, min: 5, logsumexp: 6, prod: 7, all: 8, any: 9, count_nonzero: 10, norm: 11 } as const;

const metaCache = new Map<number, Float64Array>();
const scalarArray = new Float64Array(1);

/** Writes `out`'s offset and, for each of self's dims, its stride (0 for reduced dims) at meta[at]. */
function outStrides(out: Tensor | null, mask: readonly boolean[], meta: Float64Array, at: number): void {
  const nd = mask.length;
  if (out === null) {
    meta.fill(0, at, at + 1 + nd);
    return;
  }
  const reduced = mask.filter(Boolean).length;
  const os = out._impl.strides();
  // keepdim keeps every dim (the reduced ones as size 1); otherwise the kept dims in order
  const keepdim = os.length === nd && reduced > 0;
  meta[at] = out._impl.storage_offset();
  let j = 0;
  for (let d = 0; d < nd; d++) {
    if (mask[d]) {
      meta[at + 1 + d] = 0;
      if (keepdim) j++;
    } else {
      meta[at + 1 + d] = os[j++];
    }
  }
}

function reduce(addon: NativeAddon, kind: number, self: Tensor, mask: readonly boolean[], out: Tensor | null, out2: Tensor | null, scalar = 0): boolean {
  const st = self.dtype.scalarType;
  if (!NATIVE_DTYPES.has(st)) return false;
  const impl = self._impl;
  if (impl.numel() < nativeSizePolicy.minNumel) return false;
  const sizes = impl.sizes(), strides = impl.strides();
  const nd = sizes.length;
  const len = 1 + nd + 3 * (1 + nd) + nd;
  let meta = metaCache.get(len);
  if (!meta) metaCache.set(len, (meta = new Float64Array(len)));
  meta[0] = nd;
  for (let d = 0; d < nd; d++) meta[1 + d] = sizes[d];
  let at = 1 + nd;
  meta[at] = impl.storage_offset();
  for (let d = 0; d < nd; d++) meta[at + 1 + d] = strides[d];
  at += 1 + nd;
  outStrides(out, mask, meta, at);
  at += 1 + nd;
  outStrides(out2, mask, meta, at);
  at += 1 + nd;
  for (let d = 0; d < nd; d++) meta[at + d] = mask[d] ? 1 : 0;
  scalarArray[0] = scalar;
  const outType = out ? out.dtype.scalarType : st;
  const view = (t: Tensor | null) => (t ? typedView(t._impl.storage, t.dtype) : null);
  return addon.pw_reduce(kind, st, outType, meta, typedView(impl.storage, self.dtype), view(out), view(out2), scalarArray);
}

export function registerReductionKernels(addon: NativeAddon): void {
  sum_stub.register("native", (self, mask, out) => reduce(addon, Kind.sum, self, mask, out, null));
  std_var_stub.register("native", (self, mask, correction, isStd, result, mean) => {
    const t = self.dtype.scalarType;
    if ((t !== Float && t !== Double) || result.dtype !== self.dtype || (mean !== null && mean.dtype !== self.dtype)) return false;
    return reduce(addon, isStd ? Kind.std : Kind.var, self, mask, result, mean, correction);
  });
  const maxMin = (kind: number) => (self: Tensor, mask: readonly boolean[], values: Tensor | null, indices: Tensor | null): boolean =>
    (values === null || values.dtype === self.dtype) && (indices === null || indices.dtype.scalarType === Long) && self.numel() > 0 &&
    reduce(addon, kind, self, mask, values, indices);
  for (const s of [max_values_stub, max_all_stub, max_stub, argmax_stub]) s.register("native", maxMin(Kind.max));
  for (const s of [min_values_stub, min_all_stub, min_stub, argmin_stub]) s.register("native", maxMin(Kind.min));
  prod_stub.register("native", (self, mask, result) => reduce(addon, Kind.prod, self, mask, result, null));
  and_stub.register("native", (self, mask, result) => reduce(addon, Kind.all, self, mask, result, null));
  or_stub.register("native", (self, mask, result) => reduce(addon, Kind.any, self, mask, result, null));
  count_nonzero_stub.register("native", (self, mask, result) => reduce(addon, Kind.count_nonzero, self, mask, result, null));
  norm_stub.register("native", (result, self, mask, ord) => {
    const it = self.dtype.scalarType, ot = result.dtype.scalarType;
    if (!((it === Float && (ot === Float || ot === Double)) || (it === Double && ot === Double))) return false;
    return (ord === 0 || ord === 1 || ord === 2 || ord === Infinity || ord === -Infinity) && reduce(addon, Kind.norm, self, mask, result, null, ord);
  });
  logsumexp_stub.register("native", (result, self, mask) => {
    const t = self.dtype.scalarType;
    return (t === Float || t === Double) && result.dtype.scalarType === t && reduce(addon, Kind.logsumexp, self, mask, result, null);
  });
}
