// The notebook controller ("kernel"): runs *.nb.ts cells in the notebook's engine host, one cell
// after another, and turns what the host streams back into cell outputs.

import * as path from "node:path";
import * as vscode from "vscode";
import type { RequestType } from "vscode-jsonrpc";
import type { InitializeResult, OutputNotification, ProgressNotification, RunResult, TraceEventsNotification } from "../../host/protocol.js";
import { HostClient, HostDiedError } from "../host_client.js";
import { hostMemoryMB, hostSettings } from "../settings.js";
import { errorOutput, outputsFor, progressItem } from "./outputs.js";
import { NOTEBOOK_TYPE } from "./serializer.js";

const PROGRESS_REDRAW_MS = 100;

/** Where a run's streamed outputs go: the cell execution it belongs to. */
interface RunSink {
  execution: vscode.NotebookCellExecution;
  /** The last stdout/stderr output, so consecutive prints share one output. */
  lastStream?: { stream: string; output: vscode.NotebookCellOutput };
  bars: Map<number, { output?: vscode.NotebookCellOutput; latest?: ProgressNotification; timer?: NodeJS.Timeout; drawnAt: number }>;
}

/** One notebook's engine host and the state of its runs. */
class NotebookSession implements vscode.Disposable {
  readonly client: HostClient;
  executionOrder = 0;
  info?: InitializeResult;
  /** Cells run one at a time, in the order they were asked for. */
  queue: Promise<void> = Promise.resolve();
  readonly sinks = new Map<number, RunSink>();
  /** Which cell each run ran (trace events can arrive after the run's sink is gone). */
  readonly runCells = new Map<number, vscode.NotebookCell>();

  constructor(notebook: vscode.NotebookDocument, hostScript: string, private readonly events: SessionEvents) {
    const cwd = notebook.uri.scheme === "file" ? path.dirname(notebook.uri.fsPath) : (vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? process.cwd());
    this.client = new HostClient({
      hostScript,
      cwd,
      memoryMB: hostMemoryMB,
      settings: hostSettings(),
      onOutput: (n) => this.onOutput(n),
      onProgress: (n) => this.onProgress(n),
      onTraceEvents: (n) => events.trace(this, n),
      onBackendChanged: (backend) => {
        // The status bar follows glasstorch.cpuKernels once the host has applied it.
        if (!this.info) return;
        this.info = { ...this.info, backend };
        events.changed(this);
      },
      onStderr: (text) => events.log(text),
      onDeath: (death) => {
        this.info = undefined;
        events.changed(this);
        // A death while a cell runs is reported in that cell; one between runs only here.
        void vscode.window.showErrorMessage(`Glasstorch: the engine host stopped — ${death.reason}. It restarts on the next run.`);
        events.log(`engine host stopped: ${death.reason}\n${death.stderrTail}\n`);
      },
    });
  }

  private onOutput(n: OutputNotification): void {
    const sink = this.sinks.get(n.runId);
    if (!sink) return;
    const { output } = n;
    if (output.kind === "text" && sink.lastStream?.stream === output.stream) {
      void sink.execution.appendOutputItems(outputsFor(output)[0].items, sink.lastStream.output);
      return;
    }
    const outputs = outputsFor(output);
    sink.lastStream = output.kind === "text" ? { stream: output.stream, output: outputs[0] } : undefined;
    void sink.execution.appendOutput(outputs);
  }

  /** Progress bars redraw at most every PROGRESS_REDRAW_MS, always showing the latest state. */
  private onProgress(n: ProgressNotification): void {
    const sink = this.sinks.get(n.runId);
    if (!sink) return;
    let bar = sink.bars.get(n.barId);
    if (!bar) sink.bars.set(n.barId, (bar = { drawnAt: 0 }));
    bar.latest = n;
    const draw = () => {
      bar.timer = undefined;
      bar.drawnAt = Date.now();
      const item = progressItem(bar.latest!);
      if (bar.output) void sink.execution.replaceOutputItems(item, bar.output);
      else {
        bar.output = new vscode.NotebookCellOutput([item]);
        sink.lastStream = undefined;
        void sink.execution.appendOutput(bar.output);
      }
    };
    if (n.done || Date.now() - bar.drawnAt >= PROGRESS_REDRAW_MS) {
      clearTimeout(bar.timer);
      draw();
    } else {
      bar.timer ??= setTimeout(draw, PROGRESS_REDRAW_MS - (Date.now() - bar.drawnAt));
    }
  }

