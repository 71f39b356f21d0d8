// How a dataset, collate_fn or worker_init_fn reaches a DataLoader worker thread. PyTorch pickles
// them into the worker process; JS threads share no heap, so Glasstorch sends a description instead:
//   - a dataset: its __worker_spec__(), {module, name, args}: the worker imports `module` and calls
//     `name.__from_worker__(args, build)` when that static exists, else `new name(...args)`;
//   - a function: its source text, re-evaluated in the worker (it must not close over variables;
//     `torch` is in scope), or a {module, name} reference to an exported function.
// Module URLs pointing at engine/*.ts sources (tests run the TypeScript directly) are mapped to the
// compiled dist/engine/*.js, since worker threads run plain Node.

import { existsSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";
import { TypeError_ } from "../c10/Errors.js";

export interface WorkerSpec {
  module: string;
  name: string;
  args?: unknown;
}

export interface FnRef {
  module: string;
  name: string;
}

export type WorkerFn = { source: string } | FnRef;

export function workerSpecOf(ds: unknown): WorkerSpec {
  const o = ds as { __worker_spec__?: () => WorkerSpec } | null;
  if (o !== null && typeof o === "object") {
    if (Array.isArray(o)) return { module: "", name: "__array__", args: o };
    if (typeof o.__worker_spec__ === "function") return o.__worker_spec__();
  }
  return noWorkerSpec(ds);
}

/** The base classes' default __worker_spec__: refuse, saying what to write. */
export function noWorkerSpec(ds: unknown): never {
  const name = (ds as object)?.constructor?.name ?? typeof ds;
  throw new TypeError_(
    `DataLoader with num_workers > 0 needs a dataset that a worker thread can rebuild, but ${name} defines no __worker_spec__(). ` +
      `Return {module: import.meta.url, name: "${name}", args: [...]} from ${name}.__worker_spec__() (the class exported from that module, ` +
      `args structured-clonable), or use num_workers=0.`,
  );
}

export function fnSpecOf(fn: unknown, what: string): WorkerFn | null {
  if (fn === null || fn === undefined) return null;
  if (typeof fn === "function") return { source: fn.toString() };
  const r = fn as FnRef;
  if (typeof r === "object" && typeof r.module === "string" && typeof r.name === "string") return { module: runnableModule(r.module), name: r.name };
  throw new TypeError_(`${what} must be a function or a {module, name} reference`);
}

/** engine/**.ts (vitest runs sources) -> dist/engine/**.js; other URLs unchanged. */
export function runnableModule(url: string): string {
  if (!url.startsWith("file:") || !url.endsWith(".ts")) return url;
  const path = fileURLToPath(url);
  const m = /^(.*)[\\/]engine[\\/](.*)\.ts$/.exec(path);
  if (m) {
    const js = `${m[1]}/dist/engine/${m[2]}.js`;
    if (existsSync(js)) return pathToFileURL(js).href;
  }
  return url;
}
