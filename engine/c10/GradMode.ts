// GradMode (c10/core/GradMode.h): the thread-local switch autograd consults before recording
// history. Off, an op's Autograd kernel still runs but attaches no grad_fn (compute_requires_grad is
// false). JavaScript has one thread, so the "thread-local" is module state.

import "./impl/LocalDispatchKeySet.js"; // polyfills Symbol.dispose before the guard class below is defined

let enabled = true;

export const GradMode = {
  is_enabled(): boolean {
    return enabled;
  },
  set_enabled(value: boolean): void {
    enabled = value;
  },
};

/** AutoGradMode: set grad mode for a scope and restore the previous value on dispose. */
export class AutoGradMode {
  private readonly prev = enabled;
  constructor(value: boolean) {
    enabled = value;
  }
  [Symbol.dispose](): void {
    enabled = this.prev;
  }
}
