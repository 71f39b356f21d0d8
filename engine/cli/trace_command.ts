// `glasstorch trace <file.ts | file.nb.ts>`: runs a TypeScript script with the dispatch trace on
// and prints the trace as a tree (TORCH_SHOW_DISPATCH_TRACE, nested), per notebook cell for .nb.ts.
//
// Two processes, so that the temporary .mjs is always deleted: this one transpiles the script,
// writes it next to the user's file (so its relative imports and "glasstorch" resolve as they
// would for the user), runs it in a child Node and deletes the file when the child ends, however
// it ends: an error, process.exit() in the script, a Ctrl-C in a loop that never yields, a crash.
// The child (this same module, run as main) records, prints and exports the trace.

import { spawn } from "node:child_process";
import { existsSync, readFileSync, realpathSync, statSync, unlinkSync, writeFileSync } from "node:fs";
import { constants } from "node:os";
import { basename, dirname, join, relative, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { CallEvent } from "../trace/events.js";
import type { TraceLevel } from "../trace/sinks/text.js";

export const USAGE = `Usage: glasstorch trace [options] <file.ts | file.nb.ts> [-- script arguments]

Runs a TypeScript script with the dispatch trace on and prints every operator call as a tree:
the calls each kernel made nested under it, with its dispatch steps (keys, kernels, provenance)
and the script's line. A .nb.ts notebook (cells start at "// %%" lines) is run whole and its
trace is grouped by cell.

Options:
  --level <1-4>       detail: 1 calls and keys; 2 + arguments, key sets, TLS; 3 + kernels,
                      provenance, call sites (default); 4 + timings
  --json <out.jsonl>  also write the trace as JSON lines (header + one event per line)
  --chrome <out.json> also write a Chrome trace (chrome://tracing, ui.perfetto.dev)
  --no-callsites      do not capture the script's line for each call (faster)
  -h, --help          print this help
`;

export class UsageError extends Error {}

export interface TraceArgs {
  file: string;
  level: TraceLevel;
  json: string | null;
  chrome: string | null;
  callSites: boolean;
  /** Arguments after `--`, given to the script as process.argv.slice(2). */
  scriptArgs: string[];
}

/** Parses the arguments after `trace`; "help" for --help. Throws UsageError. */
export function parseTraceArgs(argv: readonly string[]): TraceArgs | "help" {
  const args: TraceArgs = { file: "", level: 3, json: null, chrome: null, callSites: true, scriptArgs: [] };
  const files: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--") {
      args.scriptArgs = argv.slice(i + 1);
      break;
    }
    if (a === "-h" || a === "--help") return "help";
    if (a === "--no-callsites") {
      args.callSites = false;
      continue;
    }
    const m = /^(--level|--json|--chrome)(?:=(.*))?$/.exec(a);
    if (m) {
      const value = m[2] ?? argv[++i];
      if (value === undefined || value === "") throw new UsageError(`${m[1]} needs a value`);
      if (m[1] === "--level") {
        if (!/^[1-4]$/.test(value)) throw new UsageError(`--level must be 1, 2, 3 or 4, got '${value}'`);
        args.level = Number(value) as TraceLevel;
      } else if (m[1] === "--json") args.json = resolve(value);
      else args.chrome = resolve(value);
      continue;
    }
    if (a.startsWith("-") && a !== "-") throw new UsageError(`unknown option '${a}'`);
    files.push(a);
  }
  if (files.length === 0) throw new UsageError("missing the script to trace (a .ts or .nb.ts file)");
  if (files.length > 1) throw new UsageError(`one script at a time, got ${files.map((f) => `'${f}'`).join(", ")} (put script arguments after --)`);
  args.file = resolve(files[0]);
  if (!/\.m?ts$/.test(args.file) || args.file.endsWith(".d.ts")) throw new UsageError(`'${files[0]}' is not a TypeScript file (.ts, .mts or .nb.ts)`);
  return args;
}

