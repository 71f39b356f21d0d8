// The native GEMM (native/cpu/Gemm.cc) under gemm_stub, the one GEMM behind mm, addmm, bmm, baddbmm,
// addbmm, mv, addmv, dot, vdot — and so matmul, linear, einsum and their backward passes, which are
// made of these. float32 and float64 on operands of any strides: the addon runs its own GEMM, or a
// system CBLAS (OpenBLAS) linked at build time when GLASSTORCH_BLAS=cblas or _set_native_blas("cblas")
// asks for it and the operands have a BLAS layout; bfloat16 through float copies of the operands
// (float accumulation, as PyTorch's and the TS kernel's), C rounded back once. Other dtypes
// (integers; half, which PyTorch 1.13's CPU gemm refuses) and an output sharing storage with an input
// go to the TypeScript kernel.
//
// As PyTorch's gemm dispatches tiny products to its own loops, products of fewer than
// SMALL_GEMM_FLOPS multiply-adds stay in TypeScript, where a call costs less than crossing into the addon.

import { ScalarType } from "../../../c10/ScalarType.js";
import { gemm_stub, type GemmParams, type GemmOperand } from "../linalg/Gemm.js";
import type { NativeAddon } from "./NativeBackend.js";
import { registerConvKernels } from "./NativeConv.js";

/** m * n * k below which the TypeScript kernel runs: measured on AVX-512 (Zen 4), a 2x2x2 product costs
 * 0.16 us in TypeScript and 0.29 us through the addon, 3x3x3 0.27 vs 0.24 us, 8x8x8 5.9 vs 0.24 us. */
export const SMALL_GEMM_FLOPS = 27;

const meta = new Float64Array(14);

function put(at: number, op: GemmOperand): void {
  meta[at] = op.offset;
  meta[at + 1] = op.rs;
  meta[at + 2] = op.cs;
}

function shares(a: GemmOperand, c: GemmOperand): boolean {
  return (a.data as ArrayBufferView).buffer === (c.data as ArrayBufferView).buffer;
}

function gemm(addon: NativeAddon, p: GemmParams): boolean {
  const t = p.dtype;
  if (t !== ScalarType.Float && t !== ScalarType.Double && t !== ScalarType.BFloat16) return false;
  if (p.m * p.n * p.k < SMALL_GEMM_FLOPS) return false;
  // C written while A or B are still read: the TypeScript kernel packs both first
  if (p.k > 0 && (shares(p.a, p.c) || shares(p.b, p.c))) return false;
  meta[0] = p.m;
  meta[1] = p.n;
  meta[2] = p.k;
  meta[3] = p.alpha;
  meta[4] = p.beta;
  put(5, p.a);
  put(8, p.b);
  put(11, p.c);
  return addon.gemm(t, meta, p.a.data as ArrayBufferView, p.b.data as ArrayBufferView, p.c.data as ArrayBufferView);
}

/** The GEMM and the convolutions built on it (NativeConv.ts). */
export function registerGemmKernels(addon: NativeAddon): void {
  gemm_stub.register("native", (p) => gemm(addon, p));
  registerConvKernels(addon);
}
