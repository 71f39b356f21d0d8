// `glasstorch trace`: the real CLI (bin/glasstorch.mjs over dist/) run in a child process on the
// scripts in fixtures/. Needs the build (`npm test` builds first).
import { describe, it, expect, afterAll } from "vitest";
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../../", import.meta.url));
const bin = join(root, "bin/glasstorch.mjs");
const fixtures = fileURLToPath(new URL("./fixtures/", import.meta.url));
const scratch = mkdtempSync(join(tmpdir(), "glasstorch-cli-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

// Each test starts the CLI (TypeScript transpile + engine load) once or twice; on a loaded 2-core machine
// one start has taken 8 s, so the limit leaves room.
const TIMEOUT = 90_000;

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
  /** Temporary files this run left in fixtures/ or the scratch folder (they are named by its pid). */
  left: string[];
}

/** Runs `glasstorch trace ...args` (async, so that the tests can run side by side). */
function trace(...args: string[]): Promise<Run> {
  const child = spawn(process.execPath, [bin, "trace", ...args], { cwd: root, timeout: TIMEOUT });
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (d) => (stdout += d));
  child.stderr.setEncoding("utf8").on("data", (d) => (stderr += d));
  return new Promise((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr, left: [...tempsOf(fixtures, child.pid!), ...tempsOf(scratch, child.pid!)] }));
  });
}

/** "line:col" of `name` on the first fixture line containing `snippet` (1-based, as call sites are). */
function where(file: string, snippet: string, name: string): string {
  const lines = readFileSync(join(fixtures, file), "utf8").split("\n");
  const i = lines.findIndex((l) => l.includes(snippet));
  if (i < 0) throw new Error(`${snippet} not in ${file}`);
  return `${i + 1}:${lines[i].indexOf(name, lines[i].indexOf(snippet)) + 1}`;
}

/** `text` has the line `line`, possibly followed by more fields (", api=torch.add"). */
function expectLine(text: string, line: string): void {
  expect(text.split("\n").find((l) => l === line || l.startsWith(`${line}, `)), `a line "${line}"`).toBeDefined();
}

/** The temporary .mjs files the CLI with this pid wrote next to a script. */
function tempsOf(dir: string, pid: number): string[] {
  return readdirSync(dir).filter((f) => f.endsWith(`.glasstorch-trace-${pid}.mjs`));
}