/** What the parent hands the child (as JSON in its argv). */
interface ChildConfig extends TraceArgs {
  temp: string;
}

const CHILD_FLAG = "--glasstorch-trace-child";
const thisFile = fileURLToPath(import.meta.url);

/** `glasstorch trace ...`: returns the exit code (0, 1 when the script failed, 2 on usage errors). */
export async function traceCommand(argv: readonly string[]): Promise<number> {
  let args: TraceArgs | "help";
  try {
    args = parseTraceArgs(argv);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    process.stderr.write(`glasstorch trace: ${e.message}\n\n${USAGE}`);
    return 2;
  }
  if (args === "help") {
    process.stdout.write(USAGE);
    return 0;
  }
  if (!existsSync(args.file) || !statSync(args.file).isFile()) {
    process.stderr.write(`glasstorch trace: no such file: ${args.file}\n`);
    return 2;
  }
  const source = readFileSync(args.file, "utf8");
  const js = await transpile(source, args.file);
  if (typeof js === "number") return js;
  const temp = join(dirname(args.file), `.${basename(args.file)}.glasstorch-trace-${process.pid}.mjs`);
  const cleanup = () => {
    try {
      unlinkSync(temp);
    } catch {
      // already gone
    }
  };
  process.on("exit", cleanup); // a backstop: the normal paths below delete it themselves
  try {
    try {
      writeFileSync(temp, js); // a leftover of a dead process with our pid may be overwritten
    } catch (e) {
      process.stderr.write(`glasstorch trace: cannot write the transpiled script next to it (${temp}): ${(e as Error).message}\n`);
      return 2;
    }
    return await runChild({ ...args, temp });
  } finally {
    cleanup();
    process.off("exit", cleanup);
  }
}

/** The script as ESM with an inline source map, or an exit code after printing syntax errors. */
async function transpile(source: string, file: string): Promise<string | number> {
  let ts: typeof import("typescript");
  try {
    ts = (await import("typescript")).default;
  } catch {
    process.stderr.write("glasstorch trace: the 'typescript' package is needed to run .ts files (npm install --save-dev typescript)\n");
    return 2;
  }
  const out = ts.transpileModule(source, {
    fileName: file,
    reportDiagnostics: true,
    compilerOptions: {
      module: ts.ModuleKind.ESNext,
      target: ts.ScriptTarget.ES2022, // Node 20: `using` and decorators are lowered
      moduleDetection: ts.ModuleDetectionKind.Force, // .mjs is a module even without imports
      inlineSourceMap: true,
      inlineSources: true,
    },
  });
  const errors = (out.diagnostics ?? []).filter((d) => d.category === ts.DiagnosticCategory.Error);
  if (errors.length === 0) return out.outputText;
  for (const d of errors) {
    const msg = ts.flattenDiagnosticMessageText(d.messageText, "\n");
    const pos = d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start) : null;
    const where = pos ? `${relative(process.cwd(), file)}:${pos.line + 1}:${pos.character + 1}` : relative(process.cwd(), file);
    process.stderr.write(`${where} - error TS${d.code}: ${msg}\n`);
  }
  return 1;
}

/** Runs the child with the terminal's stdio and waits for it; forwards signals sent to us alone. */
function runChild(cfg: ChildConfig): Promise<number> {
  const child = spawn(process.execPath, [thisFile, CHILD_FLAG, JSON.stringify(cfg)], { stdio: "inherit" });
  const signals = ["SIGINT", "SIGTERM", "SIGHUP"] as const;
  // A terminal's Ctrl-C reaches the child too (same process group); a `kill` of this pid would not.
  const forward = (sig: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(sig);
  };
  for (const s of signals) process.on(s, forward);
  return new Promise((resolveCode) => {
    const done = (code: number) => {
      for (const s of signals) process.off(s, forward);
      resolveCode(code);
    };
    child.on("error", (e) => {
      process.stderr.write(`glasstorch trace: could not start node: ${e.message}\n`);
      done(1);
    });
    child.on("exit", (code, signal) => {
      if (signal) {
        process.stderr.write(`glasstorch trace: ${signal === "SIGINT" ? "interrupted" : `stopped by ${signal}`}\n`);
        done(128 + (constants.signals[signal] ?? 0));
      } else done(code ?? 1);
    });
  });
}

