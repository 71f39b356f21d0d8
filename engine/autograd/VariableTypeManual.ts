// The Autograd kernels PyTorch writes by hand (torch/csrc/autograd/VariableTypeManual.cpp):
// detach gives the same data without history; detach_ cuts a tensor's own history, and refuses views.

import type { Tensor } from "../aten/core/Tensor.js";
import { RuntimeError } from "../c10/Errors.js";
import { registerKernel, below_autograd, after_autograd_keyset } from "../aten/core/OpRegistration.js";
import { detach_default } from "../generated/detach.js";
import { detach__default } from "../generated/detach.js";
import { get_autograd_meta, materialize_autograd_meta } from "./variable.js";

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
