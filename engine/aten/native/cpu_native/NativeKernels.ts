// The native kernels, registered into the DispatchStubs they cover (REGISTER_DISPATCH). Each one
// hands the addon the operands' typed arrays with sizes, element strides and storage offsets — the
// TensorIterator's view, as PyTorch's cpu_kernel receives it — and the addon works in place.
//
// Covered: add (and sub, which is add with -alpha), mul and true div on float32/float64 (add and
// mul also int32/int64); neg and abs (float32/float64/int32/int64); sqrt, exp, log, tanh, sigmoid
// (float32/float64). (Reductions: NativeReductions.ts.) A kernel returns false for what it
// does not cover (other dtypes, operands of another dtype than the computation's), and the
// TypeScript kernel runs: the trace says which one did.

import { ScalarType } from "../../../c10/ScalarType.js";
import { typedView, readNumber, type TypedView } from "../../../c10/ElementAccess.js";
import type { Tensor } from "../../core/Tensor.js";
import type { TensorIterator } from "../TensorIterator.js";
import { toCommon } from "../Loops.js";
import { add_stub, mul_stub } from "../BinaryOps.js";
import { div_true_stub } from "../binary/Div.js";
import { neg_stub, abs_stub, sqrt_stub, exp_stub, log_stub, tanh_stub, sigmoid_stub } from "../unary/UnaryOpsKernel.js";
import { nativeAddon, type NativeAddon } from "./NativeBackend.js";
import { registerNNKernels } from "./NativeNN.js";
import { registerGemmKernels } from "./NativeGemm.js";
import { registerPointwiseKernels } from "./NativePointwise.js";
import { registerLossKernels } from "./NativeLoss.js";
import { registerPoolingKernels } from "./NativePooling.js";
import { registerIm2ColKernels } from "./NativeIm2Col.js";
import { registerConvTransposeKernels } from "./NativeConvTranspose.js";
import { registerRandomKernels } from "./NativeRandom.js";
import { registerFillKernels } from "./NativeFill.js";
import { registerBmmKernels } from "./NativeBmm.js";
import { registerOps2Kernels } from "./NativeOps2.js";
import { registerShapeKernels } from "./NativeShape.js";
import { registerHistogramKernels, registerBucketizeKernel } from "./NativeHistogram.js";
import { registerAdvancedIndexKernels } from "./NativeAdvancedIndex.js";
import { registerSortingKernels, registerUniqueKernel, registerOrderStatisticKernels } from "./NativeSorting.js";
import { registerScanKernels } from "./NativeScan.js";

// codes of native/cpu/kernels.h
const BinaryOp = { add: 0, mul: 1, div: 2 } as const;
const UnaryOp = { neg: 0, abs: 1, sqrt: 2, exp: 3, log: 4, tanh: 5, sigmoid: 6 } as const;

/** The dtypes the addon has kernels for; the others go to TypeScript without a call. */
const NATIVE_DTYPES = new Set<ScalarType>([ScalarType.Float, ScalarType.Double, ScalarType.Int, ScalarType.Long]);

/** Strides of t seen in the iterator's shape: 0 along the dims it is broadcast over. */
function broadcastStrides(t: Tensor, shape: readonly number[], into: Float64Array, at: number): void {
  const sizes = t._impl.sizes();
  const strides = t._impl.strides();
  const lead = shape.length - sizes.length;
  for (let d = 0; d < shape.length; d++) {
    const i = d - lead;
    into[at + d] = i < 0 || (sizes[i] === 1 && shape[d] !== 1) ? 0 : strides[i];
  }
}

/** One element of `common` holding a 0-d operand of another dtype, converted as the TS kernel converts it. */
function scalarOperand(t: Tensor, common: ScalarType): TypedView {
  const impl = t._impl;
  const view = typedView(impl.storage, impl.dtype);
  const off = impl.storage_offset();
  switch (common) {
    case ScalarType.Float: return new Float32Array([toCommon(common, readNumber(view, impl.dtype.scalarType, off))]);
    case ScalarType.Double: return new Float64Array([toCommon(common, readNumber(view, impl.dtype.scalarType, off))]);
    case ScalarType.Int: return new Int32Array([toCommon(common, readNumber(view, impl.dtype.scalarType, off))]);
    default: {
      // int64: exact from an int64 view, else through the number
      const v = impl.dtype.scalarType === ScalarType.Long ? (view[off] as bigint) : BigInt(Math.trunc(readNumber(view, impl.dtype.scalarType, off)));
      return new BigInt64Array([v]);
    }
  }
}

