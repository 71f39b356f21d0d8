// Where a trace step, a generated-code section or a graph node points: a notebook cell line, or a
// file in the engine sources ("engine/generated/mul.ts:15", relative to the host's engineRoot).
// Pure: the views turn these into editor selections.

export type SourceRef =
  /** A line of a notebook cell (a call site): `uri` is the cell's vscode-notebook-cell: URI. */
  | { kind: "cell"; uri: string; line: number; column: number }
  /** A file under the engine root, 1-based line. */
  | { kind: "engine"; file: string; line: number; endLine?: number; symbol?: string }
  /** The first line holding `needle` in the engine's TypeScript files under `dir` (a DispatchStub's
   * kernel registration, found when the row is opened). */
  | { kind: "search"; dir: string; needle: string; line: number }
  /** An absolute file path (a call site in a plain .ts file). */
  | { kind: "file"; path: string; line: number; column: number };

/** The line of the first occurrence of `symbol` in `text` (1-based), for refs that name a function. */
export function lineOfSymbol(text: string, symbol: string): number | undefined {
  const at = text.indexOf(symbol);
  return at < 0 ? undefined : text.slice(0, at).split("\n").length;
}

/** "engine/ops/native_functions.yaml:45" -> an engine ref; a path without a line opens at line 1. */
export function parseFileLine(text: string | null | undefined): SourceRef | undefined {
  if (!text) return undefined;
  const m = /^(.*?):(\d+)$/.exec(text);
  const file = m ? m[1] : text;
  if (!file || /^[a-z]+:\/\//i.test(file)) return undefined;
  return { kind: "engine", file, line: m ? Number(m[2]) : 1 };
}

/** A call site as the trace reports it: a cell URI or an absolute path. */
export function callSiteRef(site: { file: string; line: number; column: number } | null | undefined): SourceRef | undefined {
  if (!site) return undefined;
  if (site.file.startsWith("vscode-notebook-cell:")) return { kind: "cell", uri: site.file, line: site.line, column: site.column };
  if (site.file.startsWith("/") || /^[A-Za-z]:[\\/]/.test(site.file)) return { kind: "file", path: site.file, line: site.line, column: site.column };
  if (site.file.startsWith("file://")) return { kind: "file", path: decodeURIComponent(new URL(site.file).pathname), line: site.line, column: site.column };
  return undefined;
}

/** The file name a PyTorch ref ends in ("torch/csrc/autograd/generated/VariableType_*.cpp" -> "VariableType_*.cpp"). */
export function baseName(path: string): string {
  return path.slice(path.lastIndexOf("/") + 1);
}