describe.concurrent("glasstorch trace <file.ts>", () => {
  it("prints the dispatch trace as a tree with keys, kernels, provenance and the script's .ts lines", async () => {
    const r = await trace("test/cli/fixtures/basic.ts");
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    const out = r.stdout.split("\n");
    expect(out[0]).toBe("total=54 d=torch.Size([2, 3])"); // the script's own output comes first
    expect(out[1]).toBe("── dispatch trace of test/cli/fixtures/basic.ts: 10 calls, 6 from the script ──");
    // Top-level calls at the left margin, redispatches one deeper, calls made by kernels under them.
    const tree = out.filter((l) => /^\s*\[(call|redispatch)\]/.test(l));
    expect(tree).toEqual([
      "[call] op=[aten::ones], key=[BackendSelect]",
      " [redispatch] op=[aten::ones], key=[CPU]",
      "  [call] op=[aten::empty.memory_format], key=[BackendSelect]",
      "   [redispatch] op=[aten::empty.memory_format], key=[CPU]",
      "  [call] op=[aten::fill_.Scalar], key=[CPU]", // torch.ones runs below autograd, as torch:: factories do
      "[call] op=[aten::add.Tensor], key=[AutogradCPU]",
      " [redispatch] op=[aten::add.Tensor], key=[CPU]",
      "[call] op=[aten::mul.Tensor], key=[AutogradCPU]",
      " [redispatch] op=[aten::mul.Tensor], key=[CPU]",
      "[call] op=[aten::view], key=[AutogradCPU]",
      " [redispatch] op=[aten::view], key=[ADInplaceOrView]",
      "  [redispatch] op=[aten::view], key=[CPU]",
      "[call] op=[aten::sum], key=[AutogradCPU]",
      " [redispatch] op=[aten::sum], key=[CPU]",
      "  [call] op=[aten::sum.dim_IntList], key=[CPU]", // the autograd kernel excluded autograd for nested calls
      "[call] op=[cli_fixture::twice], key=[CPU]",
      " [call] op=[aten::add.Tensor], key=[AutogradCPU]",
      "  [redispatch] op=[aten::add.Tensor], key=[CPU]",
    ]);
    const text = r.stdout;
    expect(text).toContain("  args=(self=Tensor[2, 3] float32 cpu, other=Tensor[2, 3] float32 cpu, alpha=2)");
    expect(text).toContain("  kernel=VariableType::add_Tensor [autograd kernel] registered at engine/ops/native_functions.yaml:");
    expect(text).toContain("   kernel=native.add_out [kernel] registered at");
    expect(text).toContain("  kernel=cli_fixture::twice [default backend kernel] registered at");
    // The script's line and column in the .ts file, not in the transpiled JS.
    const at = (snippet: string, name: string) => `at=${join(fixtures, "basic.ts")}:${where("basic.ts", snippet, name)}`;
    expectLine(text, `  ${at("torch.ones(2, 3)", "ones")}`);
    expectLine(text, `  ${at("torch.add(a, a", "add")}`);
    expectLine(text, `  ${at("torch.mul(b, 3)", "mul")}`);
    expectLine(text, `  ${at(".view(3, 2)", "view")}`);
    expectLine(text, `  ${at("torch.sum(c)", "sum")}`);
    expectLine(text, `  ${at("twice.default.call(a)", "call")}`);
    expectLine(text, `   ${at("torch.add(x, x)", "add")}`); // inside the custom kernel
    expect(r.left).toEqual([]);
  }, TIMEOUT);

  it("--level 1 prints calls and keys only; --level 4 adds timings", async () => {
    const l1 = await trace("--level", "1", "test/cli/fixtures/basic.ts");
    expect(l1.code).toBe(0);
    expect(l1.stdout).toContain("[call] op=[aten::sum], key=[AutogradCPU]");
    expect(l1.stdout).not.toMatch(/^\s+(args|kernel|at)=/m);
    const l4 = await trace("--level=4", "test/cli/fixtures/basic.ts");
    expect(l4.code).toBe(0);
    expect(l4.stdout).toMatch(/\[return\] op=\[aten::sum\], dur=\d+\.\d{3}us/);
  }, TIMEOUT);

  it("--json and --chrome write the trace; --no-callsites leaves call sites out", async () => {
    const jsonl = join(scratch, "basic.jsonl");
    const chrome = join(scratch, "basic.json");
    const r = await trace("test/cli/fixtures/basic.ts", "--json", jsonl, `--chrome=${chrome}`);
    expect(r.code).toBe(0);
    const lines = readFileSync(jsonl, "utf8").trimEnd().split("\n").map((l) => JSON.parse(l));
    expect(lines[0]).toMatchObject({ type: "header", schemaVersion: 1, engine: "glasstorch", dropped: 0 });
    const calls = lines.filter((e) => e.type === "call");
    expect(calls.map((c) => c.name)).toEqual([
      "aten::ones", "aten::empty.memory_format", "aten::fill_.Scalar", "aten::add.Tensor", "aten::mul.Tensor",
      "aten::view", "aten::sum", "aten::sum.dim_IntList", "cli_fixture::twice", "aten::add.Tensor",
    ]);
    const sum = calls.find((c) => c.name === "aten::sum");
    expect(sum.callSite).toEqual({ file: join(fixtures, "basic.ts"), line: 8, column: 21 });
    expect(`${sum.callSite.line}:${sum.callSite.column}`).toBe(where("basic.ts", "torch.sum(c)", "sum"));
    const nested = calls[calls.length - 1];
    expect(nested).toMatchObject({ parent: calls[8].id, depth: 1 });

    const ct = JSON.parse(readFileSync(chrome, "utf8"));
    const slices = ct.traceEvents.filter((e: any) => e.ph === "X" && e.cat === "call").map((e: any) => e.name);
    expect(slices).toEqual(calls.map((c) => c.name));

    const off = await trace("--no-callsites", "--json", jsonl, "test/cli/fixtures/basic.ts");
    expect(off.code).toBe(0);
    expect(off.stdout).not.toMatch(/^\s+at=/m);
    const offCalls = readFileSync(jsonl, "utf8").trimEnd().split("\n").map((l) => JSON.parse(l)).filter((e) => e.type === "call");
    expect(offCalls.every((c) => c.callSite === null)).toBe(true);
  }, TIMEOUT);

  it("a script that throws: exit 1, the error at its .ts line, the trace up to the error", async () => {
    const r = await trace("test/cli/fixtures/throws.ts");
    expect(r.code).toBe(1);
    const msg = "RuntimeError: The size of tensor a (3) must match the size of tensor b (4) at non-singleton dimension 1";
    const err = r.stderr.split("\n");
    expect(err[0]).toBe(`test/cli/fixtures/throws.ts:${where("throws.ts", "torch.add(p, q)", "add")} - ${msg}`);
    expect(err[1]).toBe("  8 |   return torch.add(p, q);");
    expect(err[2]).toBe("    |                ^");
    expect(err[3]).toBe(`    at combine (${join(fixtures, "throws.ts")}:8:16)`);
    expect(err[4]).toContain(`${join(fixtures, "throws.ts")}:${where("throws.ts", "combine(a, b);", "combine")}`);
    expect(r.stderr).not.toMatch(/engine\/|node:internal|glasstorch-trace/); // only the script's frames
    expect(r.stdout).not.toContain("not reached");
    expect(r.stdout).toContain(` [error] op=[aten::add.Tensor], key=[CPU]: ${msg}`);
    expect(r.stdout).toContain(`[error] op=[aten::add.Tensor]: ${msg}`);
    expect(r.stdout.trimEnd().endsWith("(the script threw; the trace ends here)")).toBe(true);
    expect(r.left).toEqual([]);
  }, TIMEOUT);

  it("a script that calls process.exit keeps its exit code and still gets its trace", async () => {
    const r = await trace("--level", "1", "test/cli/fixtures/exits.ts");
    expect(r.code).toBe(3);
    expect(r.stdout).toContain("[call] op=[aten::ones], key=[BackendSelect]");
    expect(r.stdout).toContain("(the script called process.exit(3))");
    expect(r.left).toEqual([]);
  }, TIMEOUT);

  it("passes the arguments after -- to the script as process.argv", async () => {
    const file = join(scratch, "args.ts");
    writeFileSync(file, "const rest: string[] = process.argv.slice(2);\nconsole.log(JSON.stringify([process.argv[1], rest]));\n");
    const r = await trace(file, "--", "a", "--level", "b");
    expect(r.code).toBe(0);
    expect(r.stdout.split("\n")[0]).toBe(JSON.stringify([file, ["a", "--level", "b"]]));
  }, TIMEOUT);

  it("a syntax error is reported at its .ts position and nothing runs", async () => {
    const file = join(scratch, "syntax.ts");
    writeFileSync(file, 'console.log("ran");\nconst x: number = ;\n');
    const r = await trace(file);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toMatch(/syntax\.ts:2:19 - error TS1109: Expression expected\./);
    expect(r.left).toEqual([]);
  }, TIMEOUT);
});

