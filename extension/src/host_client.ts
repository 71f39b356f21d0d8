// The extension's handle on one engine host process: forks extension/dist/host.js, speaks the
// engine host protocol over its stdin/stdout, and owns its life — started on the first run,
// restarted on demand, and after a death reported with its reason and started again on the next
// run. No `vscode` here: the notebook controller turns what this reports into cell outputs.

import { fork, type ChildProcess } from "node:child_process";
import type { RequestType } from "vscode-jsonrpc";
import { createMessageConnection, StreamMessageReader, StreamMessageWriter, type MessageConnection } from "vscode-jsonrpc/node";
import {
  BackendChanged,
  HOST_PROTOCOL_VERSION,
  Initialize,
  Interrupt,
  Output,
  Progress,
  Run,
  TraceEvents,
  UpdateSettings,
  type BackendInfo,
  type HostSettings,
  type InitializeResult,
  type OutputNotification,
  type ProgressNotification,
  type RunParams,
  type RunResult,
  type TraceEventsNotification,
} from "../host/protocol.js";

/** A run that has not ended this long after an interrupt is stopped by killing the host. */
export const INTERRUPT_GRACE_MS = 1000;
const INITIALIZE_TIMEOUT_MS = 30_000;
const STDERR_KEPT = 16 * 1024;
const DEATH_REPORT_WAIT_MS = 2000;

export interface HostClientOptions {
  /** The host bundle (extension/dist/host.js). */
  hostScript: string;
  /** Where relative imports in cells resolve from: the notebook's folder. */
  cwd: string;
  /** The host's V8 heap limit (--max-old-space-size), from glasstorch.hostMemoryMB: a number, or a
   * function read each time a host starts (so a changed setting applies at the next start). */
  memoryMB: number | (() => number);
  settings: HostSettings;
  onOutput?(n: OutputNotification): void;
  onProgress?(n: ProgressNotification): void;
  onTraceEvents?(n: TraceEventsNotification): void;
  /** The host applied new settings; this is the backend now in effect. */
  onBackendChanged?(backend: BackendInfo): void;
  /** The host stopped without being asked to (crash, kill, OOM, or killed after an interrupt). */
  onDeath?(death: HostDeath): void;
  /** Everything the host writes to stderr, for the output channel. */
  onStderr?(text: string): void;
}

export interface HostDeath {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** What the user reads: "killed by SIGKILL", "ran out of memory (limit 4096 MB) ...". */
  reason: string;
  /** The host's last stderr output. */
  stderrTail: string;
}

/** A run's result, with what the client measured. */
export interface ClientRunResult extends RunResult {
  /** For a run that was interrupted: ms from the interrupt request (interrupt()) to the result. */
  interruptLatencyMs?: number;
}

/** A run that ended because the host died; the session's variables are gone with it. */
export class HostDiedError extends Error {
  constructor(readonly death: HostDeath) {
    super(`The engine host stopped: ${death.reason}`);
    this.name = "HostDiedError";
  }
}

interface Running {
  proc: ChildProcess;
  connection: MessageConnection;
  info: Promise<InitializeResult>;
  stderr: string;
  /** Why we are stopping it ourselves (restart, dispose, interrupt timeout); unset for a crash. */
  stopping?: "restart" | "dispose" | "interrupt-timeout";
  died: Promise<HostDeath>;
}

export class HostClient {
  private host?: Running;
  private nextRunId = 1;
  private activeRunId?: number;
  private interruptTimer?: NodeJS.Timeout;
  private interruptRequested?: { runId: number; at: number };
  private settings: HostSettings;
  private disposed = false;

  constructor(private readonly options: HostClientOptions) {
    this.settings = options.settings;
  }

  /** The running host's InitializeResult, starting the host if none runs. */
  start(): Promise<InitializeResult> {
    if (this.disposed) return Promise.reject(new Error("The Glasstorch session is closed."));
    this.host ??= this.spawn();
    return this.host.info;
  }

