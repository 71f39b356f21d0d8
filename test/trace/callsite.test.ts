import { describe, it, expect } from "vitest";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { DispatchKey as K } from "../../engine/c10/DispatchKey.js";
import { DispatchKeySet } from "../../engine/c10/DispatchKeySet.js";
import { TraceRecorder, captureCallSite, type CallEvent, type DispatchObserver } from "../../engine/trace/index.js";
import { firstUserFrame, parseStack } from "../../engine/trace/callsite.js";
import { addOp, cpuKernel, dispatchAdd, dispatchAddDeep, step } from "./fakes.js";

const thisFile = fileURLToPath(import.meta.url);
const source = readFileSync(thisFile, "utf8").split("\n");

/** 1-based line and column of `needle` on the line that carries `marker`. */
function where(marker: string, needle: string): { file: string; line: number; column: number } {
  const i = source.findIndex((l) => l.includes(marker) && !l.includes("where("));
  return { file: thisFile, line: i + 1, column: source[i].indexOf(needle) + 1 };
}

// The "user code": a function of this test that enters the dispatcher itself.
function userAdd(obs: DispatchObserver): void {
  const id = obs.onDispatch(step(addOp, [], K.CPU, DispatchKeySet.of(K.CPU), cpuKernel)); // MARK-USER-ADD
  obs.onReturn(id, null);
}

// Type annotations before the call on the same line move its column in the transpiled code, so
// only a source-mapped position matches the column in this file.
function userAddTyped(obs: DispatchObserver): void {
  const keys: DispatchKeySet = DispatchKeySet.of(K.CPU), id: number = obs.onDispatch(step(addOp, [] as unknown[], K.CPU, keys, cpuKernel)); // MARK-TYPED
  obs.onReturn(id, null);
}

const firstCall = (rec: TraceRecorder) => rec.events().find((e): e is CallEvent => e.type === "call")!;

describe("call sites", () => {
  it("point at the user's line: the first frame outside engine/", () => {
    const rec = new TraceRecorder();
    userAdd(rec);
    expect(firstCall(rec).callSite).toEqual(where("MARK-USER-ADD", "onDispatch"));
  });

  it("are source-mapped: the column is the .ts column even after type annotations", () => {
    const rec = new TraceRecorder();
    userAddTyped(rec);
    expect(firstCall(rec).callSite).toEqual(where("MARK-TYPED", "onDispatch"));
  });

  it("frames of a layer the host names as not the user's are skipped too", () => {
    const rec = new TraceRecorder({ skipFrame: (f) => f.endsWith("fakes.ts") });
    dispatchAdd(rec, null, null, null); // MARK-VIA-FAKES
    expect(firstCall(rec).callSite).toEqual(where("MARK-VIA-FAKES", "dispatchAdd"));
  });

  it("are found below a deep stack of non-user frames", () => {
    const rec = new TraceRecorder({ skipFrame: (f) => f.endsWith("fakes.ts") });
    dispatchAddDeep(40, rec); // MARK-DEEP
    expect(firstCall(rec).callSite).toEqual(where("MARK-DEEP", "dispatchAddDeep"));
  });

  it("are off when asked", () => {
    const rec = new TraceRecorder({ callSites: false });
    userAdd(rec);
    expect(firstCall(rec).callSite).toBeNull();
  });

  it("captureCallSite from test code is the test's own line", () => {
    const here = captureCallSite(); // MARK-DIRECT
    expect(here).toEqual(where("MARK-DIRECT", "captureCallSite"));
  });

  it("parse V8 frames of every shape", () => {
    const stack = [
      "Error: x",
      "    at fn (/a/b.js:1:2)",
      "    at /a/c.js:3:4",
      "    at async Foo.bar (file:///a/d.mjs:5:6)",
      "    at new Promise (<anonymous>)",
      "    at C:\\win\\e.js:7:8",
    ].join("\n");
    expect(parseStack(stack)).toEqual([
      { file: "/a/b.js", line: 1, column: 2 },
      { file: "/a/c.js", line: 3, column: 4 },
      { file: "file:///a/d.mjs", line: 5, column: 6 },
      { file: "C:\\win\\e.js", line: 7, column: 8 },
    ]);
  });

  describe("through source maps (a user's compiled TypeScript)", () => {
    const userTs = ["type Opts = { alpha: number };", "", "export function run(o: Opts): number {", "  const x: number = o.alpha;", "  return go(x);", "}", ""].join("\n");
    const engineFrame = `    at Dispatcher.call (${resolve(thisFile, "../../../engine/dispatcher/Dispatcher.js")}:10:5)`;
    const distFrame = `    at add (file://${resolve(thisFile, "../../../dist/engine/generated/torch.js")}:3:1)`;

    function compile(inline: boolean): { js: string; pos: { line: number; column: number } } {
      const dir = mkdtempSync(join(tmpdir(), "glasstorch-callsite-"));
      const out = ts.transpileModule(userTs, {
        fileName: join(dir, "src", "user.ts"),
        compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ES2022, sourceMap: !inline, inlineSourceMap: inline },
      });
      const js = join(dir, "user.js");
      let text = out.outputText;
      if (!inline) {
        const map = JSON.parse(out.sourceMapText!);
        map.sources = ["src/user.ts"];
        writeFileSync(js + ".map", JSON.stringify(map));
        text = text.replace(/\/\/# sourceMappingURL=.*$/m, "//# sourceMappingURL=user.js.map");
      }
      writeFileSync(js, text);
      const lines = text.split("\n");
      const i = lines.findIndex((l) => l.includes("return go("));
      return { js, pos: { line: i + 1, column: lines[i].indexOf("go(") + 1 } };
    }

    it("an external .map file maps a .js frame to the .ts line", () => {
      const { js, pos } = compile(false);
      const stack = ["Error", engineFrame, distFrame, "    at node:internal/x:1:1", `    at run (${js}:${pos.line}:${pos.column})`].join("\n");
      const loc = firstUserFrame(stack)!;
      expect(loc.file).toBe(join(js, "..", "src", "user.ts"));
      expect(loc.line).toBe(5);
      expect(loc.column).toBe(userTs.split("\n")[4].indexOf("go(") + 1);
    });

    it("an inline (data: URL) map works the same", () => {
      const { js, pos } = compile(true);
      const loc = firstUserFrame(`Error\n${engineFrame}\n    at run (file://${js}:${pos.line}:${pos.column})`)!;
      expect(loc.file.endsWith("user.ts")).toBe(true);
      expect(loc.line).toBe(5);
    });

    it("a frame without a map is reported as it is", () => {
      expect(firstUserFrame(`Error\n${engineFrame}\n    at x (/nonexistent/app.js:7:9)`)).toEqual({ file: "/nonexistent/app.js", line: 7, column: 9 });
    });

    it("a stack of engine frames only has no call site", () => {
      expect(firstUserFrame(`Error\n${engineFrame}\n${distFrame}`)).toBeNull();
    });
  });
});