describe.concurrent("glasstorch trace <file.nb.ts>", () => {
  it("groups top-level calls under a heading per cell, by the line each ran from", async () => {
    const r = await trace("--level", "1", "test/cli/fixtures/notebook.nb.ts");
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    const line = (marker: string) => where("notebook.nb.ts", marker, "//").split(":")[0];
    const out = r.stdout.split("\n").filter((l) => /^(── cell|  \(no|\[call\])/.test(l));
    expect(out).toEqual([
      `── cell 1 (line ${line("// %% Make tensors")}): Make tensors ──`,
      "[call] op=[aten::ones], key=[BackendSelect]",
      "[call] op=[aten::add.Tensor], key=[AutogradCPU]",
      `── cell 2 (line ${line("// %% Nothing traced")}): Nothing traced here ──`,
      "  (no dispatcher calls)",
      `── cell 3 (line ${line("// %% Reduce")}): Reduce ──`,
      // double() is defined above the first cell; it ran from cell 3, so its mul is shown there.
      "[call] op=[aten::mul.Tensor], key=[AutogradCPU]",
      "[call] op=[aten::view], key=[AutogradCPU]",
      "[call] op=[aten::sum], key=[AutogradCPU]",
    ]);
  }, TIMEOUT);

  it("keeps the cells without call sites, and shows each call's notebook line with them", async () => {
    const off = await trace("--level", "1", "--no-callsites", "test/cli/fixtures/notebook.nb.ts");
    expect(off.code).toBe(0);
    expect(off.stdout.split("\n").filter((l) => l.startsWith("── cell")).length).toBe(3);
    const on = await trace("test/cli/fixtures/notebook.nb.ts");
    const nb = join(fixtures, "notebook.nb.ts");
    expectLine(on.stdout, `  at=${nb}:${where("notebook.nb.ts", "torch.sum(z.view(4))", "sum")}`);
    expectLine(on.stdout, `  at=${nb}:${where("notebook.nb.ts", "torch.mul(t, 2)", "mul")}`);
    expect([...off.left, ...on.left]).toEqual([]);
  }, TIMEOUT);
});

describe.concurrent("glasstorch trace: usage", () => {
  it("--help prints the usage", async () => {
    const r = await trace("--help");
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Usage: glasstorch trace \[options\] <file\.ts \| file\.nb\.ts>/);
    expect(r.stdout).toMatch(/--level <1-4>[\s\S]*--json <out\.jsonl>[\s\S]*--chrome <out\.json>[\s\S]*--no-callsites/);
  }, TIMEOUT);

  it.each([
    [[], "missing the script to trace (a .ts or .nb.ts file)"],
    [["--bogus", "test/cli/fixtures/basic.ts"], "unknown option '--bogus'"],
    [["--level", "7", "test/cli/fixtures/basic.ts"], "--level must be 1, 2, 3 or 4, got '7'"],
    [["test/cli/fixtures/basic.ts", "--json"], "--json needs a value"],
    [["README.md"], "'README.md' is not a TypeScript file (.ts, .mts or .nb.ts)"],
    [["a.ts", "b.ts"], "one script at a time, got 'a.ts', 'b.ts' (put script arguments after --)"],
  ])("%j is a usage error", async (args, message) => {
    const r = await trace(...args);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain(`glasstorch trace: ${message}\n\nUsage: glasstorch trace`);
  }, TIMEOUT);

  it("a missing file and an unknown command are errors too", async () => {
    const r = await trace("test/cli/fixtures/nothere.ts");
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`glasstorch trace: no such file: ${join(fixtures, "nothere.ts")}\n`);
    const c = spawnSync(process.execPath, [bin, "frobnicate"], { encoding: "utf8" });
    expect(c.status).toBe(2);
    expect(c.stderr).toContain("glasstorch: unknown command 'frobnicate'");
  }, TIMEOUT);
});

