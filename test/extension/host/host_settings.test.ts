// glasstorch.cpuKernels reaches the engine host: UpdateSettings switches the DispatchStubs' kernels,
// and the host answers with the backend now in effect (BackendChanged), which the status bar shows.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as torch from "../../../engine/index.js";
import { BackendChanged, UpdateSettings, type BackendInfo } from "../../../extension/host/protocol.js";
import type { KernelEvent } from "../../../engine/trace/events.js";
import { defaultSettings, HostClient, until } from "../../support/host_client.js";

let host: HostClient;
const changes: BackendInfo[] = [];
const native = torch._C._native_status();

beforeAll(async () => {
  host = HostClient.start();
  host.connection.onNotification(BackendChanged, (b) => void changes.push(b));
  await host.initialize({ tracing: true });
}, 30_000);
afterAll(() => host?.dispose());

/** The DispatchStub choices of one traced add. */
async function stubChoices(cell: number): Promise<KernelEvent[]> {
  const r = await host.run('import * as torch from "glasstorch";\ntorch.ones(64).add(torch.ones(64))', cell);
  expect(r.status).toBe("ok");
  await until(() => host.traces.filter((t) => t.runId === r.runId).reduce((n, t) => n + t.events.length, 0) >= r.traceEvents, 5000, "trace events");
  return host.traces.filter((t) => t.runId === r.runId).flatMap((t) => t.events).filter((e): e is KernelEvent => e.type === "kernel");
}

async function update(cpuKernels: "auto" | "typescript" | "native"): Promise<BackendInfo> {
  const before = changes.length;
  void host.connection.sendNotification(UpdateSettings, { ...defaultSettings, tracing: true, cpuKernels });
  await until(() => changes.length > before, 5000, "BackendChanged");
  return changes[changes.length - 1];
}

describe("engine host: the CPU kernel setting", () => {
  it("typescript: the host reports it and the stubs run the TypeScript kernels", async () => {
    expect(await update("typescript")).toEqual({ cpuKernels: "typescript", devices: ["cpu", "meta"] });
    const kernels = await stubChoices(0);
    expect(kernels.length).toBeGreaterThan(0);
    expect(kernels.every((k) => k.impl === "ts" && k.forced)).toBe(true);
  });

  it("native: the addon's kernels where it loaded, else TypeScript with the reason", async () => {
    const b = await update("native");
    if (native.loaded) {
      expect(b).toEqual({ cpuKernels: "native", capability: native.addon!.capability, devices: ["cpu", "meta"] });
      expect((await stubChoices(1)).some((k) => k.impl === "native")).toBe(true);
    } else {
      expect(b).toEqual({ cpuKernels: "typescript", nativeUnavailableReason: native.reason, devices: ["cpu", "meta"] });
      expect((await stubChoices(1)).every((k) => k.impl === "ts")).toBe(true);
    }
  });

  it("auto: back to the stubs' own choice, not forced", async () => {
    const b = await update("auto");
    expect(b.cpuKernels).toBe(native.loaded ? "native" : "typescript");
    expect((await stubChoices(2)).every((k) => !k.forced)).toBe(true);
  });
});
