// Which engine host answers the views: the active *.nb.ts notebook's, else the last one used, else
// any open one. The views never start a host in an untrusted workspace (controller.request refuses).

import * as vscode from "vscode";
import type { RequestType } from "vscode-jsonrpc";
import type { GlasstorchController } from "../notebook/controller.js";
import { NOTEBOOK_TYPE } from "../notebook/serializer.js";
import type { SourceOpener } from "./open_source.js";

export class HostAccess implements vscode.Disposable {
  private last?: vscode.NotebookDocument;
  private readonly subscription: vscode.Disposable;

  constructor(
    readonly controller: GlasstorchController,
    private readonly opener: SourceOpener,
  ) {
    const note = (nb?: vscode.NotebookDocument) => {
      if (nb?.notebookType === NOTEBOOK_TYPE) this.last = nb;
    };
    note(vscode.window.activeNotebookEditor?.notebook);
    this.subscription = vscode.window.onDidChangeActiveNotebookEditor((e) => note(e?.notebook));
  }

  notebook(): vscode.NotebookDocument | undefined {
    const active = vscode.window.activeNotebookEditor?.notebook;
    if (active?.notebookType === NOTEBOOK_TYPE) return active;
    if (this.last && !this.last.isClosed) return this.last;
    return vscode.workspace.notebookDocuments.find((nb) => nb.notebookType === NOTEBOOK_TYPE && !nb.isClosed);
  }

  async request<P, R>(type: RequestType<P, R, void>, params: P): Promise<R> {
    const nb = this.notebook();
    if (!nb) throw new Error("Open a *.nb.ts notebook first: its engine host answers the Glasstorch views.");
    const result = await this.controller.request(nb, type, params);
    const root = this.controller.hostInfo(nb)?.engineRoot;
    if (root) this.opener.engineRoot = root;
    return result;
  }

  dispose(): void {
    this.subscription.dispose();
  }
}