// ---------------------------------------------------------------------------------------------
// The child: runs the transpiled script with tracing on, then prints and exports the trace.
// ---------------------------------------------------------------------------------------------

async function childMain(cfg: ChildConfig): Promise<void> {
  process.argv = [process.argv[0], cfg.file, ...cfg.scriptArgs]; // as `node file.ts args` would
  process.setSourceMapsEnabled(true); // before the import: call sites and stacks get .ts lines
  // An op's error is thrown a dozen engine frames below the script's line: keep enough frames.
  Error.stackTraceLimit = Math.max(Error.stackTraceLimit, 200);
  const [session, { formatTree, parseCells }, { firstUserFrame, mapThroughSourceMap }, sinks] = await Promise.all([
    import("../trace/session.js"),
    import("./tree.js"),
    import("../trace/callsite.js"),
    import("../trace/index.js"),
  ]);
  await import("../index.js"); // wires the trace to the dispatcher, as the script's import would
  const source = readFileSync(cfg.file, "utf8");
  const notebook = cfg.file.endsWith(".nb.ts");

  // For a notebook, the line of the script's statement each top-level call ran from (its
  // outermost frame in the script), which says the cell even when the op sits in a function
  // defined in an earlier cell. Taken while the call is on the stack, so from a live listener.
  const statementLines = new Map<number, number>();
  const unsubscribe = notebook
    ? session.subscribe((e) => {
        if (e.type !== "call" || e.parent !== null) return;
        const loc = outermostFrameIn(basename(cfg.temp));
        if (loc) statementLines.set(e.id, mapThroughSourceMap(loc).line);
      })
    : () => {};
  const rec = session.startRecording({ callSites: cfg.callSites });
  let finished = false;
  const userPath = (s: string) => s.split(pathToFileURL(cfg.temp).href).join(pathToFileURL(cfg.file).href).split(cfg.temp).join(cfg.file);

  const finish = (note?: string, failed = false): void => {
    if (finished) return;
    finished = true;
    session.stopRecording();
    unsubscribe();
    const events = rec.events();
    const header = session.recorder.header();
    const calls = events.filter((e): e is CallEvent => e.type === "call");
    const out = [`── dispatch trace of ${relative(process.cwd(), cfg.file)}: ${calls.length} calls, ${calls.filter((c) => c.parent === null).length} from the script ──`];
    const cells = notebook ? parseCells(source) : undefined;
    out.push(...formatTree(events, { level: cfg.level, cells, lineOf: (c) => statementLines.get(c.id) ?? null }));
    if (note) out.push(note);
    process.stdout.write(out.join("\n") + "\n");
    if (header.dropped > 0) {
      process.stderr.write(`glasstorch trace: the first ${header.dropped} events were dropped (the recorder keeps ${header.capacity})\n`);
    }
    if (calls.length === 0 && !failed && /["']glasstorch["']/.test(source)) {
      process.stderr.write(`glasstorch trace: no operator calls were recorded; if the script imports another copy of glasstorch than ${dirname(dirname(dirname(dirname(thisFile))))}, run that copy's CLI\n`);
    }
    for (const [path, text] of [
      [cfg.json, () => sinks.toJSONL(events, header)],
      [cfg.chrome, () => sinks.toChromeTraceJSON(events, header)],
    ] as const) {
      if (!path) continue;
      try {
        writeFileSync(path, text());
      } catch (e) {
        process.stderr.write(`glasstorch trace: cannot write ${path}: ${(e as Error).message}\n`);
        process.exitCode = 1;
      }
    }
  };

  const fail = (err: unknown): void => {
    process.stderr.write(describeError(err, userPath, firstUserFrame));
    finish("(the script threw; the trace ends here)", true);
    // Stop as Node stops on an uncaught error, once the output above is flushed.
    process.stdout.write("", () => process.stderr.write("", () => process.exit(1)));
  };

  process.on("uncaughtException", fail); // errors in callbacks, rejections nobody awaited
  process.on("exit", (code) => finish(`(the script called process.exit(${code}))`));
  try {
    await import(pathToFileURL(cfg.temp).href);
  } catch (e) {
    return fail(e);
  }
  process.once("beforeExit", () => finish()); // after the script's timers and promises, too
}

/** The outermost frame of the current stack in the file named `base` (generated position). */
function outermostFrameIn(base: string): { file: string; line: number; column: number } | null {
  const prepare = Error.prepareStackTrace;
  const limit = Error.stackTraceLimit;
  const holder: { stack?: unknown } = {};
  Error.prepareStackTrace = (_e, sites) => sites; // V8 CallSites: no formatting, no mapping
  Error.stackTraceLimit = Infinity;
  try {
    Error.captureStackTrace(holder);
    void holder.stack;
  } finally {
    Error.prepareStackTrace = prepare;
    Error.stackTraceLimit = limit;
  }
  const sites = Array.isArray(holder.stack) ? (holder.stack as NodeJS.CallSite[]) : [];
  for (let i = sites.length - 1; i >= 0; i--) {
    const name = sites[i].getFileName();
    if (!name || !name.endsWith(`/${base}`)) continue;
    const file = name.startsWith("file:") ? fileURLToPath(name) : name;
    return { file, line: sites[i].getLineNumber() ?? 0, column: sites[i].getColumnNumber() ?? 0 };
  }
  return null;
}

function safeRealpath(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return p;
  }
}

