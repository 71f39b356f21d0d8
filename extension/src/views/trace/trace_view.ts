// The Dispatch Trace view: the latest run of each executed cell as a tree (trace_model.ts), fed by
// the controller's trace events. Selecting a row opens the source it names; Step Forward/Back
// walk the rows in order with the editor following.

import * as vscode from "vscode";
import type { TraceEvent } from "../../../../engine/trace/events.js";
import type { GlasstorchController, RunTraceEvents } from "../../notebook/controller.js";
import { opToPath, GEN_SCHEME } from "../generated/gen_document.js";
import { besideNotebook, type SourceOpener } from "../open_source.js";
import { pytorchTooltip } from "../open_pytorch.js";
import { toChromeTrace, toJsonLines, toMarkdown } from "./trace_export.js";
import { flattenSteps, RunTreeBuilder, type TraceNode } from "./trace_model.js";
import { TracePager } from "./trace_pages.js";

export const TRACE_VIEW_ID = "glasstorch.dispatchTrace";
/** Cells' runs kept (latest per cell); older cells' runs go first. */
const MAX_RUNS = 50;
/** How often a growing trace is redrawn while its run goes on. */
const REFRESH_MS = 1000;

interface StoredRun {
  notebook: string;
  cellUri: string;
  cellIndex: number;
  firstLine: string;
  runId: number;
  events: TraceEvent[];
  dropped: number;
  /** Rows are made as events arrive; a refresh only orders the top level (trace_model.ts). */
  builder: RunTreeBuilder;
  /** Events arrived since the tree was last taken from the builder. */
  dirty: boolean;
  /** Time spent making rows as the batches arrived, ms. */
  addMs: number;
  tree?: TraceNode;
}

const ICONS: Partial<Record<TraceNode["kind"], string>> = {
  run: "notebook",
  call: "symbol-method",
  line: "go-to-file",
  binding: "symbol-interface",
  keys: "key",
  step: "arrow-small-right",
  stub: "chip",
  return: "reply",
  "autograd.node": "type-hierarchy-sub",
  "autograd.exec": "debug-step-back",
  "autograd.accumulate": "add",
  "autograd.hook": "debug-breakpoint-function",
  dropped: "warning",
  page: "list-unordered",
};

/** One refresh of the tree that changed what it shows (for "Show Dispatch Trace Timing"). */
export interface TraceRefresh {
  /** Trace events the tree holds after the refresh. */
  events: number;
  /** Rows built (every level, expanded or not). */
  rows: number;
  /** Ordering the rows of the runs that changed at this refresh, ms. */
  buildMs: number;
  /** Making the rows as the events arrived (before this refresh), ms, all runs shown. */
  addMs: number;
  /** When the refresh started (Date.now(), comparable with the workbench page's clock on one machine). */
  startedAt: number;
  /** When the last run ended (Date.now()): its events are all in then, and the tree is refreshed at once. */
  runEndedAt?: number;
}

export class TraceView implements vscode.TreeDataProvider<TraceNode>, vscode.Disposable {
  private readonly runs = new Map<string, StoredRun>(); // by cell URI
  private readonly changed = new vscode.EventEmitter<TraceNode | TraceNode[] | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  /** Long child lists shown as pages of rows; also each shown row's parent, for reveal. */
  private readonly pager = new TracePager();
  private roots: TraceNode[] = [];
  private refreshTimer?: NodeJS.Timeout;
  private current?: string;
  /** When the last run ended (Date.now()), for "Show Dispatch Trace Timing". */
  private runEndedAt?: number;
  /** The first refresh that showed the current number of events. */
  lastRefresh?: TraceRefresh;
  readonly view: vscode.TreeView<TraceNode>;
  private readonly disposables: vscode.Disposable[] = [];

  constructor(
    controller: GlasstorchController,
    private readonly opener: SourceOpener,
  ) {
    this.view = vscode.window.createTreeView(TRACE_VIEW_ID, { treeDataProvider: this, showCollapseAll: true });
    this.disposables.push(
      this.view,
      this.changed,
      controller.onDidReceiveTrace((n) => this.add(n)),
      // The run's events are all in when it ends (the host sends them before its reply): show them now.
      controller.onDidEndRun(() => {
        this.runEndedAt = Date.now();
        this.refreshNow();
        // Also when a refresh while the run streamed had shown its last events already.
          }),
      this.view.onDidChangeSelection((e) => {
        const node = e.selection[0];
        if (node) this.current = node.id;
      }),
    );
    this.setContext();
  }

