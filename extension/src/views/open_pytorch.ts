// Opens a PyTorch source file on GitHub (the trace rows' "Open PyTorch Source" action and the links
// in their tooltips), through VS Code's external opener.

import * as vscode from "vscode";
import { isPyTorchPath, pytorchLink } from "./pytorch_links.js";

/** Opens `file` (a path in pytorch/pytorch) at the release Glasstorch follows; returns the URL opened. */
export async function openPyTorchFile(file: unknown): Promise<string | undefined> {
  // Tooltip links are command: URIs, so the argument is checked, not trusted.
  if (!isPyTorchPath(file)) return undefined;
  const { url } = pytorchLink(file);
  await vscode.env.openExternal(vscode.Uri.parse(url, true));
  return url;
}

/** A hover's lines for a row's PyTorch files, each a link that opens it. */
export function pytorchTooltip(text: string | undefined, files: readonly string[]): vscode.MarkdownString {
  const md = new vscode.MarkdownString(undefined, true);
  md.isTrusted = { enabledCommands: ["glasstorch.openPyTorchFile"] };
  if (text) md.appendText(text + "\n\n");
  for (const file of files) {
    const link = pytorchLink(file);
    const args = encodeURIComponent(JSON.stringify([file]));
    md.appendMarkdown(`$(github) PyTorch: [\`${file}\`](command:glasstorch.openPyTorchFile?${args} "${link.url}")`);
    if (link.template) md.appendMarkdown(` (generated from \`${link.template}\`)`);
    md.appendMarkdown("  \n");
  }
  return md;
}
