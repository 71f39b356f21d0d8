// Anomaly mode (torch/csrc/autograd/anomaly_mode.h; torch/autograd/anomaly_mode.py): while on, every
// Node remembers the forward call site that made it (the user's file:line:col), backward checks each
// gradient for NaN, and an error in a Node's backward is reported with that call site.

import { AutoGradMode } from "../c10/GradMode.js";
import { captureCallSite } from "../trace/callsite.js";
import type { SourceLocation } from "../trace/events.js";
void AutoGradMode; // the guard classes share the Symbol.dispose polyfill loaded through c10

let enabled = false;

export const AnomalyMode = {
  is_enabled(): boolean {
    return enabled;
  },
  set_enabled(value: boolean): void {
    enabled = value;
  },
};

const ENABLED_WARNING = "Anomaly Detection has been enabled. This mode will increase the runtime and should only be enabled for debugging.";

/** The forward call site a Node keeps while anomaly mode is on. */
export function forwardCallSite(): SourceLocation | null {
  return enabled ? captureCallSite() : null;
}

/** The warning PyTorch prints before re-raising a backward error (python_anomaly_mode.cpp print_stack). */
export function warnErrorDetected(nodeName: string, site: SourceLocation | null): void {
  const where = site ? `\n  ${site.file}:${site.line}:${site.column}` : "\n  (no forward call site was recorded: the Node was made while anomaly mode was off)";
  process.emitWarning(`Error detected in ${nodeName}. Traceback of forward call that caused the error:${where}`, "UserWarning");
}

class AnomalyGuard {
  private readonly prev = enabled;
  constructor(value: boolean) {
    if (value) process.emitWarning(ENABLED_WARNING, "UserWarning");
    enabled = value;
  }
  [Symbol.dispose](): void {
    enabled = this.prev;
  }
}

/** torch.autograd.detect_anomaly(): around a function, or as a `using` guard. */
export function detect_anomaly(): AnomalyGuard;
export function detect_anomaly<T>(fn: () => T): T;
export function detect_anomaly<T>(fn?: () => T): T | AnomalyGuard {
  const guard = new AnomalyGuard(true);
  if (!fn) return guard;
  try {
    return fn();
  } finally {
    guard[Symbol.dispose]();
  }
}

/** torch.autograd.set_detect_anomaly(mode): sets it now (and, as a guard, restores it after). */
export function set_detect_anomaly(mode: boolean): AnomalyGuard {
  return new AnomalyGuard(mode);
}

export function is_anomaly_enabled(): boolean {
  return enabled;
}
