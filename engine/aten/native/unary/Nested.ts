// Calling another operator from inside a kernel (abs -> abs.out, clamp -> fill_).
//
// In PyTorch the autograd kernel that led here holds AutoDispatchBelowADInplaceOrView while the op
// runs (torch/csrc/autograd/generated/VariableType*.cpp), so the nested call skips autograd and
// ADInplaceOrView: it records no history and bumps no version counter a second time. The generated
// Autograd kernels here redispatch without that guard, so the composite kernels set it themselves.

import { AutoDispatchBelowADInplaceOrView } from "../../../c10/impl/LocalDispatchKeySet.js";

export function below_ADInplaceOrView<T>(fn: () => T): T {
  const guard = new AutoDispatchBelowADInplaceOrView();
  try {
    return fn();
  } finally {
    guard.dispose();
  }
}
