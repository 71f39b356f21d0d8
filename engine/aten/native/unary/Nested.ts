// Calling another operator from inside a kernel (abs -> abs.out, clamp -> fill_).
//
// In PyTorch the autograd kernel that led here holds AutoDispatchBelowADInplaceOrView while the op
// runs (torch/csrc/autograd/generated/VariableType*.cpp), so the nested call skips autograd and
// ADInplaceOrView: it records no history and bumps no version counter a second time. The generated
// Autograd kernels here redispatch without that guard, so the composite kernels set it themselves.

import { withExcluded } from "../../../c10/impl/LocalDispatchKeySet.js";
import { autograd_dispatch_keyset_with_ADInplaceOrView } from "../../../c10/DispatchKeySet.js";

/** AutoDispatchBelowADInplaceOrView for the length of fn. */
export function below_ADInplaceOrView<T>(fn: () => T): T {
  return withExcluded(autograd_dispatch_keyset_with_ADInplaceOrView, fn);
}
