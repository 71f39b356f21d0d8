// The engine host: a plain Node process that runs notebook cells on the engine and answers the
// views' questions, speaking the protocol in ./protocol.ts over JSON-RPC on stdin/stdout. Bundled
// (with the engine, from source) into extension/dist/host.js by extension/build.mjs.
//
//   node extension/dist/host.js [--engine-root=<dir>]
//
// What the user's code can do to this process, and what happens:
// - throw (also later, from a timer or a rejected promise nobody awaits): reported, the host lives on;
// - loop forever: interrupt (SIGINT + the Interrupt notification) stops it within a second (interrupt.ts);
// - exhaust memory: an allocation failure the engine sees is a RangeError, reported as the run's error;
//   if V8 itself runs out of heap (--max-old-space-size, set by the extension) the process dies;
// - call process.exit() / process.abort(): the process ends, as a Jupyter kernel dies when its code
//   calls os._exit(); the extension sees the child exit with its code/signal, reports it, and starts
//   a fresh host on the next run (the notebook's text is never the host's to lose).

import { realpathSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { createMessageConnection, StreamMessageReader, StreamMessageWriter, ResponseError, ErrorCodes } from "vscode-jsonrpc/node";
import * as torch from "../../engine/index.js";
import type { Tensor } from "../../engine/aten/core/Tensor.js";
import { GradMode } from "../../engine/c10/GradMode.js";
import { raw_local_dispatch_key_set } from "../../engine/c10/impl/LocalDispatchKeySet.js";
import { set_cpu_capability } from "../../engine/aten/native/DispatchStub.js";
import { _native_status } from "../../engine/aten/native/cpu_native/NativeBackend.js";
import { startRecording, subscribe } from "../../engine/trace/session.js";
import { TRACE_SCHEMA_VERSION, type TraceHeader } from "../../engine/trace/events.js";
import { setProgressSink } from "../../engine/utils/progress.js";
import pkg from "../../package.json" with { type: "json" };
import {
  BackendChanged,
  DispatchTable,
  GeneratedCode,
  GraphGet,
  HOST_PROTOCOL_VERSION,
  Initialize,
  Interrupt,
  OpList,
  Output,
  Progress,
  Run,
  TensorInspect,
  TraceEvents,
  UpdateSettings,
  type BackendInfo,
  type HostSettings,
  type RunError,
  type RunParams,
  type RunResult,
  type RunStatus,
  type CellOutput,
} from "./protocol.js";
import { captureOutput } from "./output.js";
import { readStdinInWorker } from "./stdin_reader.js";
import { HandleRegistry } from "./handles.js";
import { Interrupter, RunContext, currentRunContext, isScriptInterrupted, runStorage } from "./interrupt.js";
import { CellSyntaxError, NotebookSession } from "./session.js";
import { cellLocationOf, installStackMapping, isCellScript, userStack, warmUpStackMapping } from "./stacks.js";
import { TraceStream } from "./trace_stream.js";
import { toCellOutput } from "./values.js";
import { EngineSources, findEngineRoot } from "./engine_root.js";
import { DerivativeFormulas } from "./views/derivative_formulas.js";
import { buildGraph } from "./views/graph.js";
import { dispatchTable, opList } from "./views/dispatch_table.js";
import { GeneratedCode as GeneratedCodeView } from "./views/generated_code.js";
import { inspectTensor } from "./views/tensor_inspect.js";
import { NodeSites } from "./node_sites.js";

/** After an interrupt, how long a run's async code gets to reach its next op before the run is reported interrupted anyway. */
const ABANDON_MS = 400;

const bundleFile = realpathSync(fileURLToPath(import.meta.url));
installStackMapping(bundleFile);
// Engine stacks are deep (binding, Autograd kernel, redispatches, kernel): keep enough frames to reach the cell.
Error.stackTraceLimit = 100;

let settings: HostSettings = { cpuKernels: "auto", tracing: false, traceLimit: 100_000 };
let lastRunId = 0;

// stdout is JSON-RPC's: user output is captured before anything can print.
const output = captureOutput((stream, text) => {
  void connection.sendNotification(Output, { runId: runIdNow(), output: { kind: "text", stream, text } });
});
// stdin is read by a worker thread, which also flags Interrupt notifications (stdin_reader.ts).
const stdin = readStdinInWorker(Interrupt.method, (message) => output.hostLog(`glasstorch host: stdin: ${message}\n`));
const interrupter = new Interrupter(stdin.flag);
const runIdNow = () => currentRunContext()?.runId ?? interrupter.current?.runId ?? lastRunId;
const connection = createMessageConnection(new StreamMessageReader(stdin.stream), new StreamMessageWriter(output.rpcStdout));

const session = new NotebookSession(torch, process.cwd());
const tensors = new HandleRegistry<Tensor>();
// display(value): shows a value as an output now, as Jupyter's display() (a tensor with its rich view).
session.define("display", (...values: unknown[]) => {
  for (const v of values) void connection.sendNotification(Output, { runId: runIdNow(), output: toCellOutput(v, tensors) });
});
const sources = new EngineSources(findEngineRoot(process.argv, process.env, bundleFile));
const formulas = new DerivativeFormulas(sources);
const generated = new GeneratedCodeView(sources, formulas);
const nodeSites = new NodeSites();

setProgressSink((u) => void connection.sendNotification(Progress, { runId: runIdNow(), ...u }));

// ---- settings ----

/** Applies glasstorch.cpuKernels to the DispatchStubs and says what is in effect, and why. */
function applyCpuKernels(asked: HostSettings["cpuKernels"]): BackendInfo {
  const status = _native_status();
  const devices = ["cpu", "meta"];
  if (asked === "typescript") {
    set_cpu_capability("ts");
    return { cpuKernels: "typescript", devices };
  }
  if (!status.loaded) {
    // "native" cannot be honoured without the addon: the TypeScript kernels run, and the status bar says why.
    set_cpu_capability(null);
    return { cpuKernels: "typescript", nativeUnavailableReason: status.reason ?? "the native CPU addon did not load", devices };
  }
  set_cpu_capability(asked === "native" ? "native" : null);
  return { cpuKernels: "native", ...(status.addon ? { capability: status.addon.capability } : {}), devices };
}

let backend: BackendInfo = { cpuKernels: "typescript", devices: ["cpu", "meta"] };

function applySettings(s: HostSettings): void {
  settings = { ...s, traceLimit: Math.max(0, Math.floor(s.traceLimit)) };
  backend = applyCpuKernels(settings.cpuKernels);
}

connection.onRequest(Initialize, (p) => {
  applySettings(p.settings);
  if (p.cwd) {
    session.setCwd(p.cwd);
    try {
      process.chdir(p.cwd); // relative paths in cells mean the notebook's folder, as in Jupyter
    } catch {
      output.hostLog(`glasstorch host: cannot chdir to ${p.cwd}\n`);
    }
  }
  const traceHeader: TraceHeader = {
    type: "header",
    schemaVersion: TRACE_SCHEMA_VERSION,
    engine: "glasstorch",
    timeOrigin: performance.timeOrigin,
    createdAt: new Date().toISOString(),
    capacity: settings.traceLimit,
    dropped: 0,
  };
  setTimeout(warmUpStackMapping, 0); // after the reply: a moment of idle time the first cell would otherwise pay
  return {
    protocolVersion: HOST_PROTOCOL_VERSION,
    engineVersion: pkg.version,
    pid: process.pid,
    backend,
    traceHeader,
    ...(sources.root ? { engineRoot: sources.root } : {}),
  };
});

connection.onNotification(UpdateSettings, (s) => {
  applySettings(s);
  void connection.sendNotification(BackendChanged, backend);
});

// ---- running cells (one at a time, in the order they were asked for) ----

let queue: Promise<unknown> = Promise.resolve();
connection.onRequest(Run, (p) => {
  const result = queue.then(() => runCell(p));
  queue = result.catch(() => undefined);
  return result;
});

connection.onNotification(Interrupt, ({ runId }) => interrupter.interrupt(runId));
process.on("SIGINT", () => interrupter.interrupt());

/** Engine state a terminated script may leave half-set (V8 termination skips `finally` blocks). */
function snapshotEngineState(): () => void {
  const included = raw_local_dispatch_key_set.included_;
  const excluded = raw_local_dispatch_key_set.excluded_;
  const grad = GradMode.is_enabled();
  return () => {
    raw_local_dispatch_key_set.included_ = included;
    raw_local_dispatch_key_set.excluded_ = excluded;
    GradMode.set_enabled(grad);
  };
}

type Outcome = { kind: "value"; value: unknown } | { kind: "error"; error: unknown } | { kind: "abandoned" };

async function runCell(p: RunParams): Promise<RunResult> {
  const t0 = performance.now();
  const ctx = new RunContext(p.runId);
  interrupter.starting(ctx);
  lastRunId = p.runId;
  output.resetLimit();
  const restoreEngine = snapshotEngineState();

  let trace: TraceStream | null = null;
  let stopTrace = () => {};
  if (settings.tracing && settings.traceLimit > 0) {
    const stream = new TraceStream(p.runId, settings.traceLimit, (n) => void connection.sendNotification(TraceEvents, n));
    const rec = startRecording({ capacity: settings.traceLimit, clear: true, skipFrame: (f) => f === bundleFile });
    nodeSites.startRun();
    const unsubscribeStream = subscribe(stream.push);
    const unsubscribeSites = subscribe(nodeSites.observe);
    const unsubscribe = () => {
      unsubscribeStream();
      unsubscribeSites();
    };
    trace = stream;
    stopTrace = () => {
      unsubscribe();
      rec.stop();
    };
  }

  let outcome: Outcome;
  try {
    const cell = session.compile(p.code, p.cellUri);
    interrupter.poll();
    // Interrupted before it started, or while it compiled (a signal outside the script only marks
    // the run): none of its code runs — a synchronous loop started now could not be stopped.
    if (ctx.interrupted) {
      interrupter.settled(ctx);
      throw Object.assign(new Error(""), { name: "KeyboardInterrupt" });
    }
    const running = runStorage.run(ctx, () => session.start(cell));
    const settled: Promise<Outcome> = running.then(
      (value) => ({ kind: "value", value }),
      (error) => ({ kind: "error", error }),
    );
    void settled.then(() => interrupter.settled(ctx));
    const abandoned = ctx.whenInterrupted().then(() => new Promise<Outcome>((r) => setTimeout(() => r({ kind: "abandoned" }), ABANDON_MS)));
    outcome = await Promise.race([settled, abandoned]);
  } catch (error) {
    // Synchronous: a syntax error, or SIGINT stopped the script (breakOnSigint) — at once: V8 stops
    // it when the signal arrives, before our SIGINT handler runs, so "now" is when the interrupt came.
    if (isScriptInterrupted(error)) {
      ctx.markInterrupted();
      restoreEngine();
    }
    outcome = { kind: "error", error };
  }
  stopTrace();
  trace?.finish();
  if (interrupter.current === ctx) interrupter.current = null;

  let status: RunStatus = "ok";
  let value: CellOutput | undefined;
  let error: RunError | undefined;
  if (outcome.kind === "value") {
    if (outcome.value !== undefined) {
      try {
        value = toCellOutput(outcome.value, tensors);
      } catch (e) {
        status = "error";
        error = toRunError(e);
      }
    }
  } else if (outcome.kind === "abandoned" || isInterrupt(outcome.error)) {
    status = "interrupted";
    error = { name: "KeyboardInterrupt", message: "" };
    if (outcome.kind === "error" && !isScriptInterrupted(outcome.error)) {
      const located = toRunError(outcome.error);
      if (located.location) error.location = located.location;
      if (located.stack) error.stack = located.stack;
    }
  } else {
    status = "error";
    error = toRunError(outcome.error);
  }
  if (error?.location && !error.location.cellUri) error.location.cellUri = p.cellUri;
  output.flush();
  return {
    runId: p.runId,
    status,
    ...(value ? { value } : {}),
    ...(error ? { error } : {}),
    durationMs: performance.now() - t0,
    traceEvents: trace?.recorded ?? 0,
    ...(ctx.interruptedAt !== undefined ? { interruptMs: performance.now() - ctx.interruptedAt } : {}),
  };
}

function isInterrupt(err: unknown): boolean {
  return isScriptInterrupted(err) || (err as { name?: unknown } | null)?.name === "KeyboardInterrupt";
}

function toRunError(err: unknown): RunError {
  if (err instanceof CellSyntaxError) {
    const d = err.diagnostics[0];
    return { name: "SyntaxError", message: err.diagnostics.map((x) => x.message).join("\n"), location: { cellUri: "", line: d.line, column: d.column } };
  }
  if (err === null || typeof err !== "object") return { name: "Error", message: `Uncaught ${String(err)}` };
  const e = err as { name?: unknown; message?: unknown; op?: unknown; stack?: unknown };
  const out: RunError = { name: typeof e.name === "string" ? e.name : "Error", message: typeof e.message === "string" ? e.message : String(err) };
  if (typeof e.op === "string") out.op = e.op;
  const loc = cellLocationOf(err);
  if (loc) out.location = loc;
  if (typeof e.stack === "string") out.stack = userStack(e.stack, (f) => f === loc?.cellUri || f.startsWith("vscode-notebook-cell:") || isCellScript(f));
  return out;
}

// ---- what user code leaves behind: errors from timers and unawaited promises ----

function reportUncaught(kind: string, err: unknown): void {
  const e = toRunError(err);
  const text = `${kind}: ${e.stack ?? `${e.name}: ${e.message}`}\n`;
  void connection.sendNotification(Output, { runId: runIdNow(), output: { kind: "text", stream: "stderr", text } });
}
process.on("uncaughtException", (err) => reportUncaught("Uncaught exception", err));
process.on("unhandledRejection", (reason) => reportUncaught("Unhandled promise rejection", reason));

// ---- the views ----

function tensorOf(handle: number): Tensor {
  const t = tensors.get(handle);
  if (!t) throw new ResponseError(ErrorCodes.InvalidParams, `no tensor with handle ${handle} (it was collected or never shown)`);
  return t;
}

connection.onRequest(TensorInspect, ({ handle }) => inspectTensor(tensorOf(handle), tensors));
connection.onRequest(GraphGet, ({ handle, maxNodes }) => buildGraph(tensorOf(handle), maxNodes, tensors, formulas, nodeSites));
connection.onRequest(DispatchTable, ({ op }) => asInvalidParams(() => dispatchTable(op)));
connection.onRequest(OpList, () => opList());
connection.onRequest(GeneratedCode, ({ op }) => asInvalidParams(() => generated.get(op)));

function asInvalidParams<T>(fn: () => T): T {
  try {
    return fn();
  } catch (e) {
    throw new ResponseError(ErrorCodes.InvalidParams, e instanceof Error ? e.message : String(e));
  }
}

// The extension closing our stdin means it is gone: end too.
connection.onClose(() => process.exit(0));
connection.listen();
