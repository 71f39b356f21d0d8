// A small JSON-RPC client for the engine host in tests: spawns extension/dist/host.js (built by
// `npm run build`) as a child process and speaks extension/host/protocol.ts to it, collecting the
// notifications it sends. (The extension has its own client; this one only serves the host's tests.)

import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { createMessageConnection, StreamMessageReader, StreamMessageWriter, type MessageConnection } from "vscode-jsonrpc/node";
import {
  HOST_PROTOCOL_VERSION,
  Initialize,
  Interrupt,
  Output,
  Progress,
  Run,
  TraceEvents,
  type HostSettings,
  type InitializeResult,
  type OutputNotification,
  type ProgressNotification,
  type RunResult,
  type TraceEventsNotification,
} from "../../extension/host/protocol.js";

export const HOST_BUNDLE = process.env.GLASSTORCH_HOST_BUNDLE ?? resolve(import.meta.dirname, "../../extension/dist/host.js");
export const NOTEBOOK_URI = "vscode-notebook-cell:/work/scratch.nb.ts#W";

export const defaultSettings: HostSettings = { cpuKernels: "auto", tracing: false, traceLimit: 100_000 };

export class HostClient {
  readonly outputs: OutputNotification[] = [];
  readonly progress: ProgressNotification[] = [];
  readonly traces: TraceEventsNotification[] = [];
  readonly stderr: string[] = [];
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  private nextRunId = 1;

  private constructor(
    readonly child: ChildProcess,
    readonly connection: MessageConnection,
  ) {
    this.exited = new Promise((r) => child.once("exit", (code, signal) => r({ code, signal })));
    connection.onNotification(Output, (n) => void this.outputs.push(n));
    connection.onNotification(Progress, (n) => void this.progress.push(n));
    connection.onNotification(TraceEvents, (n) => void this.traces.push(n));
    child.stderr!.on("data", (d: Buffer) => this.stderr.push(d.toString()));
    connection.onError(() => {});
    connection.listen();
  }

  static start(args: string[] = []): HostClient {
    if (!existsSync(HOST_BUNDLE)) throw new Error(`${HOST_BUNDLE} is missing: run npm run build`);
    const child = spawn(process.execPath, [HOST_BUNDLE, ...args], { stdio: ["pipe", "pipe", "pipe"] });
    const connection = createMessageConnection(new StreamMessageReader(child.stdout!), new StreamMessageWriter(child.stdin!));
    return new HostClient(child, connection);
  }

  initialize(settings: Partial<HostSettings> = {}, cwd = process.cwd()): Promise<InitializeResult> {
    return this.connection.sendRequest(Initialize, {
      protocolVersion: HOST_PROTOCOL_VERSION,
      settings: { ...defaultSettings, ...settings },
      cwd,
    });
  }

  /** Runs a cell; `cellIndex` also picks its URI (…#W<index>). */
  run(code: string, cellIndex = 0): Promise<RunResult> & { runId: number } {
    const runId = this.nextRunId++;
    const p = this.connection.sendRequest(Run, { runId, cellUri: cellUri(cellIndex), cellIndex, code }) as Promise<RunResult> & { runId: number };
    p.runId = runId;
    return p;
  }

  /** As the extension does: the notification and SIGINT (a synchronous loop cannot read messages). */
  interrupt(runId: number): void {
    void this.connection.sendNotification(Interrupt, { runId });
    this.child.kill("SIGINT");
  }

  /** Text the run printed on one stream. */
  text(runId: number, stream: "stdout" | "stderr" = "stdout"): string {
    return this.outputs
      .filter((o) => o.runId === runId && o.output.kind === "text" && o.output.stream === stream)
      .map((o) => (o.output as { text: string }).text)
      .join("");
  }

  async dispose(): Promise<void> {
    this.connection.dispose();
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill("SIGKILL");
    await this.exited;
  }
}

export function cellUri(index: number): string {
  return `${NOTEBOOK_URI}${index}`;
}

/** Waits until `cond` holds (polling), or fails after `ms`. */
export async function until(cond: () => boolean, ms = 5000, what = "condition"): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}
