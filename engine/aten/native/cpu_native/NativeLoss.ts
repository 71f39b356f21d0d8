// The native pointwise loss kernels (native/cpu/Loss.cc, loss_kernels.inc) registered into the loss
// stubs (loss/LossKernel.ts), log_sigmoid's forward and backward (activation/LogSigmoid.ts,
// ActivationKernel.ts) and prelu's (activation/PReLU.ts): float32 and float64, every layout
// (contiguous, strided, broadcast). The TS kernels' bits, but where a log or exp is computed
// (binary_cross_entropy, log_sigmoid): float32 within 1 ulp (the correctly rounded float the TS kernel
// gets, except within 1e-15 of a rounding boundary), float64 glibc's against V8's last bit. An iterator whose
// operands are not all in the dtype the TS kernel computes in (a promoting loss over mixed dtypes)
// declines to the TypeScript kernel, which converts them; so do the other dtypes (float16, bfloat16,
// the integer types of mse_loss_backward and smooth_l1_loss_backward).

import { ScalarType } from "../../../c10/ScalarType.js";
import { typedView } from "../../../c10/ElementAccess.js";
import type { TensorImpl } from "../../../c10/TensorImpl.js";
import type { TensorIterator } from "../TensorIterator.js";
import {
  smooth_l1_stub, huber_stub, mse_backward_stub, smooth_l1_backward_stub, huber_backward_stub, binary_cross_entropy_backward_stub,
  binary_cross_entropy_stub, binary_cross_entropy_with_logits_stub,
} from "../loss/LossKernel.js";
import { log_sigmoid_backward_stub } from "../activation/ActivationKernel.js";
import { log_sigmoid_cpu_stub } from "../activation/LogSigmoid.js";
import { prelu_cpu_stub, prelu_backward_cpu_stub } from "../activation/PReLU.js";
import { nativeSizePolicy, type NativeAddon } from "./NativeBackend.js";
import { broadcastStrides, metaArray, walkMeta } from "./NativeMeta.js";

/** The op codes of native/cpu/loss_kernels.h. */
export const LossOp = {
  smoothL1: 0, huber: 1, mseBackward: 2, smoothL1Backward: 3, huberBackward: 4, bceBackward: 5, logSigmoidBackward: 6,
  bce: 7, logSigmoid: 8, prelu: 9, preluBackward: 10, bceWithLogits: 11,
} as const;

const isFloat = (t: ScalarType) => t === ScalarType.Float || t === ScalarType.Double;
const sameSizes = (a: TensorImpl, b: TensorImpl) => a.dim() === b.dim() && a.sizes().every((n, d) => n === b.sizes()[d]);
/** An output that shares the input's storage is only safe elementwise through the very same view. */
const safeOutput = (out: TensorImpl, input: TensorImpl) =>
  out.storage !== input.storage || (out.storage_offset() === input.storage_offset() && out.strides().every((st, d) => st === input.strides()[d]));

const scalarsCache = new Float64Array(2);

