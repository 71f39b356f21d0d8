// The glasstorch.* settings, read in one place.

import * as vscode from "vscode";
import type { CpuKernelPath, HostSettings } from "../host/protocol.js";

export const SECTION = "glasstorch";

export function hostSettings(): HostSettings {
  const config = vscode.workspace.getConfiguration(SECTION);
  return {
    cpuKernels: config.get<CpuKernelPath>("cpuKernels", "auto"),
    tracing: config.get<boolean>("tracing", true),
    traceLimit: config.get<number>("traceLimit", 100_000),
  };
}

/** The host's heap limit; takes effect when the host next starts. */
export function hostMemoryMB(): number {
  return Math.max(256, Math.floor(vscode.workspace.getConfiguration(SECTION).get<number>("hostMemoryMB", 4096)));
}
