// InferenceMode (c10/core/InferenceMode.h): grad mode off, the Autograd keys excluded from every call and
// ADInplaceOrView no longer forced in, so ops skip autograd entirely. Tensors made inside are inference
// tensors: no Autograd or ADInplaceOrView keys and no version counter. Normal tensors keep working inside
// (their own key sets still hold ADInplaceOrView, so they are still versioned and viewed).

import { DispatchKey } from "./DispatchKey.js";
import { autograd_dispatch_keyset } from "./DispatchKeySet.js";
import { GradMode } from "./GradMode.js";
import { LocalDispatchKeySet, tls_local_dispatch_key_set, _force_tls_local_dispatch_key_set } from "./impl/LocalDispatchKeySet.js";

let enabled = false;

export const InferenceMode = {
  is_enabled(): boolean {
    return enabled;
  },
};

/** The guard: sets inference mode (and grad mode, and the TLS key sets) for a scope, restoring all three on dispose. */
export class InferenceModeGuard {
  private readonly prevEnabled = enabled;
  private readonly prevGrad = GradMode.is_enabled();
  private readonly prevKeys = tls_local_dispatch_key_set();

  constructor(mode = true) {
    enabled = mode;
    GradMode.set_enabled(!mode);
    const k = this.prevKeys;
    const included = mode ? k.included_.remove(DispatchKey.ADInplaceOrView) : k.included_.add(DispatchKey.ADInplaceOrView);
    const excluded = mode ? k.excluded_.or(autograd_dispatch_keyset) : k.excluded_.minus(autograd_dispatch_keyset);
    _force_tls_local_dispatch_key_set(new LocalDispatchKeySet(included, excluded));
  }

  [Symbol.dispose](): void {
    enabled = this.prevEnabled;
    GradMode.set_enabled(this.prevGrad);
    _force_tls_local_dispatch_key_set(this.prevKeys);
  }
}
