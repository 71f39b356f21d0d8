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

const NB = 256; // columns per block in the integer kernels: one block of packed B stays in cache

/**
 * The float kernel, once per array type so each stays monomorphic for the JIT. C is computed in 4 x 4
 * tiles held in sixteen local accumulators: A is packed row-major and B transposed, so both operands
 * of every dot product are read with stride 1, and each loaded element serves four products. Every
 * step rounds to the compute type (Math.fround), as a float32 BLAS accumulating with FMA does.
 */
function gemmFloat32Array(p: GemmParams): void {
  const { m, n, k, c } = p;
  const A = pack(p.a, m, k, "f32", p.dtype) as Float32Array;
  const Bt = pack({ ...p.b, rs: p.b.cs, cs: p.b.rs }, n, k, "f32", p.dtype) as Float32Array; // B^T, n x k
  const cd = c.data as unknown as { [i: number]: number };
  const read = reader(p.dtype), write = writer(p.dtype);
  const alpha = Math.fround(p.alpha), beta = Math.fround(p.beta);
  const store = (i: number, j: number, sum: number) => {
    const o = c.offset + i * c.rs + j * c.cs;
    let v = alpha === 1 ? sum : Math.fround(alpha * sum);
    if (beta !== 0) v = Math.fround(v + Math.fround(beta * (read ? read(cd[o]) : cd[o])));
    cd[o] = write ? write(v) : v;
  };
  const m4 = m - (m % 4), n4 = n - (n % 4);
  for (let i0 = 0; i0 < m4; i0 += 4) {
    const r0 = i0 * k, r1 = r0 + k, r2 = r1 + k, r3 = r2 + k;
    for (let j0 = 0; j0 < n4; j0 += 4) {
      const s0 = j0 * k, s1 = s0 + k, s2 = s1 + k, s3 = s2 + k;
      let c00 = 0, c01 = 0, c02 = 0, c03 = 0, c10 = 0, c11 = 0, c12 = 0, c13 = 0;
      let c20 = 0, c21 = 0, c22 = 0, c23 = 0, c30 = 0, c31 = 0, c32 = 0, c33 = 0;
      for (let q = 0; q < k; q++) {
        const a0 = A[r0 + q], a1 = A[r1 + q], a2 = A[r2 + q], a3 = A[r3 + q];
        const b0 = Bt[s0 + q], b1 = Bt[s1 + q], b2 = Bt[s2 + q], b3 = Bt[s3 + q];
        c00 = Math.fround(c00 + a0 * b0); c01 = Math.fround(c01 + a0 * b1); c02 = Math.fround(c02 + a0 * b2); c03 = Math.fround(c03 + a0 * b3);
        c10 = Math.fround(c10 + a1 * b0); c11 = Math.fround(c11 + a1 * b1); c12 = Math.fround(c12 + a1 * b2); c13 = Math.fround(c13 + a1 * b3);
        c20 = Math.fround(c20 + a2 * b0); c21 = Math.fround(c21 + a2 * b1); c22 = Math.fround(c22 + a2 * b2); c23 = Math.fround(c23 + a2 * b3);
        c30 = Math.fround(c30 + a3 * b0); c31 = Math.fround(c31 + a3 * b1); c32 = Math.fround(c32 + a3 * b2); c33 = Math.fround(c33 + a3 * b3);
      }
      store(i0, j0, c00); store(i0, j0 + 1, c01); store(i0, j0 + 2, c02); store(i0, j0 + 3, c03);
      store(i0 + 1, j0, c10); store(i0 + 1, j0 + 1, c11); store(i0 + 1, j0 + 2, c12); store(i0 + 1, j0 + 3, c13);
      store(i0 + 2, j0, c20); store(i0 + 2, j0 + 1, c21); store(i0 + 2, j0 + 2, c22); store(i0 + 2, j0 + 3, c23);
      store(i0 + 3, j0, c30); store(i0 + 3, j0 + 1, c31); store(i0 + 3, j0 + 2, c32); store(i0 + 3, j0 + 3, c33);
    }
  }
  // the edges: rows past m4 (every column) and columns past n4 (rows below m4), one dot product each
  const dot = (i: number, j: number) => {
    let sum = 0;
    for (let q = 0, a = i * k, b = j * k; q < k; q++) sum = Math.fround(sum + A[a + q] * Bt[b + q]);
    store(i, j, sum);
  };
  for (let i = 0; i < m4; i++) for (let j = n4; j < n; j++) dot(i, j);
  for (let i = m4; i < m; i++) for (let j = 0; j < n; j++) dot(i, j);
}

