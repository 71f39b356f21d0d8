// What the engine host reports, as notebook cell outputs.

import * as vscode from "vscode";
import type { CellOutput, ProgressNotification, RunError } from "../../host/protocol.js";
import { progressBarText } from "./progress_text.js";

/** The notebook renderer's mime type (extension/webview/renderer): heat map / histogram. */
export const TENSOR_MIME = "application/vnd.glasstorch.tensor+json";

/** A tensor is two outputs: its repr as PyTorch prints it, and the rich view when there is one. */
export function outputsFor(output: CellOutput): vscode.NotebookCellOutput[] {
  switch (output.kind) {
    case "text": {
      const item = output.stream === "stderr" ? vscode.NotebookCellOutputItem.stderr(output.text) : vscode.NotebookCellOutputItem.stdout(output.text);
      return [new vscode.NotebookCellOutput([item], { glasstorch: { stream: output.stream } })];
    }
    case "value":
      return [new vscode.NotebookCellOutput([vscode.NotebookCellOutputItem.text(output.text)])];
    case "tensor": {
      const outputs = [new vscode.NotebookCellOutput([vscode.NotebookCellOutputItem.text(output.repr)])];
      // The rich view: heat map / histogram, and for a tensor with a grad_fn its Backward Graph button.
      if (output.rich || output.grad_fn) {
        const { repr: _repr, ...data } = output;
        outputs.push(new vscode.NotebookCellOutput([vscode.NotebookCellOutputItem.json(data, TENSOR_MIME)]));
      }
      return outputs;
    }
  }
}

/** An error as VS Code's error renderer shows it, led by where in the cell it was raised. */
export function errorOutput(error: RunError, cellIndex: number): vscode.NotebookCellOutput {
  const header = `${error.name}: ${error.message}`;
  const where = error.location ? [`    at cell ${cellIndex + 1}, line ${error.location.line}, column ${error.location.column}`] : [];
  const frames = (error.stack ?? "").split("\n").filter((line) => /^\s+at /.test(line));
  const stack = [header, ...where, ...frames].join("\n");
  return new vscode.NotebookCellOutput([vscode.NotebookCellOutputItem.error({ name: error.name, message: error.message, stack })]);
}

export function progressItem(p: ProgressNotification): vscode.NotebookCellOutputItem {
  return vscode.NotebookCellOutputItem.text(progressBarText(p));
}
