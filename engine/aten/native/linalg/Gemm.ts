// The one GEMM behind every matrix product of the family (aten/src/ATen/native/CPUBlas.cpp,
// cpu/BlasKernel.cpp): C = beta * C + alpha * (A @ B) on strided operands. mm, addmm, bmm, baddbmm,
// addbmm, mv, addmv, dot and vdot all end here through gemm_stub, so a native or CUDA kernel can
// slot in under one name.
//
// As BLAS does, beta == 0 overwrites C without reading it (NaN and inf in C do not propagate).
// Accumulation happens in the type BLAS would use: float32 in float32 (Float32Array accumulators),
// float64 in float64, bfloat16/float16 in float32 (at::opmath_type), integers exactly with C++'s
// wrap-around (int64 in BigInt). The TypeScript kernel packs both operands into contiguous arrays
// of the compute type, then runs blocked i-k-j loops whose inner loop walks both rows with stride 1.

import { ScalarType } from "../../../c10/ScalarType.js";
import type { TypedView } from "../../../c10/ElementAccess.js";
import { bfloat16BitsFromNumber, bfloat16BitsToNumber, halfBitsFromNumber, halfBitsToNumber } from "../../../c10/util/Half.js";
import { DispatchStub } from "../DispatchStub.js";

/** A strided matrix in a storage: element (i, j) lives at data[offset + i * rs + j * cs]. */
export interface GemmOperand {
  data: TypedView;
  offset: number;
  rs: number;
  cs: number;
}

export interface GemmParams {
  dtype: ScalarType;
  m: number;
  n: number;
  k: number;
  alpha: number;
  beta: number;
  a: GemmOperand; // m x k
  b: GemmOperand; // k x n
  c: GemmOperand; // m x n, read (unless beta == 0) and written
}

export const gemm_stub = new DispatchStub<(p: GemmParams) => void>("gemm_stub", "aten/src/ATen/native/cpu/BlasKernel.cpp");

type Compute = "f32" | "f64" | "i32" | "i64";

function computeKind(t: ScalarType): Compute {
  switch (t) {
    case ScalarType.Double: return "f64";
    case ScalarType.Float:
    case ScalarType.Half:
    case ScalarType.BFloat16: return "f32";
    case ScalarType.Long: return "i64";
    default: return "i32";
  }
}

function reader(t: ScalarType): ((raw: number) => number) | null {
  if (t === ScalarType.Half) return halfBitsToNumber;
  if (t === ScalarType.BFloat16) return bfloat16BitsToNumber;
  return null;
}

function writer(t: ScalarType): ((v: number) => number) | null {
  if (t === ScalarType.Half) return halfBitsFromNumber;
  if (t === ScalarType.BFloat16) return bfloat16BitsFromNumber;
  return null;
}

function newArray(kind: Compute, n: number): Float32Array | Float64Array | Int32Array | BigInt64Array {
  switch (kind) {
    case "f32": return new Float32Array(n);
    case "f64": return new Float64Array(n);
    case "i32": return new Int32Array(n);
    case "i64": return new BigInt64Array(n);
  }
}

/** Copies a rows x cols strided operand into a contiguous row-major array of the compute type. */
function pack(op: GemmOperand, rows: number, cols: number, kind: Compute, t: ScalarType): Float32Array | Float64Array | Int32Array | BigInt64Array {
  const out = newArray(kind, rows * cols);
  const src = op.data as unknown as ArrayLike<number>;
  const read = reader(t);
  const dst = out as unknown as { [i: number]: number };
  let w = 0;
  for (let i = 0; i < rows; i++) {
    let o = op.offset + i * op.rs;
    for (let j = 0; j < cols; j++, o += op.cs) dst[w++] = read ? read(src[o]) : src[o];
  }
  return out;
}

const NB = 256; // columns of B per block: one block of packed B stays in cache across all rows of A

