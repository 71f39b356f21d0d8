// The native pointwise loss kernels (native/cpu/Loss.cc, loss_kernels.inc) registered into the loss
// stubs (loss/LossKernel.ts) and log_sigmoid_backward's (activation/ActivationKernel.ts): float32 and
// float64, every layout (contiguous, strided, broadcast), the TS kernels' bits. An iterator whose
// operands are not all in the dtype the TS kernel computes in (a promoting loss over mixed dtypes)
// declines to the TypeScript kernel, which converts them; so do the other dtypes (float16, bfloat16,
// the integer types of mse_loss_backward and smooth_l1_loss_backward).

import { ScalarType } from "../../../c10/ScalarType.js";
import { typedView } from "../../../c10/ElementAccess.js";
import type { TensorIterator } from "../TensorIterator.js";
import {
  smooth_l1_stub, huber_stub, mse_backward_stub, smooth_l1_backward_stub, huber_backward_stub, binary_cross_entropy_backward_stub,
} from "../loss/LossKernel.js";
import { log_sigmoid_backward_stub } from "../activation/ActivationKernel.js";
import { nativeSizePolicy, type NativeAddon } from "./NativeBackend.js";
import { walkMeta } from "./NativeMeta.js";

/** The op codes of native/cpu/loss_kernels.h. */
export const LossOp = {
  smoothL1: 0, huber: 1, mseBackward: 2, smoothL1Backward: 3, huberBackward: 4, bceBackward: 5, logSigmoidBackward: 6,
} as const;

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
}
