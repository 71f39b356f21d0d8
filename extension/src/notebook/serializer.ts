// NotebookSerializer for *.nb.ts: VS Code's side of nbts_format.ts. Each cell's layout travels in
// its metadata, so saving writes back exactly what was read, plus the user's edits.

import * as vscode from "vscode";
import { parse, serialize, type CellLayout, type CellRecord } from "./nbts_format.js";

export const NOTEBOOK_TYPE = "glasstorch-notebook";
const LAYOUT_KEY = "glasstorchLayout";

const decoder = new TextDecoder("utf-8", { fatal: false, ignoreBOM: true });
const encoder = new TextEncoder();

export class NbTsSerializer implements vscode.NotebookSerializer {
  deserializeNotebook(content: Uint8Array): vscode.NotebookData {
    // ignoreBOM keeps a byte-order mark in the text, so it is written back too.
    const cells = parse(decoder.decode(content)).map((record) => {
      const kind = record.kind === "markdown" ? vscode.NotebookCellKind.Markup : vscode.NotebookCellKind.Code;
      const cell = new vscode.NotebookCellData(kind, record.value, record.kind === "markdown" ? "markdown" : "typescript");
      cell.metadata = { [LAYOUT_KEY]: record.layout };
      return cell;
    });
    return new vscode.NotebookData(cells);
  }

  serializeNotebook(data: vscode.NotebookData): Uint8Array {
    const records: CellRecord[] = data.cells.map((cell) => ({
      kind: cell.kind === vscode.NotebookCellKind.Markup ? "markdown" : "code",
      value: cell.value,
      layout: cell.metadata?.[LAYOUT_KEY] as CellLayout | undefined,
    }));
    return encoder.encode(serialize(records));
  }
}
