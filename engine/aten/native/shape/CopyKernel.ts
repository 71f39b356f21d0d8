// copy_stub's CPU kernel (aten/src/ATen/native/cpu/CopyKernel.cpp) and the loop it runs in.
//
// The loop walks elements in TensorIterator's order (TensorIterator.cpp reorder_dimensions and
// coalesce_dimensions: the dim with the smallest destination stride innermost). Where source and
// destination memory overlap, PyTorch's result depends on that order, and for a same-dtype copy
// along contiguous rows also on its vectorized loop (cpu/Loops.h vectorized_loop), which reads 2 AVX2
// vectors (64 bytes) before writing them. Both are reproduced, so overlapping copies that PyTorch
// allows give PyTorch's (AVX2 build's) answer.

import type { TensorImpl } from "../../../c10/TensorImpl.js";
import { typedView } from "../../../c10/ElementAccess.js";
import { DispatchStub } from "../DispatchStub.js";
import { converter } from "./Convert.js";

/** The destination's shape and both operands' strides (in elements), innermost dim first, after coalescing. */
interface CopyGeometry {
  shape: number[];
  dst: number[];
  src: number[];
}

/** TensorIterator::compute_strides + reorder_dimensions + coalesce_dimensions for one output and one input. */
export function copyGeometry(dst: TensorImpl, src: TensorImpl): CopyGeometry {
  const shape = dst.sizes();
  const nd = shape.length;
  const dstStrides = dst.strides();
  // the source broadcast to the destination's shape: a stretched (or missing) dim reads with stride 0
  const srcStrides = new Array<number>(nd).fill(0);
  const ss = src.sizes(), st = src.strides();
  for (let i = 0; i < ss.length; i++) {
    const d = nd - ss.length + i;
    srcStrides[d] = ss[i] === 1 && shape[d] !== 1 ? 0 : st[i];
  }
  const operands = [dstStrides, srcStrides];
  // perm[0] is the innermost dim; start from C order (n-1, ..., 0) and insertion-sort by strides
  const perm = [...Array(nd).keys()].reverse();
  if (nd > 1) {
    const shouldSwap = (d0: number, d1: number): number => {
      for (const strides of operands) {
        const s0 = strides[d0], s1 = strides[d1];
        if (s0 === 0 || s1 === 0) continue; // a broadcast dim says nothing; ask the next operand
        if (s0 < s1) return -1;
        if (s0 > s1) return 1;
        if (shape[d0] > shape[d1]) return 1; // equal strides: the smaller dim goes inside
      }
      return 0;
    };
    for (let i = 1; i < nd; i++) {
      let dim1 = i;
      for (let dim0 = i - 1; dim0 >= 0; dim0--) {
        const c = shouldSwap(perm[dim0], perm[dim1]);
        if (c > 0) {
          [perm[dim0], perm[dim1]] = [perm[dim1], perm[dim0]];
          dim1 = dim0;
        } else if (c < 0) break;
      }
    }
  }
  const g: CopyGeometry = { shape: perm.map((d) => shape[d]), dst: perm.map((d) => dstStrides[d]), src: perm.map((d) => srcStrides[d]) };
  // coalesce: dims that step through memory as one (shape0 * stride0 == stride1 for every operand) merge
  if (nd > 1) {
    const ops = [g.dst, g.src];
    let prev = 0;
    for (let dim = 1; dim < nd; dim++) {
      const canCoalesce = g.shape[prev] === 1 || g.shape[dim] === 1 || ops.every((s) => g.shape[prev] * s[prev] === s[dim]);
      if (canCoalesce) {
        if (g.shape[prev] === 1) for (const s of ops) s[prev] = s[dim];
        g.shape[prev] *= g.shape[dim];
      } else {
        prev++;
        if (prev !== dim) {
          for (const s of ops) s[prev] = s[dim];
          g.shape[prev] = g.shape[dim];
        }
      }
    }
    g.shape.length = g.dst.length = g.src.length = prev + 1;
  }
  return g;
}

type RawArray = (number | bigint)[];

/** copy_kernel: dst[i] = static_cast<dst_t>(src[i]) for every element, in TensorIterator's order. */
export function copy_kernel(dst: TensorImpl, src: TensorImpl): void {
  const g = copyGeometry(dst, src);
  const out = typedView(dst.storage, dst.dtype) as unknown as RawArray;
  const inp = typedView(src.storage, src.dtype) as unknown as RawArray;
  const sameType = dst.dtype.scalarType === src.dtype.scalarType;
  const convert = converter(src.dtype.scalarType, dst.dtype.scalarType);
  // 2 * Vectorized<scalar_t>::size() elements: two 32-byte AVX2 registers
  const chunk = 64 / dst.dtype.itemsize;
  const inner = g.shape.length > 0 ? g.shape[0] : 1;
  const dIn = g.shape.length > 0 ? g.dst[0] : 0, sIn = g.shape.length > 0 ? g.src[0] : 0;

  const shared = dst.storage === src.storage;
  const row = (o: number, i: number): void => {
    // separate memory: a contiguous row is one block copy (the order cannot show)
    if (sameType && !shared && dIn === 1 && sIn === 1) {
      (out as unknown as Float64Array).set((inp as unknown as Float64Array).subarray(i, i + inner), o);
      return;
    }
    if (sameType && dIn === 1 && (sIn === 1 || sIn === 0)) return vectorizedRow(out, inp, o, i, inner, sIn, chunk);
    for (let k = 0; k < inner; k++) out[o + k * dIn] = convert(inp[i + k * sIn]);
  };

  // the outer dims, innermost first, counted like an odometer
  const outer = g.shape.slice(1);
  const counter = new Array<number>(outer.length).fill(0);
  let o = dst.storage_offset(), i = src.storage_offset();
  const rows = outer.reduce((a, b) => a * b, 1);
  for (let r = 0; r < rows; r++) {
    row(o, i);
    for (let d = 0; d < outer.length; d++) {
      counter[d]++;
      o += g.dst[d + 1];
      i += g.src[d + 1];
      if (counter[d] < outer[d]) break;
      o -= g.dst[d + 1] * outer[d];
      i -= g.src[d + 1] * outer[d];
      counter[d] = 0;
    }
  }
}

/**
 * vectorized_loop: whole chunks are loaded before they are stored; the tail runs element by element.
 * A broadcast source (stride 0) is read once for all the chunks of the row.
 */
function vectorizedRow(out: RawArray, inp: RawArray, o: number, i: number, n: number, sIn: number, chunk: number): void {
  const scalar = inp[i];
  const buf = new Array<number | bigint>(chunk);
  let k = 0;
  for (; k <= n - chunk; k += chunk) {
    for (let j = 0; j < chunk; j++) buf[j] = sIn === 0 ? scalar : inp[i + k + j];
    for (let j = 0; j < chunk; j++) out[o + k + j] = buf[j];
  }
  for (; k < n; k++) out[o + k] = inp[i + k * sIn];
}

/** copy_stub (Copy.h): the device's copy loop; the TypeScript kernel is the CPU reference. */
export const copy_stub = new DispatchStub<(dst: TensorImpl, src: TensorImpl) => void>("copy_stub", "aten/src/ATen/native/cpu/CopyKernel.cpp");
copy_stub.register("ts", copy_kernel);
