// The glasstorch-gen: documents (glasstorch-gen:/aten/mul.Tensor): read-only text rendered from the
// host's GeneratedCode answer, with document links to the yaml, the generated files and kernels.

import * as vscode from "vscode";
import { GeneratedCode } from "../../../host/protocol.js";
import type { HostAccess } from "../host_access.js";
import type { SourceOpener } from "../open_source.js";
import { GEN_SCHEME, pathToOp, renderGenerated, type GenDocument } from "./gen_document.js";

export class GeneratedCodeProvider implements vscode.TextDocumentContentProvider, vscode.DocumentLinkProvider, vscode.Disposable {
  private readonly docs = new Map<string, GenDocument>();
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;

  constructor(
    private readonly host: HostAccess,
    private readonly opener: SourceOpener,
  ) {}

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const op = pathToOp(uri.path);
    if (!op) return `// Not an operator name: ${uri.path} (expected glasstorch-gen:/aten/mul.Tensor)\n`;
    try {
      const result = await this.host.request(GeneratedCode, { op });
      const doc = renderGenerated(result);
      this.docs.set(uri.toString(), doc);
      return doc.text;
    } catch (err) {
      this.docs.delete(uri.toString());
      return `// ${op}: ${String((err as Error)?.message ?? err)}\n`;
    }
  }

  provideDocumentLinks(document: vscode.TextDocument): vscode.DocumentLink[] {
    const doc = this.docs.get(document.uri.toString());
    if (!doc) return [];
    return doc.links.map((l) => {
      const target = this.opener.uriOf(l.target).with({ fragment: `L${l.target.line}` });
      const link = new vscode.DocumentLink(new vscode.Range(l.line, l.start, l.line, l.end), target);
      link.tooltip = l.tooltip;
      return link;
    });
  }

  /** Re-asks the host (after a restart, the engine may have changed). */
  refresh(): void {
    for (const uri of this.docs.keys()) this.changed.fire(vscode.Uri.parse(uri));
  }

  dispose(): void {
    this.changed.dispose();
  }
}

export function registerGeneratedCode(provider: GeneratedCodeProvider): vscode.Disposable {
  return vscode.Disposable.from(
    vscode.workspace.registerTextDocumentContentProvider(GEN_SCHEME, provider),
    vscode.languages.registerDocumentLinkProvider({ scheme: GEN_SCHEME }, provider),
  );
}
