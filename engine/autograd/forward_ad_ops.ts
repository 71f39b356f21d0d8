// The hand-written Autograd and ADInplaceOrView kernels of _fw_primal and _make_dual
// (torch/csrc/autograd/VariableTypeManual.cpp), and the ops forward_grad.ts needs to keep tangents laid
// out like their primals. Both ops return a view of their input that is backward-differentiable but not
// forward-differentiable: the view does not read its base's tangent.

import type { Tensor } from "../aten/core/Tensor.js";
import { RuntimeError } from "../c10/Errors.js";
import { GradMode } from "../c10/GradMode.js";
import { InferenceMode } from "../c10/InferenceMode.js";
import { registerKernel, below_autograd, after_autograd_keyset, after_ADInplaceOrView_keyset } from "../aten/core/OpRegistration.js";
import { _fw_primal_default } from "../generated/_fw_primal.js";
import { _make_dual_default } from "../generated/_make_dual.js";
import { _new_zeros_with_same_feature_meta_default } from "../generated/_new_zeros_with_same_feature_meta.js";
import { as_strided_default } from "../generated/as_strided.js";
import { copy__default } from "../generated/copy.js";
import { ViewBackward0 } from "../generated/Functions.js";
import { Identity } from "./functions/basic_ops.js";
import { as_view, type CreationMeta } from "./variable.js";
import { collect_next_edges, compute_requires_grad, set_history } from "./VariableTypeUtils.js";
import { note_node_created } from "./trace_events.js";
import { fw_grad, isFwGradDefined, set_fw_grad, setFwOps } from "./forward_grad.js";

const here = "engine/autograd/forward_ad_ops.ts";

setFwOps({
  as_strided: (t, sizes, strides, offset) => as_strided_default.call(t, [...sizes], [...strides], offset) as Tensor,
  copy_: (dst, src) => copy__default.call(dst, src, false) as Tensor,
  new_zeros_with_same_feature_meta: (self, other) => _new_zeros_with_same_feature_meta_default.call(self, other, 0) as Tensor,
});

function creationMeta(): CreationMeta {
  return InferenceMode.is_enabled() ? "INFERENCE_MODE" : GradMode.is_enabled() ? "DEFAULT" : "NO_GRAD_MODE";
}

// ---- _fw_primal ----
registerKernel(_fw_primal_default, "Autograd", (ks, self: Tensor, level: number) => {
  let grad_fn: Identity | null = null;
  if (compute_requires_grad(self)) grad_fn = new Identity(collect_next_edges(self));
  const result = below_autograd(() => _fw_primal_default.redispatch(ks.and(after_autograd_keyset), self, level)) as Tensor;
  if (grad_fn) {
    set_history(result, grad_fn);
    note_node_created(grad_fn);
  }
  if (isFwGradDefined(self) && level !== 0) throw new RuntimeError("Invalid level given to _fw_primal");
  return result;
}, "VariableType::_fw_primal", here);

registerKernel(_fw_primal_default, "ADInplaceOrView", (ks, self: Tensor, level: number) => {
  const tmp = _fw_primal_default.redispatch(ks.and(after_ADInplaceOrView_keyset), self, level) as Tensor;
  return as_view(self, tmp, creationMeta(), false);
}, "ADInplaceOrView::_fw_primal", here);

// ---- _make_dual ----
registerKernel(_make_dual_default, "Autograd", (ks, primal: Tensor, tangent: Tensor, level: number) => {
  if (fw_grad(primal, level) !== null) {
    throw new RuntimeError(`Making a dual Tensor based on a Tensor that already has a forward gradient at the same level ${level} is not supported.`);
  }
  let grad_fn: ViewBackward0 | null = null;
  if (compute_requires_grad(primal)) {
    grad_fn = new ViewBackward0();
    grad_fn.self_sym_sizes = [...primal._impl.sizes()];
    grad_fn.set_next_edges(collect_next_edges(primal));
  }
  const result = below_autograd(() => _make_dual_default.redispatch(ks.and(after_autograd_keyset), primal, tangent, level)) as Tensor;
  if (grad_fn) {
    set_history(result, grad_fn);
    note_node_created(grad_fn);
  }
  if (level !== 0) throw new RuntimeError("Invalid level given to _make_dual");
  set_fw_grad(result, tangent, level, false);
  return result;
}, "VariableType::_make_dual", here);

registerKernel(_make_dual_default, "ADInplaceOrView", (ks, primal: Tensor, tangent: Tensor, level: number) => {
  const tmp = _make_dual_default.redispatch(ks.and(after_ADInplaceOrView_keyset), primal, tangent, level) as Tensor;
  return as_view(primal, tmp, creationMeta(), false);
}, "ADInplaceOrView::_make_dual", here);

/**
 * copy_'s forward AD (VariableTypeManual.cpp copy_): self's tangent becomes src's (broadcast to self's
 * size), updated in place when self already has one; zeros when only self has one.
 */
export function copy__fw_grad(self: Tensor, src: Tensor): void {
  if (!isFwGradDefined(self) && !isFwGradDefined(src)) return;
  const self_fw_grad = fw_grad(self, 0);
  const src_fw_grad = fw_grad(src, 0);
  let new_fw_grad: Tensor;
  if (self_fw_grad !== null) {
    new_fw_grad = src_fw_grad !== null ? (copy__default.call(self_fw_grad, src_fw_grad, false) as Tensor) : self_fw_grad.fill_(0);
  } else {
    const same = self._impl.sizes().length === src_fw_grad!._impl.sizes().length && self._impl.sizes().every((s, i) => s === src_fw_grad!._impl.sizes()[i]);
    new_fw_grad = same ? src_fw_grad!.clone() : src_fw_grad!.expand([...self._impl.sizes()]);
  }
  set_fw_grad(self, new_fw_grad, 0, true);
}
