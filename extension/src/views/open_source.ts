// Opens what a trace row, a generated-code link or a graph node points at, and highlights it:
// a line of a notebook cell, or a file of the engine sources (under the host's engineRoot).

import { existsSync, readdirSync, readFileSync } from "node:fs";
import * as path from "node:path";
import * as vscode from "vscode";
import { lineOfSymbol, type SourceRef } from "./locations.js";

const highlight = vscode.window.createTextEditorDecorationType({
  isWholeLine: true,
  backgroundColor: new vscode.ThemeColor("editor.rangeHighlightBackground"),
  overviewRulerColor: new vscode.ThemeColor("editorOverviewRuler.rangeHighlightForeground"),
});

export class SourceOpener implements vscode.Disposable {
  /** engineRoot of the last host that said (InitializeResult.engineRoot). */
  engineRoot?: string;

  constructor(private readonly extensionPath: string) {}

  /** Where the engine's sources are: the host's answer, else the packaged copy, else the repository. */
  root(): string {
    if (this.engineRoot) return this.engineRoot;
    const packaged = this.extensionPath;
    if (existsSync(path.join(packaged, "engine"))) return packaged;
    return path.dirname(packaged);
  }

  uriOf(ref: SourceRef): vscode.Uri {
    switch (ref.kind) {
      case "cell":
        return vscode.Uri.parse(ref.uri);
      case "file":
        return vscode.Uri.file(ref.path);
      case "engine":
        return vscode.Uri.file(path.isAbsolute(ref.file) ? ref.file : path.join(this.root(), ref.file));
      case "search":
        return vscode.Uri.file(path.join(this.root(), ref.dir));
    }
  }

  private readonly found = new Map<string, SourceRef | undefined>();

  /** A search ref -> the engine file and line that hold its needle (cached), or undefined. */
  resolveSearch(ref: Extract<SourceRef, { kind: "search" }>): SourceRef | undefined {
    const key = `${this.root()}|${ref.dir}|${ref.needle}`;
    if (this.found.has(key)) return this.found.get(key);
    let hit: SourceRef | undefined;
    const walk = (rel: string): boolean => {
      let entries;
      try {
        entries = readdirSync(path.join(this.root(), rel), { withFileTypes: true });
      } catch {
        return false;
      }
      for (const e of entries) {
        const child = path.posix.join(rel, e.name);
        if (e.isDirectory() ? walk(child) : e.name.endsWith(".ts") && this.searchFile(child, ref.needle, (r) => (hit = r))) return true;
      }
      return false;
    };
    walk(ref.dir);
    this.found.set(key, hit);
    return hit;
  }

  private searchFile(rel: string, needle: string, onHit: (ref: SourceRef) => void): boolean {
    const text = readFileSync(path.join(this.root(), rel), "utf8");
    const at = text.indexOf(needle);
    if (at < 0) return false;
    onHit({ kind: "engine", file: rel, line: text.slice(0, at).split("\n").length });
    return true;
  }

  /** Opens the ref beside nothing (in the active group), selects and highlights its line(s). */
  async open(ref: SourceRef, options: { preserveFocus?: boolean } = {}): Promise<vscode.TextEditor | undefined> {
    if (ref.kind === "search") {
      const found = this.resolveSearch(ref);
      if (!found) {
        void vscode.window.showWarningMessage(`Glasstorch: no ${ref.needle} under ${ref.dir}.`);
        return undefined;
      }
      ref = found;
    }
    const uri = this.uriOf(ref);
    let document: vscode.TextDocument;
    if (ref.kind === "cell") {
      const cell = findCell(ref.uri);
      if (!cell) {
        void vscode.window.showWarningMessage("Glasstorch: that cell is no longer open.");
        return undefined;
      }
      await vscode.window.showNotebookDocument(cell.notebook, {
        preserveFocus: true,
        selections: [new vscode.NotebookRange(cell.index, cell.index + 1)],
      });
      document = cell.document;
    } else {
      try {
        document = await vscode.workspace.openTextDocument(uri);
      } catch {
        void vscode.window.showWarningMessage(`Glasstorch: cannot open ${uri.fsPath}.`);
        return undefined;
      }
    }
    let line = Math.max(1, ref.line);
    let endLine = ref.kind === "engine" && ref.endLine ? ref.endLine : line;
    if (ref.kind === "engine" && ref.symbol) {
      const found = lineOfSymbol(document.getText(), ref.symbol);
      if (found) line = endLine = found;
    }
    const last = Math.min(document.lineCount, endLine) - 1;
    const first = Math.min(document.lineCount, line) - 1;
    const column = ref.kind === "cell" || ref.kind === "file" ? Math.max(0, ref.column - 1) : 0;
    const range = new vscode.Range(first, column, last, document.lineAt(last).text.length);
    const editor = await vscode.window.showTextDocument(document, {
      // Beside a notebook, never in its place: a preview editor would replace (and close) it.
      viewColumn: ref.kind === "cell" ? undefined : besideNotebook(),
      preview: true,
      preserveFocus: options.preserveFocus,
      selection: new vscode.Range(first, column, first, column),
    });
    editor.setDecorations(highlight, [range]);
    editor.revealRange(range, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
    return editor;
  }

  dispose(): void {
    highlight.dispose();
  }
}

/** The column for a source opened from a view: beside the notebook when one is in front. */
export function besideNotebook(): vscode.ViewColumn | undefined {
  const nb = vscode.window.activeNotebookEditor;
  return nb && nb.viewColumn === vscode.window.tabGroups.activeTabGroup.viewColumn ? vscode.ViewColumn.Beside : undefined;
}

function findCell(uri: string): vscode.NotebookCell | undefined {
  for (const nb of vscode.workspace.notebookDocuments) {
    for (const cell of nb.getCells()) if (cell.document.uri.toString() === uri) return cell;
  }
  return undefined;
}
