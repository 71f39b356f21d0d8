// nll_loss's backward ops (aten/src/ATen/native/LossNLL.cpp, LossNLL2d.cpp), what NllLossBackward0 and
// NllLoss2DBackward0 call: grad_input is zeros of self's shape with, at each sample's target class, minus
// the upstream gradient (per sample for reduction 'none', else grad_output, divided by total_weight for
// 'mean') times that class's weight. Ignored targets leave their row zero.

import { RuntimeError } from "../../../c10/Errors.js";
import { ScalarType } from "../../../c10/ScalarType.js";
import { typedView, toRaw, offsetOf } from "../../../c10/ElementAccess.js";
import type { Tensor } from "../../core/Tensor.js";
import { empty_impl, wrap } from "../../core/empty.js";
import { resize_output } from "../Resize.js";
import type { StructuredMode } from "../unary/UnaryIterator.js";
import { AT_DISPATCH, FLOATING_TYPES_AND_BFLOAT16 } from "../unary/Dispatch.js";
import { outOfBounds } from "./NLLKernel.js";
import { Reduction } from "./Reduction.js";
import { DispatchStub } from "../DispatchStub.js";

const list = (s: readonly number[]) => `[${s.join(", ")}]`;

/** Every element of t (row-major index i) set from vals. */
function writeAll(t: Tensor, vals: Float64Array): void {
  const view = typedView(t._impl.storage, t.dtype) as unknown as (number | bigint)[];
  for (let i = 0; i < vals.length; i++) view[offsetOf(t._impl, i)] = toRaw(t.dtype.scalarType, vals[i]);
}

/** (PyTorch's text has the two spaces.) */
function checkTotalWeight(total_weight: Tensor): void {
  if (total_weight.numel() !== 1) {
    throw new RuntimeError(`expected total_weight to be a  single element tensor, got: ${list(total_weight._impl.sizes())} (${total_weight.numel()} elements)`);
  }
}

/** The output: allocated (functional) or the grad_input out=, resized to self's sizes. */
function gradInputOf(self: Tensor, grad_input: Tensor | null): Tensor {
  if (grad_input === null) return wrap(empty_impl([...self._impl.sizes()], self.dtype, self.device));
  resize_output(grad_input, [...self._impl.sizes()]);
  return grad_input;
}

/** The scalar path's -(grad_output / total_weight) for 'mean', -grad_output otherwise, in the dtype's arithmetic. */
function scalarGrad(grad_output: Tensor, total_weight: Tensor, reduction: number, r: (x: number) => number): number {
  const g = grad_output._flatNumbers()[0], tw = total_weight._flatNumbers()[0];
  return -(reduction === Reduction.Mean ? r(g / tw) : g);
}

// ---- nll_loss_backward (structured; its meta checks, then the CPU frame) ----

export function nll_loss_backward_out_cpu(
  grad_output: Tensor, self: Tensor, target: Tensor, weight: Tensor | null, reduction: number, ignore_index: number,
  total_weight: Tensor, grad_input: Tensor | null, mode: StructuredMode = "out",
): Tensor {
  // TORCH_META_FUNC(nll_loss_backward)
  if (!(self.dim() > 0 && self.dim() <= 2)) throw new RuntimeError("input tensor should be 1D or 2D");
  if (!(target.dim() <= 1)) throw new RuntimeError("0D or 1D target tensor expected, multi-target not supported");
  const noBatchDim = self.dim() === 1 && target.dim() === 0;
  if (!(noBatchDim || self.size(0) === target.size(0))) {
    throw new RuntimeError(`size mismatch (got input: ${list(self._impl.sizes())}, target: ${list(target._impl.sizes())})`);
  }
  checkTotalWeight(total_weight);
  const nClasses = self.size(-1);
  if (weight !== null && !(weight.dim() === 1 && weight.numel() === nClasses)) {
    throw new RuntimeError(`weight tensor should be defined either for all ${nClasses} classes or no classes but got weight tensor of shape: ${list(weight._impl.sizes())}`);
  }
  const perSample = reduction === Reduction.None && self.dim() === 2;
  if (perSample) {
    const nframe = self.size(0);
    if (!(grad_output.dim() === 1 && grad_output.size(0) === nframe)) {
      throw new RuntimeError(`Expected a tensor of dimension 1 and tensor.size[0] == ${nframe} but got: dimension ${grad_output.dim()} and tensor.size[0] == ${grad_output.size(0)}`);
    }
  } else if (!(grad_output.dim() <= 1 && grad_output.numel() === 1)) {
    throw new RuntimeError(`Expected a single element grad_output tensor, but got: ${list(grad_output._impl.sizes())}`);
  }
  const out = gradInputOf(self, mode === "functional" ? null : grad_input);
  if (!self._impl.storage.hasData()) return out;

  // nll_loss_backward_out_frame
  const t = self.dtype.scalarType;
  AT_DISPATCH("nll_loss_backward_out_frame", t, FLOATING_TYPES_AND_BFLOAT16);
  nll_loss_backward_stub.call(self.device.type, out, self, target, weight, grad_output, total_weight, reduction, ignore_index, perSample);
  return out;
}

