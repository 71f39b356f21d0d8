// The printed trace of `glasstorch trace`. The text sink's printer already draws the tree (each
// call indented under the step whose kernel made it, with its redispatches and details), so this
// file only adds what a script run needs on top: notebook cell headings between top-level calls.

import type { CallEvent, TraceEvent } from "../trace/events.js";
import { TextPrinter, type TraceLevel } from "../trace/sinks/text.js";

/** A `// %%` cell of a .nb.ts notebook. Cell 0 is the code before the first marker. */
export interface Cell {
  index: number;
  /** 1-based line of the marker (1 for cell 0). */
  line: number;
  /** Text after `%%` on the marker line ("Training loop"), or "". */
  title: string;
}

// "// %%" at the start of a line, as Jupyter's percent format writes "# %%".
const markerRe = /^\s*\/\/\s*%%(.*)$/;

export function parseCells(source: string): Cell[] {
  const cells: Cell[] = [{ index: 0, line: 1, title: "" }];
  source.split(/\r?\n/).forEach((text, i) => {
    const m = markerRe.exec(text);
    if (m) cells.push({ index: cells.length, line: i + 1, title: m[1].trim() });
  });
  return cells;
}

/** The cell holding a 1-based line. */
export function cellOfLine(cells: readonly Cell[], line: number): Cell {
  let found = cells[0];
  for (const c of cells) if (c.line <= line) found = c;
  return found;
}

export function cellHeading(c: Cell): string {
  return `── cell ${c.index} (line ${c.line})${c.title ? `: ${c.title}` : ""} ──`;
}

export interface TreeOptions {
  level: TraceLevel;
  /** Notebook cells; without them the trace is printed as one tree. */
  cells?: readonly Cell[];
  /** The notebook line a top-level call ran from, or null when unknown. */
  lineOf?: (call: CallEvent) => number | null;
}

/**
 * The trace as printed lines. With cells, each top-level call goes under the heading of the cell
 * its line (lineOf) falls in. Cells run top to bottom and the trace stays in time order, so a call
 * placed in an earlier cell than the one running (a callback that fires late) stays in the running
 * cell, as do calls whose line is unknown.
 */
export function formatTree(events: readonly TraceEvent[], opts: TreeOptions): string[] {
  const lines: string[] = [];
  const printer = new TextPrinter(opts.level, (l) => lines.push(l));
  const cells = opts.cells;
  let current = -1; // index of the last heading printed
  const headTo = (target: number) => {
    // Cell 0 is only shown when something ran in it; marker cells are all shown, empty ones too.
    for (let i = Math.max(current + 1, 1); cells && i < target; i++) lines.push(cellHeading(cells[i]), "  (no dispatcher calls)");
    if (cells && target < cells.length) lines.push(cellHeading(cells[target]));
    current = target;
  };
  for (const e of events) {
    if (cells && e.type === "call" && e.parent === null) {
      const target = Math.max(current, cellIndexOf(e, cells, opts.lineOf) ?? current, 0);
      if (target !== current) headTo(target);
    }
    printer.onEvent(e);
  }
  if (cells) headTo(cells.length); // the cells after the last call, shown as empty
  return lines;
}

function cellIndexOf(e: CallEvent, cells: readonly Cell[], lineOf?: (call: CallEvent) => number | null): number | null {
  const line = lineOf ? lineOf(e) : null;
  return line === null ? null : cellOfLine(cells, line).index;
}
