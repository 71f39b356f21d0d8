// The Backward Graph webview: the grad_fn graph of a tensor (the last cell's tensor value, or a
// handle given to the command), re-requested after every run of its notebook so it follows the
// session. Layout and drawing happen in the webview (webview/graph/); messages are validated on
// both sides (webview/graph/messages.ts); the page runs only our nonce'd bundle.

import * as vscode from "vscode";
import { GraphGet } from "../../../host/protocol.js";
import type { GlasstorchController, RunEnded } from "../../notebook/controller.js";
import { parseFromGraphView, type ToGraphView } from "../../../webview/graph/messages.js";
import type { HostAccess } from "../host_access.js";
import { callSiteRef } from "../locations.js";
import type { SourceOpener } from "../open_source.js";
import { makeNonce, page } from "../webview_html.js";

const MAX_NODES = 5000;

interface Target {
  notebook: vscode.NotebookDocument;
  handle: number;
  /** "last value": follow each run's tensor value; "handle": keep asking about this tensor. */
  follow: boolean;
  label: string;
}

export class BackwardGraphPanel implements vscode.Disposable {
  private panel?: vscode.WebviewPanel;
  private target?: Target;
  private ready = false;
  private lastMessage?: ToGraphView;
  /** The shown graph's call sites as the host gave them (the webview gets readable ones). */
  private callSites = new Map<number, string>();
  /** The last tensor value of a run, per notebook: what the command shows by default. */
  private readonly lastTensor = new Map<string, { handle: number; label: string }>();
  private readonly disposables: vscode.Disposable[] = [];

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly host: HostAccess,
    private readonly opener: SourceOpener,
    controller: GlasstorchController,
  ) {
    this.disposables.push(controller.onDidEndRun((e) => this.onRunEnded(e)));
  }

  private onRunEnded(e: RunEnded): void {
    const v = e.result.value;
    if (v?.kind === "tensor") {
      const label = `Cell ${e.cell.index + 1}'s value${v.grad_fn ? ` (grad_fn ${v.grad_fn})` : ""}`;
      this.lastTensor.set(e.notebook.uri.toString(), { handle: v.handle, label });
      if (this.target?.follow && this.target.notebook === e.notebook) this.target = { ...this.target, handle: v.handle, label };
    }
    // Live: whatever the panel shows is asked again after each run of its notebook.
    if (this.panel && this.target?.notebook === e.notebook) void this.refresh();
  }

  /** Shows the graph of `handle`, or of the notebook's last tensor value (followed as cells run). */
  async show(handle?: number, notebook = this.host.notebook(), label?: string): Promise<void> {
    if (!notebook) {
      void vscode.window.showInformationMessage("Glasstorch: open a *.nb.ts notebook and run a cell that ends with a tensor.");
      return;
    }
    const last = this.lastTensor.get(notebook.uri.toString());
    if (handle !== undefined) this.target = { notebook, handle, follow: false, label: label ?? `tensor #${handle}` };
    else if (last) this.target = { notebook, handle: last.handle, follow: true, label: last.label };
    else this.target = undefined;
    this.openPanel();
    await this.refresh();
  }

  private openPanel(): void {
    if (this.panel) {
      this.panel.reveal(undefined, true);
      return;
    }
    const dist = vscode.Uri.joinPath(this.extensionUri, "dist");
    const panel = vscode.window.createWebviewPanel("glasstorch.backwardGraph", "Backward Graph", { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true }, {
      enableScripts: true,
      enableCommandUris: false,
      enableForms: false,
      localResourceRoots: [dist],
      retainContextWhenHidden: true,
    });
    const nonce = makeNonce();
    const asUri = (f: string) => panel.webview.asWebviewUri(vscode.Uri.joinPath(dist, f)).toString();
    panel.webview.html = page({
      title: "Backward Graph",
      cspSource: panel.webview.cspSource,
      nonce,
      styles: [asUri("views.css")],
      scripts: [asUri("graph.js")],
      body: [
        '<div id="graph-root">',
        '<div id="graph-bar"><strong id="graph-title"></strong><span id="graph-status">waiting for a graph…</span>',
        '<span style="flex:1"></span><select id="graph-find" title="Go to a node"></select><button id="graph-fit" type="button">Fit</button><button id="graph-svg" type="button">Export SVG</button></div>',
        '<div id="graph-main"><div id="graph-canvas"></div><div id="graph-details"></div></div>',
        "</div>",
      ].join("\n"),
    });
    panel.webview.onDidReceiveMessage((raw) => void this.onMessage(raw), undefined, this.disposables);
    panel.onDidDispose(() => {
      this.panel = undefined;
      this.ready = false;
    });
    this.panel = panel;
    this.ready = false;
  }

  private async onMessage(raw: unknown): Promise<void> {
    const msg = parseFromGraphView(raw);
    if (!msg) return; // malformed: ignored
    switch (msg.type) {
      case "ready":
        this.ready = true;
        if (this.lastMessage) void this.panel?.webview.postMessage(this.lastMessage);
        break;
      case "select": {
        // A Node with a known creation site opens it (the forward call that made the Node).
        const site = parseCallSite(this.callSites.get(msg.node));
        const ref = site ? callSiteRef(site) : undefined;
        if (ref) await this.opener.open(ref, { preserveFocus: true });
        break;
      }
      case "svg": {
        const uri = await vscode.window.showSaveDialog({ filters: { SVG: ["svg"] }, saveLabel: "Export SVG" });
        if (uri) await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(msg.svg));
        break;
      }
    }
  }

  private async refresh(): Promise<void> {
    if (!this.panel) return;
    const t = this.target;
    let message: ToGraphView;
    if (!t) {
      message = { type: "empty", message: "Run a cell whose last expression is a tensor with a grad_fn, e.g. (a.mul(b)).sum()." };
    } else {
      try {
        const graph = await this.host.request(GraphGet, { handle: t.handle, maxNodes: MAX_NODES });
        this.callSites = new Map(graph.nodes.flatMap((n) => (n.callSite ? [[n.id, n.callSite] as const] : [])));
        const nodes = graph.nodes.map((n) => (n.callSite ? { ...n, callSite: describeCallSite(n.callSite, t.notebook) } : n));
        message = graph.root === null
          ? { type: "empty", message: `${t.label} has no grad_fn (a leaf, or made without grad).` }
          : { type: "graph", title: t.label, graph: { ...graph, nodes }, readOnly: !vscode.workspace.isTrusted };
      } catch (err) {
        message = { type: "empty", message: `${t.label}: ${String((err as Error)?.message ?? err)}` };
      }
    }
    this.lastMessage = message;
    if (this.ready) void this.panel.webview.postMessage(message);
  }

  dispose(): void {
    this.panel?.dispose();
    for (const d of this.disposables) d.dispose();
  }
}

/** "vscode-notebook-cell:...#W1:4:12" -> file, line and column. */
function parseCallSite(site: string | undefined): { file: string; line: number; column: number } | undefined {
  const m = site ? /^(.*):(\d+):(\d+)$/.exec(site) : null;
  return m ? { file: m[1], line: Number(m[2]), column: Number(m[3]) } : undefined;
}

/** What the node details say: "cell 2, line 4 (views.nb.ts)" for a cell of the notebook, else file:line. */
export function describeCallSite(site: string, notebook: vscode.NotebookDocument): string {
  const at = parseCallSite(site);
  if (!at) return site;
  const cell = notebook.getCells().find((c) => c.document.uri.toString() === at.file);
  if (cell) return `cell ${cell.index + 1}, line ${at.line} (${notebook.uri.path.split("/").pop()})`;
  return `${at.file}:${at.line}`;
}