/**
 * nll_loss_backward_out_frame's loop: grad_input is zero but at each sample's target, which gets
 * -weight * grad_output[i] (reduction 'none' on a batch), or weight * -(grad_output [/ total_weight]).
 */
type NllBackwardFn = (
  gradInput: Tensor, self: Tensor, target: Tensor, weight: Tensor | null, grad_output: Tensor, total_weight: Tensor, reduction: number, ignore_index: number, perSample: boolean,
) => void;
export const nll_loss_backward_stub = new DispatchStub<NllBackwardFn>("nll_loss_backward_out_frame", "aten/src/ATen/native/LossNLL.cpp");
nll_loss_backward_stub.register("ts", (out, self, target, weight, grad_output, total_weight, reduction, ignore_index, perSample) => {
  const t = self.dtype.scalarType;
  const nClasses = self.size(-1);
  const r = t === ScalarType.Double ? (x: number) => x : Math.fround;
  const w = weight === null ? null : weight._flatNumbers();
  const tg = target._flatNumbers();
  const gi = new Float64Array(self.numel());
  const batch = self.dim() === 1 ? 1 : self.size(0);
  if (perSample) {
    const go = grad_output._flatNumbers();
    for (let i = 0; i < batch; i++) {
      const cur = tg[i];
      if (cur === ignore_index) continue;
      if (!(cur >= 0 && cur < nClasses)) throw outOfBounds(cur);
      gi[i * nClasses + cur] = r(-(w ? w[cur] : 1) * go[i]);
    }
  } else {
    const grad = scalarGrad(grad_output, total_weight, reduction, r);
    for (let i = 0; i < batch; i++) {
      const cur = tg[i];
      if (cur === ignore_index) continue;
      if (!(cur >= 0 && cur < nClasses)) throw outOfBounds(cur);
      gi[i * nClasses + cur] = w ? r(w[cur] * grad) : grad;
    }
  }
  writeAll(out, gi);
});

// ---- nll_loss2d_backward (CPU only, not structured) ----

export function nll_loss2d_backward_out_cpu(
  grad_output: Tensor, self: Tensor, target: Tensor, weight: Tensor | null, reduction: number, ignore_index: number,
  total_weight: Tensor, grad_input: Tensor,
): Tensor {
  // check_inputs_nll_loss2d
  if (target.dim() !== 3) throw new RuntimeError(`only batches of spatial targets supported (3D tensors) but got targets of dimension: ${target.dim()}`);
  if (self.dim() !== 4) throw new RuntimeError(`only batches of spatial inputs supported (4D tensors), but got input of dimension: ${self.dim()}`);
  if (weight !== null && weight.numel() !== self.size(1)) throw new RuntimeError("weight tensor should be defined either for all or no classes");
  const [N, C, H, W] = self._impl.sizes(), [t0, t1, t2] = target._impl.sizes();
  if (!(N === t0 && H === t1 && W === t2)) {
    throw new RuntimeError(`size mismatch (got input: ${list(self._impl.sizes())} , target: ${list(target._impl.sizes())}`);
  }
  checkTotalWeight(total_weight);
  const out = gradInputOf(self, grad_input);
  if (!self._impl.storage.hasData()) return out;
  const t = self.dtype.scalarType;
  AT_DISPATCH("nll_loss2d_backward_out_frame", t, FLOATING_TYPES_AND_BFLOAT16);
  const r = t === ScalarType.Double ? (x: number) => x : Math.fround;
  const w = weight === null ? null : weight._flatNumbers();
  const tg = target._flatNumbers();
  const gi = new Float64Array(self.numel());
  const map = H * W;
  const at = (i: number, cur: number) => Math.floor(i / map) * C * map + cur * map + (i % map);
  if (reduction === Reduction.None) {
    const got = grad_output._impl.sizes();
    if (!(grad_output.dim() === 3 && got[0] === N && got[1] === H && got[2] === W)) {
      throw new RuntimeError(`Expected grad_output of sizes ${list([N, H, W])} but got ${list(got)}`);
    }
    const go = grad_output._flatNumbers();
    for (let i = 0; i < N * map; i++) {
      const cur = tg[i];
      if (cur === ignore_index) continue;
      if (!(cur >= 0 && cur < C)) throw outOfBounds(cur);
      gi[at(i, cur)] = r(-(w ? w[cur] : 1) * go[i]);
    }
  } else {
    if (grad_output.numel() !== 1) throw new RuntimeError(`Expected a single element grad_output tensor, but got: ${list(grad_output._impl.sizes())}`);
    const grad = scalarGrad(grad_output, total_weight, reduction, r);
    for (let i = 0; i < N * map; i++) {
      const cur = tg[i];
      if (cur === ignore_index) continue;
      if (!(cur >= 0 && cur < C)) throw outOfBounds(cur);
      gi[at(i, cur)] = w ? r(w[cur] * grad) : grad;
    }
  }
  writeAll(out, gi);
  return out;
}

export function nll_loss2d_backward_cpu(
  grad_output: Tensor, self: Tensor, target: Tensor, weight: Tensor | null, reduction: number, ignore_index: number, total_weight: Tensor,
): Tensor {
  const grad_input = wrap(empty_impl([0], self.dtype, self.device));
  return nll_loss2d_backward_out_cpu(grad_output, self, target, weight, reduction, ignore_index, total_weight, grad_input);
}
