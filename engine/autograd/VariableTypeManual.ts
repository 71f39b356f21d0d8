// The Autograd kernels PyTorch writes by hand (torch/csrc/autograd/VariableTypeManual.cpp):
// detach gives the same data without history; detach_ cuts a tensor's own history, and refuses views;
// copy_ records CopyBackwards over both self and src (a copy into a view becomes CopySlices on its base).

import type { Tensor } from "../aten/core/Tensor.js";
import { RuntimeError } from "../c10/Errors.js";
import { registerKernel, below_autograd, after_autograd_keyset } from "../aten/core/OpRegistration.js";
import { detach_default } from "../generated/detach.js";
import { detach__default } from "../generated/detach.js";
import { copy__fw_grad } from "./forward_ad_ops.js";
import { copy__default } from "../generated/copy.js";
import { get_autograd_meta, materialize_autograd_meta } from "./variable.js";
import { compute_requires_grad, collect_next_edges, check_inplace, rebase_history, isDifferentiableType } from "./VariableTypeUtils.js";
import { note_node_created } from "./trace_events.js";
import { CopyBackwards } from "./functions/tensor.js";

const here = "engine/autograd/VariableTypeManual.ts";

registerKernel(detach_default, "Autograd", (ks, self: Tensor) => {
  // the result shares self's data and version counter but is no part of the graph
  return below_autograd(() => detach_default.redispatch(ks.and(after_autograd_keyset), self));
}, "VariableType::detach", here);

registerKernel(detach__default, "Autograd", (ks, self: Tensor) => {
  if (get_autograd_meta(self)?.is_view_) {
    throw new RuntimeError(
      "Can't detach views in-place. Use detach() instead. If you are using DistributedDataParallel (DDP) for training, and gradient_as_bucket_view is set as True, " +
        "gradients are views of DDP buckets, and hence detach_() cannot be called on these gradients. To fix this error, please refer to the Optimizer.zero_grad() function in torch/optim/optimizer.py as the solution.",
    );
  }
  const meta = materialize_autograd_meta(self);
  meta.set_requires_grad(false);
  meta.grad_fn_ = null;
  meta.output_nr_ = 0;
  return below_autograd(() => detach__default.redispatch(ks.and(after_autograd_keyset), self));
}, "VariableType::detach_", here);

// copy_ (VariableTypeManual.cpp): self's history is replaced by CopyBackwards, whose edges go to self's
// old history (gradient zero: its values were overwritten) and to src. self requiring grad is enough to
// record it (a constant copied into part of a tensor that requires grad), but only a floating self can.
registerKernel(copy__default, "Autograd", (ks, self: Tensor, src: Tensor, non_blocking: boolean) => {
  const requires_grad = compute_requires_grad(self, src) && isDifferentiableType(self.dtype.scalarType);
  check_inplace(self, requires_grad);
  let grad_fn: CopyBackwards | null = null;
  if (requires_grad) {
    grad_fn = new CopyBackwards();
    grad_fn.set_next_edges(collect_next_edges(self, src));
    grad_fn.src_options = { dtype: src.dtype, device: src.device, layout: src.layout };
  }
  below_autograd(() => copy__default.redispatch(ks.and(after_autograd_keyset), self, src, non_blocking));
  if (grad_fn) {
    rebase_history(self, grad_fn);
    note_node_created(grad_fn);
  }
  copy__fw_grad(self, src); // forward AD: self's tangent becomes src's (VariableTypeManual.cpp does the same)
  return self;
}, "VariableType::copy_", here);
