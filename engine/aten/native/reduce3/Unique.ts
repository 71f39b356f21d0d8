// unique and its variants (aten/src/ATen/native/Unique.cpp): _unique2 / _unique (what torch.unique
// calls without dim), unique_dim (with dim), unique_consecutive and unique_dim_consecutive. CPU only in
// PyTorch 1.13 (dynamic output shapes have no Meta kernel).
//
// _unique2 gathers the distinct values in a std::unordered_set (HashSet.ts reproduces its order, which
// sorted=False returns), then std::sorts them when sorted=True. Every NaN is distinct (NaN != NaN).

import { RuntimeError } from "../../../c10/Errors.js";
import { ScalarType, int64 } from "../../../c10/ScalarType.js";
import { maybe_wrap_dim } from "../../../c10/WrapDimMinimal.js";
import type { Tensor } from "../../core/Tensor.js";
import { dimMask, gather, writeAll } from "../reduce/ReduceUtils.js";
import { emptyLike, hasData, isNaNValue, notImplementedFor, type Value } from "./common.js";
import { rawWindow } from "../join/common.js";
import { unorderedSetOrder, stdHash } from "./HashSet.js";
import { stdSort } from "../../../c10/util/StdAlgorithms.js";
import { DispatchStub } from "../DispatchStub.js";

type Triple = [Tensor, Tensor, Tensor];
const flat = (t: Tensor): Value[] => (t.numel() === 0 ? [] : gather(t, dimMask(null, t.dim()))[0]);
const less = (a: Value, b: Value): boolean => a < b;

function tensorOf(like: Tensor, sizes: readonly number[], dt: typeof int64, vals: readonly Value[]): Tensor {
  const t = emptyLike(like, sizes, dt);
  if (hasData(t)) writeAll(t, vals);
  return t;
}

/**
 * unique_cpu_template: the distinct values in std::unordered_set order (sorted=False), or that order
 * std::sorted; the inverse maps each element to its value's position (a NaN finds no entry in PyTorch's
 * map, and 1.13 reads 0 there, as here); counts come from a second map the same way (a NaN's count is 0).
 */
function uniqueFlat(self: Tensor, sorted: boolean, returnInverse: boolean, returnCounts: boolean): Triple {
  if (self.dtype.scalarType === ScalarType.Half) throw notImplementedFor("unique", ScalarType.Half);
  const result: UniqueResult = { out: null };
  unique_stub.call(self.device.type, self, sorted, returnInverse, returnCounts, result);
  return result.out!;
}

/** Where a unique kernel puts its (output, inverse, counts): their sizes depend on the data. */
export interface UniqueResult {
  out: Triple | null;
}

/** unique_cpu_template as a DispatchStub (PyTorch calls the template directly; here a native kernel may take it). */
export const unique_stub = new DispatchStub<(self: Tensor, sorted: boolean, returnInverse: boolean, returnCounts: boolean, result: UniqueResult) => void>(
  "unique_cpu_template", "aten/src/ATen/native/Unique.cpp");
unique_stub.register("ts", (self, sorted, returnInverse, returnCounts, result) => {
  result.out = uniqueFlatTs(self, sorted, returnInverse, returnCounts);
});

function uniqueFlatTs(self: Tensor, sorted: boolean, returnInverse: boolean, returnCounts: boolean): Triple {
  const xs = flat(self);
  const distinct = unorderedSetOrder(xs, self.dtype.scalarType);
  if (sorted) stdSort(distinct, 0, distinct.length, less);
  const output = tensorOf(self, [distinct.length], self.dtype, distinct);
  if (!(returnInverse || returnCounts)) return [output, emptyLike(self, [0], int64), emptyLike(self, [0], int64)];
  // std::unordered_map<scalar_t, int64_t>: found by hash and ==, so float 0.0 and -0.0 share an entry
  // (their hash is 0) while bfloat16's (hashed by bits) do not; a NaN is never found
  const st = self.dtype.scalarType;
  const key = (v: Value) => `${stdHash(v, st)}:${v === 0 ? 0 : v}`;
  const where = new Map<string, number>();
  distinct.forEach((v, i) => { if (!isNaNValue(v)) where.set(key(v), i); });
  const inverse = xs.map((v) => BigInt(isNaNValue(v) ? 0 : where.get(key(v)) ?? 0));
  // counts_map: each element adds one to its value's entry, a NaN to an entry of its own that no output
  // reads (so a NaN output counts 0, and the output that the NaN's inverse names gets nothing from it)
  const counts = new Array<bigint>(distinct.length).fill(0n);
  xs.forEach((v, k) => { if (!isNaNValue(v)) counts[Number(inverse[k])] += 1n; });
  return [output, tensorOf(self, self._impl.sizes(), int64, inverse), returnCounts ? tensorOf(self, [distinct.length], int64, counts) : emptyLike(self, [0], int64)];
}

export const _unique2_cpu = (self: Tensor, sorted: boolean, returnInverse: boolean, returnCounts: boolean): Triple =>
  uniqueFlat(self, sorted, returnInverse, returnCounts);

/** _unique: (output, inverse) of the same template, no counts. */
export function _unique_cpu(self: Tensor, sorted: boolean, returnInverse: boolean): [Tensor, Tensor] {
  const [o, i] = uniqueFlat(self, sorted, returnInverse, false);
  return [o, i];
}