describe("glasstorch trace: the temporary file", () => {
  // A script that never yields: only a signal ends it.
  const spin = join(scratch, "spin.ts");
  writeFileSync(spin, 'console.log("ready");\nwhile (true) {}\n');

  /** Starts the CLI in its own process group, waits for "ready", sends `signal` to `target`. */
  function interrupt(signal: NodeJS.Signals, target: "group" | "cli"): Promise<{ code: number | null; stderr: string; whileRunning: string[]; left: string[] }> {
    const child = spawn(process.execPath, [bin, "trace", spin], { cwd: root, detached: true, stdio: ["ignore", "pipe", "pipe"] });
    let stderr = "";
    let whileRunning: string[] = [];
    child.stderr.on("data", (d) => (stderr += d));
    // Never leave a spinning process behind, whatever happens to the test.
    const guard = setTimeout(() => process.kill(-child.pid!, "SIGKILL"), TIMEOUT - 5_000);
    child.on("close", () => clearTimeout(guard));
    return new Promise((resolve, reject) => {
      child.stdout.on("data", (d) => {
        if (!String(d).includes("ready")) return;
        whileRunning = tempsOf(scratch, child.pid!);
        process.kill(target === "group" ? -child.pid! : child.pid!, signal); // "group": as a terminal's Ctrl-C
      });
      child.on("error", reject);
      child.on("close", (code) => resolve({ code, stderr, whileRunning, left: tempsOf(scratch, child.pid!) }));
    });
  }

  it("is deleted on Ctrl-C, even in a loop that never yields (exit 130)", async () => {
    const r = await interrupt("SIGINT", "group");
    expect(r.whileRunning).toHaveLength(1);
    expect(r.whileRunning[0]).toMatch(/^\.spin\.ts\.glasstorch-trace-\d+\.mjs$/); // named by the CLI's pid
    expect(r.code).toBe(130);
    expect(r.stderr).toBe("glasstorch trace: interrupted\n");
    expect(r.left).toEqual([]);
  }, TIMEOUT);

  it("is deleted when only the CLI is signalled (the signal is passed on to the script)", async () => {
    const r = await interrupt("SIGTERM", "cli");
    expect(r.code).toBe(143);
    expect(r.stderr).toBe("glasstorch trace: stopped by SIGTERM\n");
    expect(r.left).toEqual([]);
  }, TIMEOUT);
});