  get isRunning(): boolean {
    return this.host !== undefined;
  }

  get pid(): number | undefined {
    return this.host?.proc.pid;
  }

  /** Runs one cell; rejects with HostDiedError when the host dies during the run. */
  async run(params: Omit<RunParams, "runId">, onRunId?: (runId: number) => void): Promise<ClientRunResult> {
    await this.start();
    const host = this.host!;
    const runId = this.nextRunId++;
    onRunId?.(runId);
    this.activeRunId = runId;
    try {
      const result: ClientRunResult = await Promise.race([
        host.connection.sendRequest(Run, { ...params, runId }).catch((err) => rethrowAsDeath(host, err)),
        host.died.then((death) => Promise.reject(new HostDiedError(death))),
      ]);
      if (this.interruptRequested?.runId === runId) result.interruptLatencyMs = performance.now() - this.interruptRequested.at;
      return result;
    } finally {
      if (this.activeRunId === runId) this.activeRunId = undefined;
      clearTimeout(this.interruptTimer);
      this.interruptTimer = undefined;
    }
  }

  /** Any other request of the protocol (the views' questions), on the running host, started if need be. */
  async request<P, R>(type: RequestType<P, R, void>, params: P): Promise<R> {
    await this.start();
    const host = this.host!;
    // (params as never: the generic P cannot be matched to the library's conditional parameter type.)
    return host.connection.sendRequest<P, R, void>(type, params as never).catch((err) => rethrowAsDeath(host, err));
  }

  /**
   * Asks the running cell to stop: an Interrupt message for code that awaits, SIGINT for code in a
   * synchronous loop. A run still going after INTERRUPT_GRACE_MS is stopped by killing the host.
   */
  interrupt(): void {
    const host = this.host;
    const runId = this.activeRunId;
    if (!host || runId === undefined || this.interruptTimer) return;
    this.interruptRequested = { runId, at: performance.now() };
    void host.connection.sendNotification(Interrupt, { runId }).catch(() => undefined);
    host.proc.kill("SIGINT");
    this.interruptTimer = setTimeout(() => {
      this.interruptTimer = undefined;
      if (this.activeRunId === runId && this.host === host) this.stop(host, "interrupt-timeout");
    }, INTERRUPT_GRACE_MS);
  }

  updateSettings(settings: HostSettings): void {
    this.settings = settings;
    if (this.host) void this.host.connection.sendNotification(UpdateSettings, settings).catch(() => undefined);
  }

  /** Stops the host; the next run starts a fresh one. */
  restart(): void {
    if (this.host) this.stop(this.host, "restart");
  }

  dispose(): void {
    this.disposed = true;
    if (this.host) this.stop(this.host, "dispose");
  }

  private stop(host: Running, why: NonNullable<Running["stopping"]>): void {
    host.stopping = why;
    if (this.host === host) this.host = undefined;
    host.proc.kill("SIGKILL");
  }