/** Float kernels: acc rows in the compute type's array, so each partial sum rounds as BLAS rounds it. */
function gemmFloat(p: GemmParams, kind: "f32" | "f64"): void {
  const { m, n, k, c } = p;
  const A = pack(p.a, m, k, kind, p.dtype) as Float32Array | Float64Array;
  const B = pack(p.b, k, n, kind, p.dtype) as Float32Array | Float64Array;
  const acc = kind === "f32" ? new Float32Array(NB) : new Float64Array(NB);
  const cd = c.data as unknown as { [i: number]: number };
  const read = reader(p.dtype), write = writer(p.dtype);
  const round = kind === "f32" ? Math.fround : (x: number) => x;
  const alpha = round(p.alpha), beta = round(p.beta);
  for (let j0 = 0; j0 < n; j0 += NB) {
    const nb = Math.min(NB, n - j0);
    for (let i = 0; i < m; i++) {
      acc.fill(0);
      const arow = i * k;
      for (let q = 0; q < k; q++) {
        const aiq = A[arow + q];
        const brow = q * n + j0;
        for (let j = 0; j < nb; j++) acc[j] += aiq * B[brow + j];
      }
      let o = c.offset + i * c.rs + j0 * c.cs;
      for (let j = 0; j < nb; j++, o += c.cs) {
        let v = alpha === 1 ? acc[j] : round(alpha * acc[j]);
        if (beta !== 0) {
          const old = read ? read(cd[o]) : cd[o];
          v = round(v + round(beta * old));
        }
        cd[o] = write ? write(v) : v;
      }
    }
  }
}

/** int8/uint8/int16/int32: 32-bit two's-complement arithmetic; storing wraps to the element type. */
function gemmInt32(p: GemmParams): void {
  const { m, n, k, c } = p;
  const A = pack(p.a, m, k, "i32", p.dtype) as Int32Array;
  const B = pack(p.b, k, n, "i32", p.dtype) as Int32Array;
  const acc = new Int32Array(NB);
  const cd = c.data as unknown as { [i: number]: number };
  const alpha = Math.trunc(p.alpha) | 0, beta = Math.trunc(p.beta) | 0;
  for (let j0 = 0; j0 < n; j0 += NB) {
    const nb = Math.min(NB, n - j0);
    for (let i = 0; i < m; i++) {
      acc.fill(0);
      for (let q = 0; q < k; q++) {
        const aiq = A[i * k + q];
        const brow = q * n + j0;
        for (let j = 0; j < nb; j++) acc[j] = (acc[j] + Math.imul(aiq, B[brow + j])) | 0;
      }
      let o = c.offset + i * c.rs + j0 * c.cs;
      for (let j = 0; j < nb; j++, o += c.cs) {
        let v = Math.imul(alpha, acc[j]);
        if (beta !== 0) v = (v + Math.imul(beta, cd[o])) | 0;
        cd[o] = v;
      }
    }
  }
}

/** int64: exact modulo 2^64 with BigInt. */
function gemmInt64(p: GemmParams): void {
  const { m, n, k, c } = p;
  const A = pack(p.a, m, k, "i64", p.dtype) as BigInt64Array;
  const B = pack(p.b, k, n, "i64", p.dtype) as BigInt64Array;
  const cd = c.data as BigInt64Array;
  const alpha = BigInt(Math.trunc(p.alpha)), beta = BigInt(Math.trunc(p.beta));
  const acc = new Array<bigint>(n);
  for (let i = 0; i < m; i++) {
    acc.fill(0n);
    for (let q = 0; q < k; q++) {
      const aiq = A[i * k + q];
      if (aiq === 0n) continue; // integers: 0 * x is 0, no NaN to propagate
      const brow = q * n;
      for (let j = 0; j < n; j++) acc[j] += aiq * B[brow + j];
    }
    let o = c.offset + i * c.rs;
    for (let j = 0; j < n; j++, o += c.cs) {
      let v = alpha * acc[j];
      if (beta !== 0n) v += beta * cd[o];
      cd[o] = BigInt.asIntN(64, v);
    }
  }
}

gemm_stub.register("ts", (p) => {
  if (p.m === 0 || p.n === 0) return;
  const kind = computeKind(p.dtype);
  if (kind === "f32" || kind === "f64") gemmFloat(p, kind);
  else if (kind === "i32") gemmInt32(p);
  else gemmInt64(p);
});
