// The *.nb.ts scratch-notebook format: plain TypeScript with `// %%` cell markers.
//
//   // %% optional title            a code cell
//   // %% [markdown] optional title  a markdown cell, its lines written as `// ` comments
//
// Text before the first marker is a code cell without a marker, and so is code that follows a
// markdown cell's comment lines. Parsing keeps whatever the cells' values cannot say (the marker
// lines as written, line endings, the blank lines between cells, comment spacing) in a per-cell
// layout, so that an unedited notebook is written back byte for byte and an edited cell keeps the
// layout around it. Pure functions, no `vscode`: the serializer wraps them and the tests drive them.

export type CellKind = "code" | "markdown";

/** How a cell was written in the file, beyond its value. Stored in the cell's metadata. */
export interface CellLayout {
  /** Text before the marker that belongs to no cell (whitespace before the first marker). */
  leading?: string;
  /** The marker line as written, without its line ending; absent when the cell had none. */
  marker?: string;
  /** The marker line's ending ("" only at the end of the file). */
  markerEol: string;
  /** The line ending the cell's value is written with. */
  eol: string;
  /** The body exactly as written, kept only when writing the value back would differ from it. */
  raw?: string;
  /** The line breaks and blank lines after the body, up to the next cell. */
  suffix: string;
}

export interface CellRecord {
  kind: CellKind;
  /** What the cell editor shows: "\n" line endings, markdown without the comment prefix. */
  value: string;
  layout?: CellLayout;
}

const MARKER = /^\/\/ %%(?=[ \t]|$)/;
const MARKDOWN_MARKER = /^\/\/ %%[ \t]*\[markdown\]/;
const LINE_BREAK = /\r\n|\r|\n/g;

interface Line {
  text: string;
  eol: string;
}

export function isMarkerLine(text: string): boolean {
  return MARKER.test(text);
}

function splitLines(text: string): Line[] {
  const lines: Line[] = [];
  let start = 0;
  for (const m of text.matchAll(LINE_BREAK)) {
    lines.push({ text: text.slice(start, m.index), eol: m[0] });
    start = m.index + m[0].length;
  }
  if (start < text.length) lines.push({ text: text.slice(start), eol: "" });
  return lines;
}

const joinLines = (lines: Line[]): string => lines.map((l) => l.text + l.eol).join("");
const isBlank = (text: string): boolean => /^[ \t]*$/.test(text);
const isComment = (text: string): boolean => /^[ \t]*\/\//.test(text);

/** Splits a body into what the cell shows and the trailing line breaks / blank lines after it. */
function splitSuffix(body: string): { content: string; suffix: string } {
  const m = /(?:\r\n|\r|\n)[ \t\r\n]*$/.exec(body);
  if (!m) return { content: body, suffix: "" };
  return { content: body.slice(0, m.index), suffix: body.slice(m.index) };
}

function firstEol(text: string): string | undefined {
  return /\r\n|\r|\n/.exec(text)?.[0];
}

/** Writes a value the way the cell kind stores it, with the given line ending. */
export function renderBody(kind: CellKind, value: string, eol: string): string {
  const lines = value.split(/\r\n|\r|\n/);
  // "%% x" written as "// %% x" would be a marker; "//%% x" reads back the same and is not one.
  if (kind === "markdown") return lines.map((l) => (l === "" || isMarkerLine("// " + l) ? "//" : "// ") + l).join(eol);
  return lines.join(eol);
}

/** Reads a body the way the cell editor shows it. */
function valueOf(kind: CellKind, content: string): string {
  const lines = content.split(/\r\n|\r|\n/);
  if (kind === "markdown") return lines.map((l) => l.replace(/^[ \t]*\/\/ ?/, "")).join("\n");
  return lines.join("\n");
}

function makeCell(kind: CellKind, marker: Line | undefined, body: Line[], fileEol: string): CellRecord {
  const { content, suffix } = splitSuffix(joinLines(body));
  const eol = firstEol(content) ?? firstEol(suffix) ?? (marker?.eol || fileEol);
  const value = valueOf(kind, content);
  const layout: CellLayout = { markerEol: marker?.eol ?? "", eol, suffix };
  if (marker) layout.marker = marker.text;
  if (renderBody(kind, value, eol) !== content) layout.raw = content;
  return { kind, value, layout };
}

