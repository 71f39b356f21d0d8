// One notebook session: the scope cells share, how their imports resolve, and running one cell.
//
// A cell is transpiled (transpile.ts), compiled as a vm.Script in this process's own context (so
// arrays, typed arrays and errors are the engine's own kinds) and run with breakOnSigint. What the
// cell declares lives in `scope`; its last expression statement is its value.

import { builtinModules, createRequire } from "node:module";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import vm from "node:vm";
import { CellSyntaxError, transpileCell } from "./transpile.js";
import { registerCellScript } from "./stacks.js";

export const SESSION_GLOBAL_KEY = "glasstorch.notebookSession";

/** What a cell's code reaches as `__gt` (see transpile.ts). */
interface SessionApi {
  scope: Record<string, unknown>;
  bind(kind: "const" | "let", values: Record<string, unknown>): void;
  import(specifier: unknown): Promise<unknown>;
  defaultOf(mod: unknown): unknown;
}

export interface CompiledCell {
  script: vm.Script;
  filename: string;
}

// A dynamic import() that esbuild leaves alone (a CommonJS bundle would turn it into require()).
const dynamicImport = new Function("url", "return import(url)") as (url: string) => Promise<unknown>;

export class NotebookSession {
  /** The bindings every cell sees (null prototype: only what cells declared). */
  readonly scope: Record<string, unknown> = Object.create(null);
  private cwd: string;
  private seq = 0;

  constructor(
    /** The engine namespace `import ... from "glasstorch"` gives. */
    private readonly torch: object,
    cwd: string,
  ) {
    this.cwd = cwd;
    const api: SessionApi = {
      scope: this.scope,
      bind: (kind, values) => this.bind(kind, values),
      import: (spec) => this.import(spec),
      defaultOf: (mod) => defaultOf(mod),
    };
    Object.defineProperty(globalThis, Symbol.for(SESSION_GLOBAL_KEY), { value: api, configurable: true });
  }

  /** Predefines a name every cell sees (a cell may declare its own with the same name). */
  define(name: string, value: unknown): void {
    this.bind("let", { [name]: value });
  }

  setCwd(cwd: string): void {
    this.cwd = cwd;
  }

  /** Transpiles and compiles a cell; throws CellSyntaxError (TypeScript's) or SyntaxError (V8's). */
  compile(code: string, cellUri: string): CompiledCell {
    const filename = `glasstorch-cell-${++this.seq}`;
    const t = transpileCell(code, cellUri, SESSION_GLOBAL_KEY);
    registerCellScript(filename, cellUri, t.sourceMap, t.lineOffset);
    const script = new vm.Script(t.code, { filename });
    return { script, filename };
  }

  /** Starts the cell: its synchronous part runs now (interruptible by SIGINT); the promise is its completion. */
  start(cell: CompiledCell): Promise<unknown> {
    return cell.script.runInThisContext({ breakOnSigint: true, displayErrors: false }) as Promise<unknown>;
  }

  private bind(kind: "const" | "let", values: Record<string, unknown>): void {
    for (const name of Object.keys(values)) {
      const value = values[name];
      if (kind === "const") {
        Object.defineProperty(this.scope, name, {
          get: () => value,
          set: () => {
            throw new TypeError("Assignment to constant variable.");
          },
          enumerable: true,
          configurable: true,
        });
      } else {
        Object.defineProperty(this.scope, name, { value, writable: true, enumerable: true, configurable: true });
      }
    }
  }

  /**
   * import "glasstorch" -> the engine; node: and built-in modules; anything else resolves from the
   * notebook's folder (CommonJS through require, ES modules through import()).
   */
  private async import(specifier: unknown): Promise<unknown> {
    const spec = String(specifier);
    if (spec === "glasstorch") return this.torch;
    const req = createRequire(join(this.cwd, "__notebook__.js"));
    if (spec.startsWith("node:") || builtinModules.includes(spec)) return req(spec);
    try {
      return req(spec);
    } catch (err) {
      if ((err as { code?: string }).code !== "ERR_REQUIRE_ESM") throw err;
      return dynamicImport(pathToFileURL(req.resolve(spec)).href);
    }
  }
}

/** `import x from "m"`: the module's default export, or the module itself when it has none (CommonJS). */
function defaultOf(mod: unknown): unknown {
  if (mod !== null && (typeof mod === "object" || typeof mod === "function")) {
    const m = mod as { default?: unknown; __esModule?: boolean };
    if (m.__esModule || "default" in m) return m.default ?? mod;
  }
  return mod;
}

export { CellSyntaxError };