  flushProgress(runId: number): void {
    const sink = this.sinks.get(runId);
    for (const bar of sink?.bars.values() ?? []) {
      if (bar.timer) {
        clearTimeout(bar.timer);
        bar.timer = undefined;
        const item = progressItem(bar.latest!);
        if (bar.output) void sink!.execution.replaceOutputItems(item, bar.output);
        else void sink!.execution.appendOutput(new vscode.NotebookCellOutput([item]));
      }
    }
  }

  dispose(): void {
    this.client.dispose();
  }
}

interface SessionEvents {
  changed(session: NotebookSession): void;
  trace(session: NotebookSession, n: TraceEventsNotification): void;
  log(text: string): void;
}

export class GlasstorchController implements vscode.Disposable {
  readonly controller: vscode.NotebookController;
  private readonly sessions = new Map<string, NotebookSession>();
  private readonly disposables: vscode.Disposable[] = [];
  private readonly changeEmitter = new vscode.EventEmitter<vscode.NotebookDocument | undefined>();
  /** Fires when a notebook's host starts, stops or restarts (the status bar listens). */
  readonly onDidChangeSession = this.changeEmitter.event;
  private readonly traceEmitter = new vscode.EventEmitter<RunTraceEvents>();
  /** A batch of a run's trace events (the Dispatch Trace view listens). */
  readonly onDidReceiveTrace = this.traceEmitter.event;
  private readonly runEndEmitter = new vscode.EventEmitter<RunEnded>();
  /** A cell's run ended (the Backward Graph re-asks for its graph). */
  readonly onDidEndRun = this.runEndEmitter.event;

  constructor(private readonly hostScript: string, private readonly log: vscode.OutputChannel) {
    this.controller = vscode.notebooks.createNotebookController("glasstorch-kernel", NOTEBOOK_TYPE, "Glasstorch");
    this.controller.supportedLanguages = ["typescript"];
    this.controller.supportsExecutionOrder = true;
    this.controller.description = "TypeScript, in a Glasstorch engine host";
    this.controller.executeHandler = (cells, notebook) => this.execute(cells, notebook);
    this.controller.interruptHandler = (notebook) => this.interrupt(notebook);
    this.disposables.push(
      this.controller,
      this.changeEmitter,
      this.traceEmitter,
      this.runEndEmitter,
      vscode.workspace.onDidCloseNotebookDocument((notebook) => {
        this.sessions.get(notebook.uri.toString())?.dispose();
        this.sessions.delete(notebook.uri.toString());
      }),
    );
  }

  /** The InitializeResult of the notebook's running host, if one runs. */
  hostInfo(notebook: vscode.NotebookDocument): InitializeResult | undefined {
    return this.sessions.get(notebook.uri.toString())?.info;
  }

  /** A view's question to the notebook's engine host (started if need be); refused in an untrusted workspace. */
  request<P, R>(notebook: vscode.NotebookDocument, type: RequestType<P, R, void>, params: P): Promise<R> {
    if (!vscode.workspace.isTrusted) return Promise.reject(new Error("Glasstorch starts no engine host in an untrusted workspace."));
    const session = this.session(notebook);
    return session.client.request(type, params).then(async (r) => {
      if (!session.info) {
        session.info = await session.client.start();
        this.changeEmitter.fire(notebook);
      }
      return r;
    });
  }

  interrupt(notebook: vscode.NotebookDocument): void {
    this.sessions.get(notebook.uri.toString())?.client.interrupt();
  }

  restart(notebook: vscode.NotebookDocument): void {
    const session = this.sessions.get(notebook.uri.toString());
    if (!session) return;
    session.client.restart();
    session.info = undefined;
    session.executionOrder = 0;
    this.changeEmitter.fire(notebook);
  }

  updateSettings(): void {
    const settings = hostSettings();
    for (const session of this.sessions.values()) session.client.updateSettings(settings);
  }

  private session(notebook: vscode.NotebookDocument): NotebookSession {
    const key = notebook.uri.toString();
    let session = this.sessions.get(key);
    if (!session) {
      session = new NotebookSession(notebook, this.hostScript, {
        changed: () => this.changeEmitter.fire(notebook),
        trace: (s, n) => {
          const cell = s.runCells.get(n.runId);
          this.traceEmitter.fire({ notebook, cell, ...n });
        },
        log: (text) => this.log.append(text),
      });
      this.sessions.set(key, session);
    }
    return session;
  }