  private add(n: RunTraceEvents): void {
    const cellUri = n.cell?.document.uri.toString() ?? `run:${n.runId}`;
    let run = this.runs.get(cellUri);
    if (!run || run.runId !== n.runId) {
      // A cell's new run replaces its last one.
      this.runs.delete(cellUri);
      this.runEndedAt = undefined;
      const cellIndex = n.cell?.index ?? -1;
      run = {
        notebook: n.notebook.uri.toString(),
        cellUri,
        cellIndex,
        firstLine: firstCodeLine(n.cell?.document.getText() ?? ""),
        runId: n.runId,
        events: [],
        dropped: 0,
        builder: new RunTreeBuilder({
          key: `${cellUri}#${n.runId}`,
          title: cellIndex >= 0 ? `Cell ${cellIndex + 1}` : `Run ${n.runId}`,
          cellUri: cellUri.startsWith("run:") ? undefined : cellUri,
        }),
        dirty: true,
        addMs: 0,
      };
      this.runs.set(cellUri, run);
      while (this.runs.size > MAX_RUNS) this.runs.delete(this.runs.keys().next().value!);
    }
    for (const e of n.events) run.events.push(e);
    const t0 = performance.now();
    run.builder.add(n.events);
    run.addMs += performance.now() - t0;
    run.dropped = Math.max(run.dropped, n.dropped);
    run.dirty = true;
    this.scheduleRefresh();
  }

  private scheduleRefresh(): void {
    // A long run streams many batches: its tree is redrawn as it grows, at most once a second, and
    // never before VS Code has fetched the last redraw (each makes it fetch the run's rows again;
    // faster than it fetches, redraws queue up and the run's final tree shows late).
    if (this.fetch.awaited) {
      this.fetch.pending = true;
      return;
    }
    // Events that arrive after their run ended (they can) are its last: no reason to wait then.
    const delay = this.runEndedAt !== undefined ? 0 : Math.max(REFRESH_MS, 2 * this.fetch.lagMs);
    this.refreshTimer ??= setTimeout(() => this.refreshNow(), delay);
  }

  /** Whether VS Code has asked for the rows since the last redraw, and how long it took to ask. */
  private readonly fetch = { awaited: false, pending: false, firedAt: 0, lagMs: 0 };

  private refreshNow(): void {
    clearTimeout(this.refreshTimer);
    this.refreshTimer = undefined;
    const dirty = [...this.runs.values()].filter((r) => r.dirty);
    if (dirty.length === 0) return; // nothing new
    const shown = new Set(this.roots);
    const startedAt = Date.now();
    const t0 = performance.now();
    this.rebuild();
    const buildMs = performance.now() - t0;
    // Only the runs that changed, when the list of runs is the same; else the whole view.
    const sameRuns = this.roots.length === shown.size && this.roots.every((r) => shown.has(r));
    this.changed.fire(sameRuns ? dirty.map((r) => r.tree!) : undefined);
    this.fetch.awaited = true;
    this.fetch.firedAt = performance.now();
    this.setContext();
    const events = [...this.runs.values()].reduce((n, r) => n + r.events.length, 0);
    const addMs = [...this.runs.values()].reduce((n, r) => n + r.addMs, 0);
    if (events !== this.lastRefresh?.events) this.lastRefresh = { events, rows: countRows(this.roots), buildMs, addMs, startedAt, runEndedAt: this.runEndedAt };
  }

  private rebuild(): void {
    const runs = [...this.runs.values()].sort((a, b) => a.notebook.localeCompare(b.notebook) || a.cellIndex - b.cellIndex);
    this.roots = runs.map((r) => {
      if (r.dirty || !r.tree) {
        r.tree = r.builder.tree(r.dropped);
        if (r.firstLine) r.tree.description = `${r.firstLine} · ${r.tree.description}`;
        r.dirty = false;
      }
      return r.tree;
    });
    this.pager.setRoots(this.roots);
  }

  private setContext(): void {
    void vscode.commands.executeCommand("setContext", "glasstorch.traceHasRuns", this.runs.size > 0);
  }

  getChildren(node?: TraceNode): TraceNode[] {
    if (this.fetch.awaited) {
      this.fetch.awaited = false;
      this.fetch.lagMs = performance.now() - this.fetch.firedAt;
      if (this.fetch.pending) {
        this.fetch.pending = false;
        this.scheduleRefresh();
      }
    }
    // Only the level asked for: a long list comes as pages of rows (trace_pages.ts).
    return node ? this.pager.children(node) : this.roots;
  }