/** Parses a *.nb.ts file into cells. `serialize(parse(text)) === text` for every text. */
export function parse(text: string): CellRecord[] {
  const lines = splitLines(text);
  const fileEol = firstEol(text) ?? "\n";
  const cells: CellRecord[] = [];
  let i = 0;
  // Text before the first marker: whitespace only rides along with the first cell, anything else
  // is a code cell of its own.
  let leading: string | undefined;
  const firstMarker = lines.findIndex((l) => isMarkerLine(l.text));
  const preambleEnd = firstMarker === -1 ? lines.length : firstMarker;
  if (preambleEnd > 0) {
    const preamble = lines.slice(0, preambleEnd);
    if (firstMarker !== -1 && preamble.every((l) => isBlank(l.text))) leading = joinLines(preamble);
    else cells.push(makeCell("code", undefined, preamble, fileEol));
    i = preambleEnd;
  }
  while (i < lines.length) {
    const marker = lines[i];
    let end = i + 1;
    while (end < lines.length && !isMarkerLine(lines[end].text)) end++;
    const body = lines.slice(i + 1, end);
    if (MARKDOWN_MARKER.test(marker.text)) {
      // A markdown cell is its comment lines; code after them, before the next marker, is a code
      // cell without a marker of its own.
      const codeStart = body.findIndex((l) => !isBlank(l.text) && !isComment(l.text));
      if (codeStart === -1) cells.push(makeCell("markdown", marker, body, fileEol));
      else {
        cells.push(makeCell("markdown", marker, body.slice(0, codeStart), fileEol));
        cells.push(makeCell("code", undefined, body.slice(codeStart), fileEol));
      }
    } else {
      cells.push(makeCell("code", marker, body, fileEol));
    }
    i = end;
  }
  if (leading !== undefined && cells.length > 0) cells[0].layout!.leading = leading;
  return cells;
}

/** The marker written for a cell that has none (new cells, or cells whose kind changed). */
export function defaultMarker(kind: CellKind): string {
  return kind === "markdown" ? "// %% [markdown]" : "// %%";
}

function markerKindMatches(kind: CellKind, marker: string): boolean {
  return MARKDOWN_MARKER.test(marker) === (kind === "markdown");
}

/** Writes cells back as *.nb.ts text, keeping each cell's layout. */
export function serialize(cells: readonly CellRecord[]): string {
  const fileEol = cells.find((c) => c.layout)?.layout?.eol ?? "\n";
  let out = "";
  const endsWithBreak = () => out === "" || /[\r\n]$/.test(out);
  cells.forEach((cell, index) => {
    const last = index === cells.length - 1;
    const layout: CellLayout = cell.layout ?? { markerEol: fileEol, eol: fileEol, suffix: last ? fileEol : fileEol + fileEol };
    const eol = layout.eol || fileEol;
    // The raw body stands only for the value it was read as, in the kind it was read as.
    const readAs: CellKind = layout.marker !== undefined && MARKDOWN_MARKER.test(layout.marker) ? "markdown" : "code";
    const body =
      layout.raw !== undefined && readAs === cell.kind && valueOf(cell.kind, layout.raw) === cell.value
        ? layout.raw
        : renderBody(cell.kind, cell.value, eol);
    if (index === 0 && layout.leading) out += layout.leading;
    // Cells stay apart: anything written after a cell starts on a new line.
    if (!endsWithBreak()) out += eol;
    let marker = layout.marker;
    if (marker !== undefined && !markerKindMatches(cell.kind, marker)) marker = defaultMarker(cell.kind);
    if (marker === undefined && !canOmitMarker(cells, index, body)) marker = defaultMarker(cell.kind);
    if (marker !== undefined) {
      const needsBreak = body !== "" || layout.suffix !== "" || !last;
      let markerEol = layout.markerEol || (needsBreak ? eol : "");
      // A lone "\r" before a body that starts with "\n" would read back as one "\r\n".
      if (markerEol === "\r" && (body + layout.suffix).startsWith("\n")) markerEol = eol === "\r" ? "\r\n" : eol;
      out += marker + markerEol;
    }
    out += body + layout.suffix;
  });
  return out;
}

/** A cell can go without a marker only where parsing gives it back as a cell of its own. */
function canOmitMarker(cells: readonly CellRecord[], index: number, body: string): boolean {
  const cell = cells[index];
  if (cell.kind !== "code") return false;
  const firstLine = body.split(/\r\n|\r|\n/)[0];
  if (isMarkerLine(firstLine)) return false;
  if (index === 0) return !/^[ \t\r\n]*$/.test(body) || cells.length === 1;
  return cells[index - 1].kind === "markdown" && !isBlank(firstLine) && !isComment(firstLine);
}