const metaCache = new Map<number, Float64Array>();
function metaArray(n: number): Float64Array {
  let m = metaCache.get(n);
  if (!m) metaCache.set(n, (m = new Float64Array(n)));
  return m;
}

/**
 * [ndim, shape..., then per operand: offset, strides...] and the operands' typed arrays, or null
 * when an operand is not in the computation's dtype (and is not a 0-d value that can be converted).
 */
function iteratorOperands(iter: TensorIterator): { meta: Float64Array; arrays: TypedView[] } | null {
  const common = iter.commonDtype.scalarType;
  if (!NATIVE_DTYPES.has(common)) return null;
  const out = iter.output;
  if (out.dtype.scalarType !== common) return null;
  const shape = iter.shape;
  const nd = shape.length;
  const operands = [out, ...iter.inputs];
  const meta = metaArray(1 + nd + operands.length * (1 + nd));
  meta[0] = nd;
  for (let d = 0; d < nd; d++) meta[1 + d] = shape[d];
  const arrays: TypedView[] = [];
  let at = 1 + nd;
  for (const t of operands) {
    if (t.dtype.scalarType === common) {
      arrays.push(typedView(t._impl.storage, t.dtype));
      meta[at] = t._impl.storage_offset();
      broadcastStrides(t, shape, meta, at + 1);
    } else if (t !== out && t.dim() === 0) {
      arrays.push(scalarOperand(t, common));
      meta[at] = 0;
      meta.fill(0, at + 1, at + 1 + nd);
    } else {
      return null;
    }
    at += 1 + nd;
  }
  return { meta, arrays };
}

function binary(addon: NativeAddon, op: number, iter: TensorIterator, alpha: number): boolean {
  const o = iteratorOperands(iter);
  if (o === null) return false;
  return addon.binary(op, iter.commonDtype.scalarType, o.meta, o.arrays[0], o.arrays[1], o.arrays[2], alpha);
}

function unary(addon: NativeAddon, op: number, iter: TensorIterator): boolean {
  const o = iteratorOperands(iter);
  if (o === null) return false;
  return addon.unary(op, iter.commonDtype.scalarType, o.meta, o.arrays[0], o.arrays[1]);
}

export function registerNativeKernels(addon: NativeAddon): void {
  add_stub.register("native", (iter, alpha) => typeof alpha === "number" && binary(addon, BinaryOp.add, iter, alpha));
  mul_stub.register("native", (iter) => binary(addon, BinaryOp.mul, iter, 1));
  div_true_stub.register("native", (iter) => binary(addon, BinaryOp.div, iter, 1));
  neg_stub.register("native", (iter) => unary(addon, UnaryOp.neg, iter));
  abs_stub.register("native", (iter) => unary(addon, UnaryOp.abs, iter));
  // floating-only stubs: integer inputs were promoted, so their operands decline above
  const floatOnly = (op: number) => (iter: TensorIterator) => {
    const t = iter.commonDtype.scalarType;
    return (t === ScalarType.Float || t === ScalarType.Double) && unary(addon, op, iter);
  };
  sqrt_stub.register("native", floatOnly(UnaryOp.sqrt));
  exp_stub.register("native", floatOnly(UnaryOp.exp));
  log_stub.register("native", floatOnly(UnaryOp.log));
  tanh_stub.register("native", floatOnly(UnaryOp.tanh));
  sigmoid_stub.register("native", floatOnly(UnaryOp.sigmoid));
  registerNNKernels(addon);
  registerGemmKernels(addon);
  registerPointwiseKernels(addon);
  registerRandomKernels(addon);
  registerFillKernels(addon);
  registerBmmKernels(addon);
  registerOps2Kernels(addon);
  registerAdvancedIndexKernels(addon);
  registerSortingKernels(addon);
  registerUniqueKernel(addon);
  registerOrderStatisticKernels(addon);
  registerScanKernels(addon);
  registerShapeKernels(addon);
  registerHistogramKernels(addon);
  registerBucketizeKernel(addon);
  registerLossKernels(addon);
  registerPoolingKernels(addon);
  registerIm2ColKernels(addon);
  registerConvTransposeKernels(addon);
}

if (nativeAddon) registerNativeKernels(nativeAddon);