  getParent(node: TraceNode): TraceNode | undefined {
    return this.pager.parent(node);
  }

  getTreeItem(node: TraceNode): vscode.TreeItem {
    const { None, Collapsed, Expanded } = vscode.TreeItemCollapsibleState;
    // A page's own children list is empty: its rows are its owner's (trace_pages.ts).
    const collapsed = node.kind === "page" ? Collapsed : node.children.length === 0 ? None : node.kind === "run" ? Expanded : Collapsed;
    const item = new vscode.TreeItem(node.label, collapsed);
    item.id = node.id;
    item.description = node.description;
    const pytorch = node.pytorchRef ? [node.pytorchRef, ...(node.morePytorchRefs ?? [])] : [];
    if (pytorch.length) {
      // The tooltip's own "PyTorch: <file>" line becomes a link (with the other files of the step).
      const text = node.tooltip?.split("\n").filter((l) => !l.startsWith("PyTorch: ")).join("\n");
      item.tooltip = pytorchTooltip(text, pytorch);
    } else if (node.tooltip) item.tooltip = node.tooltip;
    const icon = node.error ? "error" : ICONS[node.kind];
    if (icon) item.iconPath = new vscode.ThemeIcon(icon);
    item.contextValue = `trace.${node.kind}${node.pytorchRef ? ".pt" : ""}${node.op ? ".op" : ""}`;
    if (node.source || node.kind === "binding") item.command = { command: "glasstorch.trace.open", title: "Open", arguments: [node] };
    return item;
  }

  /** Opens what a row names: its source, or (a binding) the operator's generated code. */
  async openNode(node: TraceNode, preserveFocus = false): Promise<void> {
    this.current = node.id;
    if (node.kind === "binding" && node.op) {
      await openGenerated(node.op, preserveFocus);
      return;
    }
    if (node.source) await this.opener.open(node.source, { preserveFocus });
  }

  async step(delta: 1 | -1): Promise<void> {
    if (this.refreshTimer) this.refreshNow();
    const order = flattenSteps(this.roots);
    const next = this.pager.step(order, this.view.selection[0] ?? this.current, delta);
    if (!next) {
      void vscode.window.setStatusBarMessage(delta > 0 ? "Glasstorch: last step of the trace" : "Glasstorch: first step of the trace", 2000);
      return;
    }
    this.current = next.id;
    await this.view.reveal(next, { select: true, focus: false, expand: false });
    await this.openNode(next, true);
  }

  allEvents(): TraceEvent[] {
    return [...this.runs.values()].flatMap((r) => r.events);
  }

  async export(format: "jsonl" | "markdown" | "chrome"): Promise<void> {
    if (this.runs.size === 0) {
      void vscode.window.showInformationMessage("Glasstorch: no trace yet — run a cell with tracing on.");
      return;
    }
    this.rebuild();
    const content =
      format === "jsonl" ? toJsonLines(this.allEvents(), undefined) : format === "chrome" ? JSON.stringify(toChromeTrace(this.allEvents())) : toMarkdown(this.roots);
    const doc = await vscode.workspace.openTextDocument({ content, language: format === "markdown" ? "markdown" : format === "jsonl" ? "jsonl" : "json" });
    await vscode.window.showTextDocument(doc);
  }

  clear(): void {
    this.runs.clear();
    this.runEndedAt = undefined;
    this.rebuild();
    this.changed.fire(undefined);
    this.setContext();
  }

  dispose(): void {
    clearTimeout(this.refreshTimer);
    for (const d of this.disposables) d.dispose();
  }
}

function countRows(roots: readonly TraceNode[]): number {
  let rows = 0;
  const stack = [...roots];
  while (stack.length) {
    rows++;
    for (const c of stack.pop()!.children) stack.push(c);
  }
  return rows;
}

function firstCodeLine(code: string): string {
  const line = code.split("\n").find((l) => l.trim() && !l.trim().startsWith("//") && !l.startsWith("import ")) ?? "";
  return line.trim().length > 40 ? `${line.trim().slice(0, 39)}…` : line.trim();
}

export async function openGenerated(op: string, preserveFocus = false): Promise<void> {
  const p = opToPath(op.includes("::") ? op : `aten::${op}`);
  if (!p) return;
  const uri = vscode.Uri.from({ scheme: GEN_SCHEME, path: p });
  const doc = await vscode.workspace.openTextDocument(uri);
  await vscode.window.showTextDocument(doc, { preview: true, preserveFocus, viewColumn: besideNotebook() });
}
