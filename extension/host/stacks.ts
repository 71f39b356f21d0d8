// Stack traces that name the user's cells: the host's Error.prepareStackTrace maps frames of cell
// scripts through their transpile source maps (to "cellUri:line:column") and frames of this bundle
// through its own source map (to the engine's .ts files). The engine's call-site capture
// (engine/trace/callsite.ts) formats the frame it picks with the host's prepareStackTrace, so trace
// events name cell lines too.

import { SourceMap } from "node:module";
import { mapThroughSourceMap } from "../../engine/trace/callsite.js";

export interface CellLocation {
  cellUri: string;
  line: number;
  column: number;
}

interface CellScript {
  cellUri: string;
  map: SourceMap;
  lineOffset: number;
}

/** Scripts of past runs; closures made in an old run can still throw later, so keep a good many. */
const scripts = new Map<string, CellScript>();
const MAX_SCRIPTS = 2000;

/** The first cell frame of each formatted error (read by the host when it reports the error). */
const firstCellFrame = new WeakMap<object, CellLocation>();

export function registerCellScript(filename: string, cellUri: string, sourceMap: string, lineOffset: number): void {
  const map = new SourceMap(JSON.parse(sourceMap));
  scripts.set(filename, { cellUri, map, lineOffset });
  if (scripts.size > MAX_SCRIPTS) scripts.delete(scripts.keys().next().value as string);
}

export function isCellScript(file: string): boolean {
  return scripts.has(file);
}

/** A script position (1-based) -> the cell's line and column (1-based), or null outside the cell. */
export function mapCellPosition(file: string, line: number, column: number): CellLocation | null {
  const s = scripts.get(file);
  if (!s) return null;
  const genLine = line - 1 - s.lineOffset; // 0-based line in TypeScript's output
  if (genLine < 0) return null;
  const e = s.map.findEntry(genLine, Math.max(0, column - 1)) as { originalLine?: number; originalColumn?: number };
  if (e?.originalLine === undefined || e.originalColumn === undefined) return null;
  return { cellUri: s.cellUri, line: e.originalLine + 1, column: e.originalColumn + 1 };
}

/** Where an error was raised in the user's cells (its first cell frame), once its stack was formatted. */
export function cellLocationOf(err: unknown): CellLocation | undefined {
  if (err === null || typeof err !== "object") return undefined;
  void (err as { stack?: unknown }).stack; // formats the stack (lazily, through prepareStackTrace below)
  return firstCellFrame.get(err);
}

/** The file name of this bundle's frames (set by main), mapped through the bundle's own source map. */
let bundleFile: string | null = null;

function formatFrame(site: NodeJS.CallSite): { text: string; cell: CellLocation | null } {
  const text = String(site);
  const file = site.getFileName() ?? site.getScriptNameOrSourceURL();
  const line = site.getLineNumber();
  const column = site.getColumnNumber();
  if (!file || line === null || column === null) return { text, cell: null };
  const raw = `${file}:${line}:${column}`;
  const cell = mapCellPosition(file, line, column);
  if (cell) return { text: text.replace(raw, `${cell.cellUri}:${cell.line}:${cell.column}`), cell };
  if (file === bundleFile) {
    const m = mapThroughSourceMap({ file, line, column });
    if (m.file !== file) return { text: text.replace(raw, `${m.file}:${m.line}:${m.column}`), cell: null };
  }
  return { text, cell: null };
}

function header(err: Error): string {
  let name: string;
  let message: string;
  try {
    name = err.name === undefined ? "Error" : String(err.name);
    message = err.message === undefined ? "" : String(err.message);
  } catch {
    return "Error";
  }
  if (!name) return message;
  return message ? `${name}: ${message}` : name;
}

/** Loads the bundle's source map now (formatting a stack with a bundle frame does), so the first user error is not slow. */
export function warmUpStackMapping(): void {
  void new Error("warm-up").stack;
}

/** Installs the host's stack formatter. `bundle` is this process's own script (its frames are mapped to the engine). */
export function installStackMapping(bundle: string | null): void {
  bundleFile = bundle;
  Error.prepareStackTrace = (err: Error, sites: NodeJS.CallSite[]): string => {
    const lines = [header(err)];
    let first: CellLocation | null = null;
    for (const site of sites) {
      const { text, cell } = formatFrame(site);
      if (cell && !first) first = cell;
      lines.push(`    at ${text}`);
    }
    if (first && err !== null && typeof err === "object") firstCellFrame.set(err, first);
    return lines.join("\n");
  };
}

/**
 * The stack as the user should see it: frames up to the last cell frame (the host's own frames that
 * called the cell are dropped); the whole stack when no cell frame is in it.
 */
export function userStack(stack: string, cellUris: (uri: string) => boolean): string {
  const lines = stack.split("\n");
  let last = -1;
  lines.forEach((l, i) => {
    const m = /^\s+at (?:.*? \()?(.+?):\d+:\d+\)?$/.exec(l);
    if (m && cellUris(m[1])) last = i;
  });
  return last < 0 ? stack : lines.slice(0, last + 1).join("\n");
}
