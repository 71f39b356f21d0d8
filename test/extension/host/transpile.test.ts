// The engine host's cell transpile (extension/host/transpile.ts) and the session semantics it gives
// (extension/host/session.ts), in process: declarations persist across cells, a cell can be run
// again, const stays const, imports and top-level await work, the last expression is the value.

import { describe, expect, it } from "vitest";
import * as torch from "../../../engine/index.js";
import { CellSyntaxError, transpileCell } from "../../../extension/host/transpile.js";
import { NotebookSession } from "../../../extension/host/session.js";
import { mapCellPosition } from "../../../extension/host/stacks.js";

const uri = (i: number) => `vscode-notebook-cell:/tmp/t.nb.ts#W${i}`;

function session(): { run: (code: string, cell?: number) => Promise<unknown>; s: NotebookSession } {
  const s = new NotebookSession(torch, process.cwd());
  return { s, run: (code, cell = 0) => s.start(s.compile(code, uri(cell))) };
}

describe("transpileCell", () => {
  it("rewrites top-level declarations into session bindings and returns the last expression", () => {
    const t = transpileCell("const x: number = 1, { a, b: [c] } = o;\nvar v = 2;\nx + v", "cell.ts", "k");
    expect(t.declared).toEqual(["x", "a", "c", "v"]);
    expect(t.code).toContain('__gt.bind("const", { x, a, c });');
    expect(t.code).toContain("let v = 2;"); // var would be hoisted to the wrapper and shadow the session
    expect(t.code).toContain('__gt.bind("let", { v });');
    expect(t.code).toContain("return x + v;");
    expect(t.code).not.toContain(": number"); // types stripped
  });

  it("binds hoisted functions first, and classes and enums after they are defined", () => {
    const t = transpileCell("f();\nfunction f() { return 1 }\nclass C {}\nenum E { A }", "cell.ts", "k");
    const code = t.code;
    expect(code.indexOf('__gt.bind("let", { f });')).toBeLessThan(code.indexOf("f();"));
    expect(code).toMatch(/class C \{\s*\}\s*__gt\.bind\("let", \{ C \}\);/);
    expect(t.declared).toEqual(["f", "C", "E"]);
  });

  it("turns imports (static and dynamic) into calls the session resolves; type-only imports vanish", () => {
    const t = transpileCell(
      'import * as torch from "glasstorch";\nimport d, { tensor as T } from "glasstorch";\nimport type { X } from "y";\nconst p = await import("node:path");',
      "cell.ts",
      "k",
    );
    expect(t.code).toContain('await __gt.import("glasstorch")');
    expect(t.code).toContain('"torch": __gt_m');
    expect(t.code).toContain('"d": __gt.defaultOf(__gt_m)');
    expect(t.code).toContain('"T": __gt_m.tensor');
    expect(t.code).toContain('await __gt.import("node:path")');
    expect(t.code).not.toContain('"y"');
    expect(t.declared).toEqual(["torch", "d", "T", "p"]);
  });

  it("reports TypeScript's syntax errors with the cell's line and column", () => {
    let err: unknown;
    try {
      transpileCell("const a = 1;\nconst = 2;", "cell.ts", "k");
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(CellSyntaxError);
    expect((err as CellSyntaxError).diagnostics[0]).toMatchObject({ message: "Variable declaration expected.", line: 2, column: 7 });
  });

  it("keeps a source map from the script back to the cell", () => {
    const src = "const a = 1;\n\nconst b: string = (a as any).nope.deeper;";
    const s = new NotebookSession(torch, process.cwd());
    const cell = s.compile(src, uri(7));
    // The same transpile the session did: find `nope` in the script and map it back (cell line 3, column 30).
    const script = transpileCell(src, uri(7), "k").code.split("\n");
    const line = script.findIndex((l) => l.includes(".nope.deeper"));
    const column = script[line].indexOf("nope");
    expect(mapCellPosition(cell.filename, line + 1, column + 1)).toEqual({ cellUri: uri(7), line: 3, column: 30 });
  });
});

describe("NotebookSession", () => {
  it("shares top-level declarations between cells and gives the last expression's value", async () => {
    const { run } = session();
    expect(await run("const x = 2;\nlet y = 3;\nfunction sq(n: number) { return n * n }")).toBeUndefined();
    expect(await run("sq(x) + y", 1)).toBe(7);
    expect(await run("y = 10; class P { v = x }", 2)).toBeUndefined();
    expect(await run("new P().v + y", 3)).toBe(12);
  });

  it("runs a cell that declares a const again without 'already declared', and keeps const read-only", async () => {
    const { run } = session();
    await run("const x = 1;");
    await run("const x = 5;");
    expect(await run("x")).toBe(5);
    await expect(run("x = 6")).rejects.toThrow(new TypeError("Assignment to constant variable."));
    expect(await run("x")).toBe(5);
    await run("let x = 7;"); // a later cell may declare the name again with another kind, as a REPL allows
    expect(await run("x = 8; x")).toBe(8);
  });

  it("closures see later changes to session bindings, and destructuring binds every name", async () => {
    const { run } = session();
    await run("let n = 0;\nconst inc = () => ++n;");
    await run("inc(); inc();");
    expect(await run("n")).toBe(2);
    await run("const { a, b: [c, , d = 9] } = { a: 1, b: [2, 3] };");
    expect(await run("[a, c, d]")).toEqual([1, 2, 9]);
  });

  it("keeps `using` declarations to the cell: disposed when the cell ends", async () => {
    const { run } = session();
    await run("const log: string[] = [];\nconst res = (name: string) => ({ name, [Symbol.dispose]() { log.push(name) } });");
    expect(await run('using r = res("r");\nlog.length')).toBe(0);
    expect(await run("log")).toEqual(["r"]);
    expect(await run("typeof r")).toBe("undefined");
  });

  it("supports top-level await and imports: glasstorch (namespace, named, default) and node built-ins", async () => {
    const { run } = session();
    expect(await run('import * as torch from "glasstorch";\nconst t = await Promise.resolve(torch.ones(2));\nt.sum().item()')).toBe(2);
    expect(await run('import { zeros, float64 as f64 } from "glasstorch";\nString(zeros(1, { dtype: f64 }))')).toBe("tensor([0.], dtype=torch.float64)");
    expect(await run('import gt from "glasstorch";\ngt === torch')).toBe(true);
    expect(await run('import { basename } from "node:path";\nimport * as os from "os";\nbasename("/a/b.txt") + typeof os.cpus')).toBe("b.txtfunction");
    expect(await run('const fs = await import("node:fs");\ntypeof fs.readFileSync')).toBe("function");
  });

  it("resolves relative imports from the notebook's folder", async () => {
    const { mkdtempSync, writeFileSync } = await import("node:fs");
    const { join } = await import("node:path");
    const { tmpdir } = await import("node:os");
    const dir = mkdtempSync(join(tmpdir(), "gt-nb-"));
    writeFileSync(join(dir, "helper.cjs"), "module.exports = { twice: (x) => 2 * x };");
    const { s, run } = session();
    s.setCwd(dir);
    expect(await run('import { twice } from "./helper.cjs";\ntwice(21)')).toBe(42);
  });
});