  private spawn(): Running {
    const { hostScript, cwd } = this.options;
    const memoryMB = typeof this.options.memoryMB === "function" ? this.options.memoryMB() : this.options.memoryMB;
    const proc = fork(hostScript, [], {
      cwd,
      // The extension host's own flags (inspector ports and the like) are not the engine's.
      execArgv: [`--max-old-space-size=${memoryMB}`],
      // In desktop VS Code the extension host is Electron; this makes the child plain Node.
      env: { ...process.env, ELECTRON_RUN_AS_NODE: "1" },
      stdio: ["pipe", "pipe", "pipe", "ipc"],
    });
    const connection = createMessageConnection(new StreamMessageReader(proc.stdout!), new StreamMessageWriter(proc.stdin!));
    const host: Running = { proc, connection, stderr: "", info: undefined!, died: undefined! };

    proc.stderr!.setEncoding("utf8");
    proc.stderr!.on("data", (text: string) => {
      host.stderr = (host.stderr + text).slice(-STDERR_KEPT);
      this.options.onStderr?.(text);
    });
    // A host that dies mid-write leaves a broken pipe; its exit is what we report.
    proc.stdin!.on("error", () => undefined);

    host.died = new Promise<HostDeath>((resolve) => {
      const onGone = (code: number | null, signal: NodeJS.Signals | null) => {
        connection.dispose();
        if (this.host === host) this.host = undefined;
        const death = describeDeath(code, signal, host, memoryMB);
        resolve(death);
        if (host.stopping !== "restart" && host.stopping !== "dispose") this.options.onDeath?.(death);
      };
      // 'exit' can come before stderr is drained; 'close' comes after, with the same code/signal.
      proc.once("close", onGone);
      proc.once("error", (err) => {
        host.stderr += `\n${err.message}`;
        if (proc.exitCode === null && proc.signalCode === null && proc.pid === undefined) onGone(null, null);
      });
    });

    connection.onNotification(Output, (n) => this.options.onOutput?.(n));
    connection.onNotification(Progress, (n) => this.options.onProgress?.(n));
    connection.onNotification(TraceEvents, (n) => this.options.onTraceEvents?.(n));
    connection.onNotification(BackendChanged, (b) => this.options.onBackendChanged?.(b));
    connection.onError(() => undefined);
    connection.listen();

    host.info = new Promise<InitializeResult>((resolve, reject) => {
      const timer = setTimeout(() => {
        reject(new Error(`The engine host did not answer Initialize within ${INITIALIZE_TIMEOUT_MS / 1000} s.`));
        this.stop(host, "restart");
      }, INITIALIZE_TIMEOUT_MS);
      host.died.then((death) => reject(new HostDiedError(death)));
      connection
        .sendRequest(Initialize, { protocolVersion: HOST_PROTOCOL_VERSION, settings: this.settings, cwd })
        .then((result) => {
          if (result.protocolVersion !== HOST_PROTOCOL_VERSION) {
            throw new Error(`The engine host speaks protocol ${result.protocolVersion}, the extension ${HOST_PROTOCOL_VERSION}.`);
          }
          resolve(result);
        })
        .catch((err) => rethrowAsDeath(host, err))
        .catch(reject)
        .finally(() => clearTimeout(timer));
    });
    // Nobody may be waiting on info when the host dies early; the death is reported anyway.
    host.info.catch(() => undefined);
    return host;
  }
}

/**
 * A request fails when the connection closes, which is usually a moment before the process's
 * 'close' event says why it died: give that reason rather than "connection disposed".
 */
async function rethrowAsDeath(host: Running, err: unknown): Promise<never> {
  const death = await Promise.race([host.died, new Promise<undefined>((r) => setTimeout(r, DEATH_REPORT_WAIT_MS, undefined))]);
  throw death ? new HostDiedError(death) : err;
}

function describeDeath(code: number | null, signal: NodeJS.Signals | null, host: Running, memoryMB: number): HostDeath {
  const stderrTail = host.stderr.trim().split("\n").slice(-12).join("\n");
  let reason: string;
  if (host.stopping === "interrupt-timeout") {
    reason = `the cell did not stop within ${INTERRUPT_GRACE_MS / 1000} s of the interrupt, so the host was killed; the session's state (variables, tensors) was lost`;
  } else if (host.stopping === "restart" || host.stopping === "dispose") {
    reason = "it was restarted; the session's state (variables, tensors) was lost";
  } else if (/heap out of memory|Reached heap limit|Allocation failed/i.test(host.stderr)) {
    reason = `it ran out of memory (heap limit ${memoryMB} MB, setting glasstorch.hostMemoryMB)`;
  } else if (signal) {
    reason = signal === "SIGKILL" ? "it was killed (SIGKILL, from outside or by the system's out-of-memory killer)" : `it was killed by ${signal}`;
  } else {
    reason = `it exited with code ${code}`;
  }
  return { code, signal, reason, stderrTail };
}