  private execute(cells: vscode.NotebookCell[], notebook: vscode.NotebookDocument): Promise<void> {
    if (!vscode.workspace.isTrusted) return this.refuseUntrusted(cells);
    const session = this.session(notebook);
    // Executions are created now so the cells show as queued; they run in order.
    const executions = cells.map((cell) => this.controller.createNotebookCellExecution(cell));
    const run = session.queue.then(async () => {
      for (let i = 0; i < executions.length; i++) {
        const ok = await this.runCell(session, executions[i]);
        if (!ok) {
          // Like Jupyter: after an error or interrupt the rest of the queue does not run.
          for (const skipped of executions.slice(i + 1)) {
            skipped.start();
            skipped.end(undefined);
          }
          return;
        }
      }
    });
    session.queue = run.catch(() => undefined);
    return run;
  }

  /** Runs one cell; false when it did not finish cleanly (error, interrupt, dead host). */
  private async runCell(session: NotebookSession, execution: vscode.NotebookCellExecution): Promise<boolean> {
    const cell = execution.cell;
    execution.executionOrder = ++session.executionOrder;
    execution.start(Date.now());
    await execution.clearOutput();
    let runId: number | undefined;
    try {
      if (!session.info) {
        session.info = await session.client.start();
        this.changeEmitter.fire(cell.notebook);
      }
      const result = await session.client.run(
        { cellUri: cell.document.uri.toString(), cellIndex: cell.index, code: cell.document.getText() },
        (id) => {
          runId = id;
          session.runCells.set(id, cell);
          if (session.runCells.size > 1000) session.runCells.delete(session.runCells.keys().next().value!);
          session.sinks.set(id, { execution, bars: new Map() });
        },
      );
      session.flushProgress(result.runId);
      if (result.value) await execution.appendOutput(outputsFor(result.value));
      if (result.error) {
        // An interrupt says how long it took to stop, and how much of that the engine host took.
        const error = result.status === "interrupted" && result.interruptLatencyMs !== undefined && !result.error.message
          ? { ...result.error, message: interruptNote(result.interruptLatencyMs, result.interruptMs) }
          : result.error;
        await execution.appendOutput(errorOutput(error, cell.index));
      }
      execution.end(result.status === "ok", Date.now());
      this.runEndEmitter.fire({ notebook: cell.notebook, cell, result });
      return result.status === "ok";
    } catch (err) {
      if (err instanceof HostDiedError) {
        session.info = undefined;
        session.executionOrder = 0;
        this.changeEmitter.fire(cell.notebook);
      }
      const message = err instanceof HostDiedError ? `${err.message}. It restarts on the next run.` : String((err as Error)?.message ?? err);
      const name = err instanceof HostDiedError ? "EngineHostStopped" : "Error";
      const stderr = err instanceof HostDiedError && err.death.stderrTail ? `\n${err.death.stderrTail}` : "";
      await execution.appendOutput(
        new vscode.NotebookCellOutput([vscode.NotebookCellOutputItem.error({ name, message, stack: `${name}: ${message}${stderr}` })]),
      );
      execution.end(false, Date.now());
      return false;
    } finally {
      if (runId !== undefined) session.sinks.delete(runId);
    }
  }

  private async refuseUntrusted(cells: vscode.NotebookCell[]): Promise<void> {
    for (const cell of cells) {
      const execution = this.controller.createNotebookCellExecution(cell);
      execution.start(Date.now());
      await execution.replaceOutput(
        new vscode.NotebookCellOutput([
          vscode.NotebookCellOutputItem.error({
            name: "Restricted Mode",
            message: "Glasstorch does not run code in an untrusted workspace. Trust the workspace to run cells.",
          }),
        ]),
      );
      execution.end(false, Date.now());
    }
  }

  dispose(): void {
    for (const session of this.sessions.values()) session.dispose();
    this.sessions.clear();
    for (const d of this.disposables) d.dispose();
  }
}

export interface RunTraceEvents extends TraceEventsNotification {
  notebook: vscode.NotebookDocument;
  /** The cell the run ran, when known. */
  cell?: vscode.NotebookCell;
}

export interface RunEnded {
  notebook: vscode.NotebookDocument;
  cell: vscode.NotebookCell;
  result: RunResult;
}

/** "stopped 85 ms after the interrupt was requested (in the engine host: 3 ms)". */
export function interruptNote(latencyMs: number, hostMs: number | undefined): string {
  const host = hostMs !== undefined ? ` (in the engine host: ${Math.round(hostMs)} ms)` : "";
  return `stopped ${Math.round(latencyMs)} ms after the interrupt was requested${host}`;
}