/** The script's error: `file.ts:line:col - Name: message`, the line with a caret, the script's frames. */
function describeError(
  err: unknown,
  userPath: (s: string) => string,
  firstUserFrame: (stack: string) => { file: string; line: number; column: number } | null,
): string {
  if (!(err instanceof Error)) return `glasstorch trace: the script threw ${userPath(String(err))}\n`;
  const lines = userPath(err.stack ?? `${err.name}: ${err.message}`).split("\n");
  const isFrame = (l: string) => /^\s+at /.test(l);
  // parseStack reads "at async file:///x.js:1:2" as a file named "async file:///x.js": drop "async".
  const userFrame = (l: string) => firstUserFrame(l.replace(/^(\s*at )async /, "$1"));
  const frames = lines.filter((l) => isFrame(l) && userFrame(l) !== null);
  const loc = frames.length > 0 ? userFrame(frames[0]) : null;
  // No frame of the script (a module that failed to link or load): the message says where.
  if (!loc) return lines.filter((l) => !isFrame(l)).join("\n") + "\n";
  let out = `${relative(process.cwd(), loc.file)}:${loc.line}:${loc.column} - ${err.name}: ${userPath(err.message)}\n`;
  try {
    const text = readFileSync(loc.file, "utf8").split(/\r?\n/)[loc.line - 1];
    if (text !== undefined) {
      const n = String(loc.line);
      out += `  ${n} | ${text}\n  ${" ".repeat(n.length)} | ${text.slice(0, loc.column - 1).replace(/[^\t]/g, " ")}^\n`;
    }
  } catch {
    // the file is gone or not text: the location above is enough
  }
  return out + frames.map((f) => `    ${f.trim()}\n`).join("");
}

if (process.argv[2] === CHILD_FLAG && process.argv[1] && safeRealpath(process.argv[1]) === safeRealpath(thisFile)) {
  await childMain(JSON.parse(process.argv[3]) as ChildConfig);
}