function gemmFloat64Array(p: GemmParams): void {
  const { m, n, k, c } = p;
  const A = pack(p.a, m, k, "f64", p.dtype) as Float64Array;
  const Bt = pack({ ...p.b, rs: p.b.cs, cs: p.b.rs }, n, k, "f64", p.dtype) as Float64Array; // B^T, n x k
  const cd = c.data as unknown as { [i: number]: number };
  const read = reader(p.dtype), write = writer(p.dtype);
  const alpha = (p.alpha), beta = (p.beta);
  const store = (i: number, j: number, sum: number) => {
    const o = c.offset + i * c.rs + j * c.cs;
    let v = alpha === 1 ? sum : (alpha * sum);
    if (beta !== 0) v = (v + (beta * (read ? read(cd[o]) : cd[o])));
    cd[o] = write ? write(v) : v;
  };
  const m4 = m - (m % 4), n4 = n - (n % 4);
  for (let i0 = 0; i0 < m4; i0 += 4) {
    const r0 = i0 * k, r1 = r0 + k, r2 = r1 + k, r3 = r2 + k;
    for (let j0 = 0; j0 < n4; j0 += 4) {
      const s0 = j0 * k, s1 = s0 + k, s2 = s1 + k, s3 = s2 + k;
      let c00 = 0, c01 = 0, c02 = 0, c03 = 0, c10 = 0, c11 = 0, c12 = 0, c13 = 0;
      let c20 = 0, c21 = 0, c22 = 0, c23 = 0, c30 = 0, c31 = 0, c32 = 0, c33 = 0;
      for (let q = 0; q < k; q++) {
        const a0 = A[r0 + q], a1 = A[r1 + q], a2 = A[r2 + q], a3 = A[r3 + q];
        const b0 = Bt[s0 + q], b1 = Bt[s1 + q], b2 = Bt[s2 + q], b3 = Bt[s3 + q];
        c00 = (c00 + a0 * b0); c01 = (c01 + a0 * b1); c02 = (c02 + a0 * b2); c03 = (c03 + a0 * b3);
        c10 = (c10 + a1 * b0); c11 = (c11 + a1 * b1); c12 = (c12 + a1 * b2); c13 = (c13 + a1 * b3);
        c20 = (c20 + a2 * b0); c21 = (c21 + a2 * b1); c22 = (c22 + a2 * b2); c23 = (c23 + a2 * b3);
        c30 = (c30 + a3 * b0); c31 = (c31 + a3 * b1); c32 = (c32 + a3 * b2); c33 = (c33 + a3 * b3);
      }
      store(i0, j0, c00); store(i0, j0 + 1, c01); store(i0, j0 + 2, c02); store(i0, j0 + 3, c03);
      store(i0 + 1, j0, c10); store(i0 + 1, j0 + 1, c11); store(i0 + 1, j0 + 2, c12); store(i0 + 1, j0 + 3, c13);
      store(i0 + 2, j0, c20); store(i0 + 2, j0 + 1, c21); store(i0 + 2, j0 + 2, c22); store(i0 + 2, j0 + 3, c23);
      store(i0 + 3, j0, c30); store(i0 + 3, j0 + 1, c31); store(i0 + 3, j0 + 2, c32); store(i0 + 3, j0 + 3, c33);
    }
  }
  // the edges: rows past m4 (every column) and columns past n4 (rows below m4), one dot product each
  const dot = (i: number, j: number) => {
    let sum = 0;
    for (let q = 0, a = i * k, b = j * k; q < k; q++) sum = (sum + A[a + q] * Bt[b + q]);
    store(i, j, sum);
  };
  for (let i = 0; i < m4; i++) for (let j = n4; j < n; j++) dot(i, j);
  for (let i = m4; i < m; i++) for (let j = 0; j < n; j++) dot(i, j);
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
  if (kind === "f32") gemmFloat32Array(p);
  else if (kind === "f64") gemmFloat64Array(p);
  else if (kind === "i32") gemmInt32(p);
  else gemmInt64(p);
});