/**
 * _unique_dim_cpu_template: the slices along dim (rows of self.transpose(0, dim) flattened), compared
 * lexicographically and sorted unless consecutive, equal neighbours merged. The output is the kept rows
 * stacked and transposed back, so its strides are those of a transpose (not contiguous for dim > 0).
 * inverse_indices and counts are always computed.
 */
function uniqueDim(self: Tensor, dim: number, consecutive: boolean): Triple {
  const sizes = self._impl.sizes();
  const d = maybe_wrap_dim(dim, sizes.length);
  const zeroDims = sizes.filter((s) => s === 0).length;
  if (sizes[d] === 0) {
    if (zeroDims !== 1) throw new RuntimeError("Number of zero sized dimensions is more than one, so unique cannot be applied ");
    return [emptyLike(self, sizes, self.dtype), emptyLike(self, [0], int64), emptyLike(self, [0], int64)];
  }
  if (zeroDims !== 0) throw new RuntimeError("There are 0 sized dimensions, and they aren't selected, so unique cannot be applied");
  if (self.dtype.scalarType === ScalarType.Half) throw notImplementedFor("unique_dim", ScalarType.Half);
  // the transposed order of dims: dim first, dim 0 in its place
  const perm = sizes.map((_, i) => (i === 0 ? d : i === d ? 0 : i));
  const tSizes = perm.map((p) => sizes[p]);
  const cs: number[] = [];
  let acc = 1;
  for (let i = sizes.length - 1; i >= 0; i--) { cs[i] = acc; acc *= sizes[i]; }
  const xs = flat(self);
  const n = sizes[d];
  const rowLen = tSizes.slice(1).reduce((a, b) => a * b, 1);
  const rows: Value[][] = Array.from({ length: n }, (_, r) => {
    const row: Value[] = [];
    for (let e = 0; e < rowLen; e++) {
      let rem = e, lin = r * cs[d];
      for (let j = tSizes.length - 1; j >= 1; j--) {
        lin += (rem % tSizes[j]) * cs[perm[j]];
        rem = Math.floor(rem / tSizes[j]);
      }
      row.push(xs[lin]);
    }
    return row;
  });
  const lex = (a: number, b: number): number => {
    for (let k = 0; k < rowLen; k++) {
      if (rows[a][k] < rows[b][k]) return -1;
      if (rows[a][k] > rows[b][k]) return 1;
    }
    return 0;
  };
  const same = (a: number, b: number): boolean => rows[a].every((v, k) => v === rows[b][k]);
  const order = rows.map((_, i) => i);
  if (!consecutive) order.sort((a, b) => lex(a, b) || a - b);
  const inverse = new Array<bigint>(n);
  const counts: bigint[] = [];
  const kept: number[] = [];
  order.forEach((r) => {
    if (kept.length === 0 || !same(kept[kept.length - 1], r)) { kept.push(r); counts.push(0n); }
    inverse[r] = BigInt(kept.length - 1);
    counts[counts.length - 1] += 1n;
  });
  // at::stack(kept rows).view(transposed sizes).transpose(0, dim)
  const stacked = emptyLike(self, [kept.length, ...tSizes.slice(1)], self.dtype);
  if (hasData(stacked)) writeAll(stacked, kept.flatMap((r) => rows[r]));
  const st = [...stacked._impl.strides()];
  [st[0], st[d]] = [st[d], st[0]];
  const outSizes = [...sizes];
  outSizes[d] = kept.length;
  const output = rawWindow(stacked, outSizes, st, 0);
  return [output, tensorOf(self, [n], int64, inverse), tensorOf(self, [kept.length], int64, counts)];
}

export const unique_dim_cpu = (self: Tensor, dim: number, _sorted: boolean, _ri: boolean, _rc: boolean): Triple => uniqueDim(self, dim, false);
export const unique_dim_consecutive_cpu = (self: Tensor, dim: number, _ri: boolean, _rc: boolean): Triple => uniqueDim(self, dim, true);

/** unique_consecutive_cpu: without dim (or dim 0 of a 1-d input) runs of equal elements collapse; else unique_dim_consecutive_cpu. */
export function unique_consecutive_cpu(self: Tensor, returnInverse: boolean, returnCounts: boolean, dim: number | null): Triple {
  if (dim !== null && !(dim === 0 && self.dim() === 1)) return unique_dim_consecutive_cpu(self, dim, returnInverse, returnCounts);
  if (self.dtype.scalarType === ScalarType.Half) throw notImplementedFor("unique", ScalarType.Half);
  const xs = flat(self);
  const out: Value[] = [], inverse: bigint[] = [], counts: bigint[] = [];
  xs.forEach((v, i) => {
    if (i === 0 || v !== out[out.length - 1]) { out.push(v); counts.push(0n); }
    inverse.push(BigInt(out.length - 1));
    counts[counts.length - 1] += 1n;
  });
  return [
    tensorOf(self, [out.length], self.dtype, out),
    returnInverse && xs.length > 0 ? tensorOf(self, self._impl.sizes(), int64, inverse) : emptyLike(self, [0], int64),
    returnCounts && xs.length > 0 ? tensorOf(self, [out.length], int64, counts) : emptyLike(self, [0], int64),
  ];
}
