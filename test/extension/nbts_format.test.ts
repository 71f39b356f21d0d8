// The *.nb.ts format: byte-exact round trips of any text, and edits that come back as edited.
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { parse, serialize, type CellRecord } from "../../extension/src/notebook/nbts_format.js";

const roundTrip = (text: string) => serialize(parse(text));
const view = (cells: CellRecord[]) => cells.map((c) => [c.kind, c.value]);

describe("nb.ts parse", () => {
  it("splits at markers; markdown cells lose their comment prefix", () => {
    const text = "// %% [markdown]\n// # Title\n//\n// text\n\n// %%\nconst x = 1;\nx\n\n// %% second\ny\n";
    expect(view(parse(text))).toEqual([
      ["markdown", "# Title\n\ntext"],
      ["code", "const x = 1;\nx"],
      ["code", "y"],
    ]);
    expect(roundTrip(text)).toBe(text);
  });

  it("keeps text before the first marker as a cell, and blank lines before it as layout", () => {
    expect(view(parse("import * as torch from \"glasstorch\";\n\n// %%\nx\n"))).toEqual([
      ["code", 'import * as torch from "glasstorch";'],
      ["code", "x"],
    ]);
    const blankFirst = "\n\n// %%\nx\n";
    expect(view(parse(blankFirst))).toEqual([["code", "x"]]);
    expect(roundTrip(blankFirst)).toBe(blankFirst);
  });

  it("a file without markers is one cell; an empty file has none", () => {
    expect(view(parse("let a = 1\nlet b = 2"))).toEqual([["code", "let a = 1\nlet b = 2"]]);
    expect(parse("")).toEqual([]);
    expect(serialize([])).toBe("");
  });

  it("code after a markdown cell's comments is a code cell of its own", () => {
    const text = "// %% [markdown]\n// note\n\nconst y = 2;\n// %%\nz";
    expect(view(parse(text))).toEqual([["markdown", "note"], ["code", "const y = 2;"], ["code", "z"]]);
    expect(roundTrip(text)).toBe(text);
  });

  it("only `// %%` followed by a space, a tab or the line end is a marker", () => {
    expect(view(parse("a\n// %%x\n//%%\n // %%\nb"))).toEqual([["code", "a\n// %%x\n//%%\n // %%\nb"]]);
  });

  it("round-trips CRLF, mixed line endings, trailing whitespace, a BOM and a missing final newline", () => {
    for (const text of [
      "// %%\r\nconst a = 1;\r\n\r\n// %% [markdown]\r\n// hi\r\n",
      "// %%\r\na\nb\r\n\n// %%\rc",
      "\uFEFF// %% t\nx  \n  \n\t\n",
      "// %%",
      "// %%\n",
      "// %%\n// %%\n// %%",
      "// %% [markdown]\n//no space\n  //   indented\n",
      "// %%   [markdown]   title  \n// a\n",
    ]) {
      expect(roundTrip(text)).toBe(text);
    }
  });

  it("edited cells keep the file's line endings and the blank lines between cells", () => {
    const cells = parse("// %%\r\nconst a = 1;\r\n\r\n// %% [markdown]\r\n// hi\r\n");
    cells[0].value = "const a = 2;\nconst b = 3;";
    cells[1].value = "hi\n\nthere";
    expect(serialize(cells)).toBe("// %%\r\nconst a = 2;\r\nconst b = 3;\r\n\r\n// %% [markdown]\r\n// hi\r\n//\r\n// there\r\n");
  });

  it("new cells get a marker and a blank line; a changed kind gets that kind's marker", () => {
    const cells = parse("// %% first\na\n");
    cells.push({ kind: "code", value: "b" });
    expect(serialize(cells)).toBe("// %% first\na\n// %%\nb\n");
    cells.unshift({ kind: "markdown", value: "# T" });
    expect(serialize(cells)).toBe("// %% [markdown]\n// # T\n\n// %% first\na\n// %%\nb\n");
    const changed = parse("// %% first\na\n");
    changed[0].kind = "markdown";
    expect(serialize(changed)).toBe("// %% [markdown]\n// a\n");
  });

  it("a cell moved away from the top gets a marker instead of merging into its neighbour", () => {
    const cells = parse("pre\n// %%\na\n");
    const moved = [cells[1], cells[0]];
    expect(view(parse(serialize(moved)))).toEqual([["code", "a"], ["code", "pre"]]);
  });
});

// ---- properties ---------------------------------------------------------------------------------

const eol = fc.constantFrom("\n", "\r\n", "\r", "");
const lineText = fc.oneof(
  fc.constantFrom("// %%", "// %% [markdown]", "// %% title", "// %%\t[markdown] md title", "//", "// text", "", "  ", "\t",
    "//%%", "// %%x", "code();", "  // indented", "\uFEFF", "const x = 1;  "),
  fc.string({ maxLength: 12 }),
);
/** Texts made of lines likely to be markers, comments, blanks and code, with any line endings. */
const structuredText = fc.array(fc.tuple(lineText, eol), { maxLength: 14 }).map((ls) => ls.map(([t, e]) => t + e).join(""));

