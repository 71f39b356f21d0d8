// The Dispatch Table webview: one panel, reused, showing either an operator's dispatch table (the
// key that won for the selected trace call highlighted) or the ops x backends coverage matrix.
// Why a webview and not a tree: a table reads across (key | registered | computed), and the matrix
// is a grid; the page is static HTML without scripts (enableScripts off), so it has no message
// channel at all, and it is re-rendered when the selection changes. Its links run two commands
// (enableCommandUris lists them), whose arguments are checked as operator names.

import * as vscode from "vscode";
import { DispatchTable, OpList, type OpListResult } from "../../../host/protocol.js";
import type { HostAccess } from "../host_access.js";
import { escapeHtml, page } from "../webview_html.js";
import { coverageBody, dispatchTableBody, TABLE_COMMANDS } from "./table_html.js";

export class DispatchTablePanel implements vscode.Disposable {
  private panel?: vscode.WebviewPanel;

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly host: HostAccess,
  ) {}

  private open(title: string): vscode.WebviewPanel {
    if (!this.panel) {
      this.panel = vscode.window.createWebviewPanel("glasstorch.dispatchTable", title, { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true }, {
        enableScripts: false,
        // Links to the operator's generated code / another operator's table, and nothing else.
        enableCommandUris: TABLE_COMMANDS,
        localResourceRoots: [vscode.Uri.joinPath(this.extensionUri, "dist")],
      });
      this.panel.onDidDispose(() => (this.panel = undefined));
    }
    this.panel.title = title;
    this.panel.reveal(undefined, true);
    return this.panel;
  }

  private render(panel: vscode.WebviewPanel, title: string, body: string): void {
    const css = panel.webview.asWebviewUri(vscode.Uri.joinPath(this.extensionUri, "dist", "views.css")).toString();
    panel.webview.html = page({ title, cspSource: panel.webview.cspSource, styles: [css], body });
  }

  async showTable(op: string, highlightKey?: string): Promise<void> {
    const panel = this.open(`Dispatch Table: ${op}`);
    try {
      const table = await this.host.request(DispatchTable, { op });
      this.render(panel, `Dispatch Table: ${op}`, dispatchTableBody(table, highlightKey));
    } catch (err) {
      this.render(panel, "Dispatch Table", `<p>${escapeHtml(String((err as Error)?.message ?? err))}</p>`);
    }
  }

  async showCoverage(list: OpListResult, filter = ""): Promise<void> {
    const panel = this.open("Operator Coverage");
    this.render(panel, "Operator Coverage", coverageBody(list, filter));
  }

  dispose(): void {
    this.panel?.dispose();
  }
}

/** OpList, cached per host start (the list does not change while a host lives). */
export class OpCatalog {
  private cached?: { pid: number | undefined; list: OpListResult };
  constructor(private readonly host: HostAccess) {}

  async list(): Promise<OpListResult> {
    const nb = this.host.notebook();
    const info = nb ? this.host.controller.hostInfo(nb) : undefined;
    if (this.cached && info && this.cached.pid === info.pid) return this.cached.list;
    const list = await this.host.request(OpList as never, undefined as never) as OpListResult;
    const after = nb ? this.host.controller.hostInfo(nb) : undefined;
    this.cached = { pid: after?.pid, list };
    return list;
  }

  /** A QuickPick over every operator overload; undefined when dismissed. */
  async pick(placeHolder: string): Promise<string | undefined> {
    let list: OpListResult;
    try {
      list = await this.list();
    } catch (err) {
      void vscode.window.showErrorMessage(`Glasstorch: ${String((err as Error)?.message ?? err)}`);
      return undefined;
    }
    const items = list.ops.map((o) => {
      const name = o.overload ? `${o.name}.${o.overload}` : o.name;
      return { label: name, description: o.backends.join(", "), detail: o.hasAutograd ? "autograd kernel" : undefined };
    });
    const picked = await vscode.window.showQuickPick(items, { placeHolder, matchOnDescription: true });
    return picked?.label;
  }
}
