// Registers the views of issue #6 items 4–7: Dispatch Trace (tree), Generated Code
// (glasstorch-gen: documents), Dispatch Table / coverage (webview) and Backward Graph (webview),
// with their commands. Nothing here starts a process: the views ask the notebook's engine host,
// which the controller starts only in a trusted workspace.

import * as vscode from "vscode";
import type { GlasstorchController } from "../notebook/controller.js";
import { GeneratedCodeProvider, registerGeneratedCode } from "./generated/gen_provider.js";
import { BackwardGraphPanel } from "./graph/graph_panel.js";
import { HostAccess } from "./host_access.js";
import { SourceOpener } from "./open_source.js";
import { openPyTorchFile } from "./open_pytorch.js";
import { DispatchTablePanel, OpCatalog } from "./table/table_panel.js";
import type { TraceNode } from "./trace/trace_model.js";
import { parseRendererMessage, RENDERER_ID } from "../../webview/renderer/messages.js";
import { NOTEBOOK_TYPE } from "../notebook/serializer.js";
import { TENSOR_MIME } from "../notebook/outputs.js";
import { openGenerated, TraceView } from "./trace/trace_view.js";

export function registerViews(context: vscode.ExtensionContext, controller: GlasstorchController): void {
  const opener = new SourceOpener(context.extensionPath);
  const host = new HostAccess(controller, opener);
  const trace = new TraceView(controller, opener);
  const generated = new GeneratedCodeProvider(host, opener);
  const table = new DispatchTablePanel(context.extensionUri, host);
  const catalog = new OpCatalog(host);
  const graph = new BackwardGraphPanel(context.extensionUri, host, opener, controller);
  const command = (id: string, fn: (...args: never[]) => unknown) => vscode.commands.registerCommand(id, fn);
  const isNode = (n: unknown): n is TraceNode => typeof n === "object" && n !== null && "id" in n && "kind" in n;
  // Arguments from command: links (the dispatch table page) are checked, not trusted.
  const isOpName = (op: unknown): op is string => typeof op === "string" && /^[A-Za-z_][\w]*(::[\w.]+)?$/.test(op);

  context.subscriptions.push(
    opener,
    host,
    trace,
    generated,
    registerGeneratedCode(generated),
    table,
    graph,
    command("glasstorch.trace.open", (node: TraceNode) => (isNode(node) ? trace.openNode(node) : undefined)),
    command("glasstorch.trace.stepForward", () => trace.step(1)),
    command("glasstorch.trace.stepBack", () => trace.step(-1)),
    command("glasstorch.trace.clear", () => trace.clear()),
    command("glasstorch.trace.openPyTorchSource", (node?: TraceNode) => {
      const n = isNode(node) ? node : trace.view.selection[0];
      return n?.pytorchRef ? openPyTorchFile(n.pytorchRef) : undefined;
    }),
    command("glasstorch.openPyTorchFile", (file?: string) => openPyTorchFile(file)),
    command("glasstorch.trace.showTiming", () => {
      const t = trace.lastRefresh;
      const text = t
        ? `Glasstorch: the Dispatch Trace tree of ${t.events} events (${t.rows} rows) was built in ${t.buildMs.toFixed(1)} ms (rows made as events arrived: ${t.addMs.toFixed(1)} ms) (refresh at ${t.startedAt})${t.runEndedAt ? ` (run ended at ${t.runEndedAt})` : ""}`
        : "Glasstorch: the Dispatch Trace is empty.";
      void vscode.window.showInformationMessage(text);
      return t;
    }),
    command("glasstorch.trace.exportJsonl", () => trace.export("jsonl")),
    command("glasstorch.trace.exportMarkdown", () => trace.export("markdown")),
    command("glasstorch.trace.exportChrome", () => trace.export("chrome")),
    command("glasstorch.trace.openGeneratedCode", (node?: TraceNode) => {
      const n = isNode(node) ? node : trace.view.selection[0];
      return n?.op ? openGenerated(n.op) : undefined;
    }),
    command("glasstorch.trace.showDispatchTable", (node?: TraceNode) => {
      const n = isNode(node) ? node : trace.view.selection[0];
      if (!n?.op) return undefined;
      // The key that won: the row's own, or the first step's of a call.
      const key = n.key ?? n.children.find((c) => c.kind === "step")?.key;
      return table.showTable(n.op, key);
    }),
    command("glasstorch.openGeneratedCode", async (op?: string) => {
      const name = isOpName(op) ? op : await catalog.pick("Operator whose generated code to open");
      if (name) await openGenerated(name);
    }),
    command("glasstorch.showDispatchTable", async (op?: string, key?: string) => {
      const name = isOpName(op) ? op : await catalog.pick("Operator whose dispatch table to show");
      if (name) await table.showTable(name, isOpName(key) ? key : undefined);
    }),
    command("glasstorch.showCoverage", async () => {
      try {
        await table.showCoverage(await catalog.list());
      } catch (err) {
        void vscode.window.showErrorMessage(`Glasstorch: ${String((err as Error)?.message ?? err)}`);
      }
    }),
    command("glasstorch.showBackwardGraph", (handle?: number) => graph.show(typeof handle === "number" ? handle : undefined)),
    controller.onDidChangeSession(() => generated.refresh()),
    // "Backward Graph" on a tensor output (the renderer's button): that tensor's graph.
    vscode.notebooks.createRendererMessaging(RENDERER_ID).onDidReceiveMessage(({ editor, message }) => {
      const msg = parseRendererMessage(message);
      if (!msg || editor.notebook.notebookType !== NOTEBOOK_TYPE) return;
      void graph.show(msg.handle, editor.notebook, outputLabel(editor.notebook, msg.handle));
    }),
  );
}

/** "Cell 3's output (grad_fn MulBackward0)": the cell whose tensor output carries `handle`. */
function outputLabel(notebook: vscode.NotebookDocument, handle: number): string {
  for (const cell of notebook.getCells()) {
    for (const output of cell.outputs) {
      for (const item of output.items) {
        if (item.mime !== TENSOR_MIME) continue;
        try {
          const data = JSON.parse(new TextDecoder().decode(item.data)) as { handle?: unknown; grad_fn?: unknown };
          if (data.handle === handle) return `Cell ${cell.index + 1}'s output${typeof data.grad_fn === "string" ? ` (grad_fn ${data.grad_fn})` : ""}`;
        } catch {
          // not ours to read
        }
      }
    }
  }
  return `tensor #${handle}`;
}