describe("nb.ts round trip (property)", () => {
  it("serialize(parse(text)) === text for arbitrary strings", () => {
    fc.assert(fc.property(fc.string({ unit: "binary", maxLength: 80 }), (t) => roundTrip(t) === t), { numRuns: 2000 });
  });

  it("serialize(parse(text)) === text for marker-heavy texts", () => {
    fc.assert(fc.property(structuredText, (t) => roundTrip(t) === t), { numRuns: 4000 });
  });

  it("parsing is stable: parse(serialize(parse(text))) gives the same cells", () => {
    fc.assert(fc.property(structuredText, (t) => {
      const once = parse(t);
      expect(view(parse(serialize(once)))).toEqual(view(once));
    }), { numRuns: 2000 });
  });
});

// Values a user can type into a cell editor: "\n" line endings, no line that is itself a marker,
// and no trailing blank lines (the format keeps those as spacing between cells, not in the cell).
const safeLine = fc.string({ maxLength: 10 }).filter((s) => !/[\r\n]/.test(s) && !/^\/\/ %%(?=[ \t]|$)/.test(s));
const codeValue = fc.array(safeLine, { maxLength: 4 }).map((ls) => ls.join("\n")).filter((v) => !/\n[ \t\n]*$/.test(v));
const markdownValue = fc.array(safeLine, { maxLength: 4 }).map((ls) => ls.join("\n"));
const newCell: fc.Arbitrary<CellRecord> = fc.oneof(
  codeValue.map((value) => ({ kind: "code" as const, value })),
  markdownValue.map((value) => ({ kind: "markdown" as const, value })),
);

type Edit =
  | { op: "set"; at: number; value: string }
  | { op: "insert"; at: number; cell: CellRecord }
  | { op: "delete"; at: number }
  | { op: "move"; at: number; to: number }
  | { op: "kind"; at: number };
const edit: fc.Arbitrary<Edit> = fc.oneof(
  fc.record({ op: fc.constant("set" as const), at: fc.nat(), value: codeValue }),
  fc.record({ op: fc.constant("insert" as const), at: fc.nat(), cell: newCell }),
  fc.record({ op: fc.constant("delete" as const), at: fc.nat() }),
  fc.record({ op: fc.constant("move" as const), at: fc.nat(), to: fc.nat() }),
  fc.record({ op: fc.constant("kind" as const), at: fc.nat() }),
);

function applyEdit(cells: CellRecord[], e: Edit): void {
  if (e.op === "insert") return void cells.splice(e.at % (cells.length + 1), 0, { ...e.cell });
  if (cells.length === 0) return;
  const at = e.at % cells.length;
  if (e.op === "set") cells[at] = { ...cells[at], value: e.value };
  else if (e.op === "delete") cells.splice(at, 1);
  else if (e.op === "move") cells.splice(e.to % cells.length, 0, ...cells.splice(at, 1));
  // Markdown becomes code only when its value is one a code cell can hold.
  else if (cells[at].kind === "code") cells[at] = { ...cells[at], kind: "markdown" };
  else if (!/\n[ \t\n]*$/.test(cells[at].value)) cells[at] = { ...cells[at], kind: "code" };
}

/** Cells that a file can hold as typed: code without trailing blank lines, markdown anything. */
function representable(c: CellRecord): boolean {
  if (c.kind === "markdown") return !/[\r]/.test(c.value);
  return !/[\r]/.test(c.value) && !/\n[ \t\n]*$/.test(c.value) && !c.value.split("\n").some((l) => /^\/\/ %%(?=[ \t]|$)/.test(l));
}

describe("nb.ts edits (property)", () => {
  it("after any edits, reading the saved text back gives the edited cells", () => {
    fc.assert(fc.property(structuredText, fc.array(edit, { maxLength: 6 }), (text, edits) => {
      const cells = parse(text);
      // Cells read from arbitrary text may hold values no editor produces (blank-only code cells
      // that only exist as whitespace); start from a notebook whose cells a user could have typed.
      fc.pre(cells.every(representable) && cells.every((c) => c.kind === "markdown" || c.value.trim() !== "" || cells.length === 1));
      for (const e of edits) applyEdit(cells, e);
      fc.pre(cells.every(representable));
      // The one thing a file cannot tell apart: a lone empty code cell and no cells (both "").
      const lone = cells.length === 1 && cells[0].kind === "code" && cells[0].value === "" && !cells[0].layout?.marker;
      expect(view(parse(serialize(cells)))).toEqual(lone && serialize(cells) === "" ? [] : view(cells));
    }), { numRuns: 3000 });
  });

  it("untouched cells keep their exact text when another cell is edited", () => {
    fc.assert(fc.property(structuredText, fc.nat(), codeValue, (text, at, value) => {
      const cells = parse(text);
      fc.pre(cells.length >= 2 && cells.every((c) => c.layout!.raw === undefined));
      const i = at % cells.length;
      fc.pre(cells[i].kind === "code");
      const before = serialize(cells.slice(0, i));
      cells[i] = { ...cells[i], value };
      fc.pre(representable(cells[i]));
      expect(serialize(cells).startsWith(before)).toBe(true);
    }), { numRuns: 2000 });
  });
});
