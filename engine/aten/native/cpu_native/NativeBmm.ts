// The native batched GEMM (native/cpu/Bmm.cc) under bmm_stub: bmm and baddbmm (and so matmul's
// batched case and the attention products of a Transformer) in one crossing into the addon instead
// of one gemm per batch item; the addon splits a batch of small products over its threads. float32
// and float64 on operands of any strides (batch stride 0: a broadcast operand). Other dtypes, an
// output sharing storage with an input, and tiny products (which stay in TypeScript, as NativeGemm.ts
// decides for a single product) decline: the TypeScript kernel loops over gemm_stub.

import { ScalarType } from "../../../c10/ScalarType.js";
import { bmm_stub, type BatchedGemmParams, type BatchedGemmOperand } from "../linalg/BatchedGemm.js";
import type { NativeAddon } from "./NativeBackend.js";
import { SMALL_GEMM_FLOPS } from "./NativeGemm.js";

const meta = new Float64Array(18);

function put(at: number, op: BatchedGemmOperand): void {
  meta[at] = op.offset;
  meta[at + 1] = op.bs;
  meta[at + 2] = op.rs;
  meta[at + 3] = op.cs;
}

function shares(a: BatchedGemmOperand, c: BatchedGemmOperand): boolean {
  return (a.data as ArrayBufferView).buffer === (c.data as ArrayBufferView).buffer;
}

function bmm(addon: NativeAddon, p: BatchedGemmParams): boolean {
  const t = p.dtype;
  if (t !== ScalarType.Float && t !== ScalarType.Double) return false;
  // a batch of tiny products: the whole batch's work, as one product would be judged
  if (p.batch * p.m * p.n * p.k < SMALL_GEMM_FLOPS) return false;
  // C written while A or B are still read: the TypeScript kernel packs both first
  if (p.k > 0 && (shares(p.a, p.c) || shares(p.b, p.c))) return false;
  meta[0] = p.batch;
  meta[1] = p.m;
  meta[2] = p.n;
  meta[3] = p.k;
  meta[4] = p.alpha;
  meta[5] = p.beta;
  put(6, p.a);
  put(10, p.b);
  put(14, p.c);
  return addon.bmm(t, meta, p.a.data as ArrayBufferView, p.b.data as ArrayBufferView, p.c.data as ArrayBufferView);
}

export function registerBmmKernels(addon: NativeAddon): void {
  if (typeof addon.bmm !== "function") return; // an addon built before Bmm.cc: the per-item loop runs
  bmm_stub.register("native", (p) => bmm(addon, p));
}