export function registerLossKernels(addon: NativeAddon): void {
  /** op over the iterator's output and inputs, when all of them are float32 or all float64 (the output's dtype). */
  const run = (op: number, iter: TensorIterator, s0 = 0, s1 = 0): boolean => {
    const out = iter.output._impl, t = out.dtype.scalarType;
    if ((t !== ScalarType.Float && t !== ScalarType.Double) || iter.numel() < nativeSizePolicy.minNumel) return false;
    const ins = iter.inputs.map((u) => u._impl);
    if (ins.some((u) => u.dtype.scalarType !== t)) return false;
    const sc = scalarsCache;
    sc[0] = s0;
    sc[1] = s1;
    const views = [out, ...ins].map((u) => typedView(u.storage, u.dtype));
    return addon.loss_op(op, t, walkMeta(iter.shape, [out, ...ins]), sc, views[0], views[1], views[2], views[3]);
  };
  smooth_l1_stub.register("native", (iter, beta) => run(LossOp.smoothL1, iter, beta));
  huber_stub.register("native", (iter, delta) => run(LossOp.huber, iter, delta));
  mse_backward_stub.register("native", (iter, norm) => run(LossOp.mseBackward, iter, norm));
  smooth_l1_backward_stub.register("native", (iter, norm, beta) => run(LossOp.smoothL1Backward, iter, norm, beta));
  huber_backward_stub.register("native", (iter, norm, delta) => run(LossOp.huberBackward, iter, norm, delta));
  binary_cross_entropy_backward_stub.register("native", (iter) => run(LossOp.bceBackward, iter));
  log_sigmoid_backward_stub.register("native", (iter) => run(LossOp.logSigmoidBackward, iter));
  // (false also when an input lies outside [0, 1]: the TS kernel raises the error)
  binary_cross_entropy_stub.register("native", (iter) => run(LossOp.bce, iter));
  binary_cross_entropy_with_logits_stub.register("native", (iter) => run(LossOp.bceWithLogits, iter));

  // log_sigmoid forward: result and buffer (input's sizes, each through its own strides) from input
  log_sigmoid_cpu_stub.register("native", (input, result, buffer) => {
    const x = input._impl, o = result._impl, b = buffer._impl, t = x.dtype.scalarType;
    if (!isFloat(t) || o.dtype.scalarType !== t || b.dtype.scalarType !== t || x.numel() < nativeSizePolicy.minNumel) return false;
    if (!sameSizes(o, x) || !sameSizes(b, x) || !safeOutput(o, x) || !safeOutput(b, x) || o.storage === b.storage) return false;
    const views = [o, b, x].map((u) => typedView(u.storage, u.dtype));
    return addon.loss_op(LossOp.logSigmoid, t, walkMeta(x.sizes(), [o, b, x]), scalarsCache, views[0], views[1], views[2]);
  });

  /**
   * prelu's operands over self's sizes: the weight broadcast along every dim but 1 (one per channel), or
   * along all (a shared weight); null when the weight is neither a 1-D tensor nor one element.
   */
  const preluMeta = (self: TensorImpl, weight: TensorImpl, channels: number, operands: TensorImpl[]): Float64Array | null => {
    if (weight.numel() !== 1 && weight.dim() !== 1) return null;
    const shape = self.sizes(), nd = shape.length;
    const meta = metaArray(1 + nd + (operands.length + 1) * (1 + nd));
    meta[0] = nd;
    for (let d = 0; d < nd; d++) meta[1 + d] = shape[d];
    let at = 1 + nd;
    for (const u of operands) {
      meta[at] = u.storage_offset();
      broadcastStrides(u, shape, meta, at + 1);
      at += 1 + nd;
    }
    meta[at] = weight.storage_offset();
    for (let d = 0; d < nd; d++) meta[at + 1 + d] = channels > 1 && d === 1 ? weight.strides()[0] : 0;
    return meta;
  };
  prelu_cpu_stub.register("native", (self, weight, _w, l, result) => {
    const x = self._impl, wt = weight._impl, o = result._impl, t = x.dtype.scalarType;
    if (!isFloat(t) || wt.dtype.scalarType !== t || o.dtype.scalarType !== t || x.numel() < nativeSizePolicy.minNumel) return false;
    const meta = preluMeta(x, wt, l.channels, [o, x]);
    if (meta === null) return false;
    const views = [o, x, wt].map((u) => typedView(u.storage, u.dtype));
    return addon.loss_op(LossOp.prelu, t, meta, scalarsCache, views[0], views[1], views[2]);
  });
  prelu_backward_cpu_stub.register("native", (self, grad_output, weight, _w, l, input_grad, collector) => {
    const x = self._impl, g = grad_output._impl, wt = weight._impl, gi = input_grad._impl, c = collector._impl, t = x.dtype.scalarType;
    if (!isFloat(t) || [g, wt, gi, c].some((u) => u.dtype.scalarType !== t) || !sameSizes(g, x) || x.numel() < nativeSizePolicy.minNumel) return false;
    const meta = preluMeta(x, wt, l.channels, [gi, c, x, g]);
    if (meta === null) return false;
    const views = [gi, c, x, g, wt].map((u) => typedView(u.storage, u.dtype));
    return addon.loss_op(LossOp.preluBackward, t, meta, scalarsCache, views[0], views[1], views[2], views[3], views[4]);
  });
}
