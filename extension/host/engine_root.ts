// Where the engine's sources are: the views read native_functions.yaml, derivatives.yaml and
// engine/generated/ from there. From the repository that is the checkout; in a packaged extension
// those files are copied next to the bundle. Given by `--engine-root=<dir>` or GLASSTORCH_ENGINE_ROOT,
// otherwise the first folder at or above the bundle that holds engine/ops/derivatives.yaml.

import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";

export function findEngineRoot(argv: string[], env: NodeJS.ProcessEnv, bundleFile: string): string | null {
  const arg = argv.find((a) => a.startsWith("--engine-root="));
  const given = arg ? arg.slice("--engine-root=".length) : env.GLASSTORCH_ENGINE_ROOT;
  if (given) return resolve(given);
  let dir = dirname(bundleFile);
  for (;;) {
    if (existsSync(join(dir, "engine", "ops", "derivatives.yaml"))) return dir;
    const up = dirname(dir);
    if (up === dir) return null;
    dir = up;
  }
}

/** Reads engine source files (paths relative to the root, as engine/generated/index.json gives them), cached. */
export class EngineSources {
  private readonly cache = new Map<string, string[] | null>();
  constructor(readonly root: string | null) {}

  lines(file: string): string[] | null {
    if (this.root === null) return null;
    let got = this.cache.get(file);
    if (got === undefined) {
      try {
        got = readFileSync(join(this.root, file), "utf8").split("\n");
      } catch {
        got = null;
      }
      this.cache.set(file, got);
    }
    return got;
  }

  /** Lines start..end (1-based, inclusive) of a file. */
  slice(file: string, start: number, end: number): string | null {
    const l = this.lines(file);
    return l ? l.slice(start - 1, end).join("\n") : null;
  }

  json<T>(file: string): T | null {
    const l = this.lines(file);
    if (!l) return null;
    try {
      return JSON.parse(l.join("\n")) as T;
    } catch {
      return null;
    }
  }

  /** The engine root must hold this file for the views to work. */
  missingReason(): string | null {
    if (this.root === null) return "the engine sources were not found (pass --engine-root or set GLASSTORCH_ENGINE_ROOT)";
    if (!this.lines("engine/generated/index.json")) return `no engine/generated/index.json under ${this.root}`;
    return null;
  }
}
