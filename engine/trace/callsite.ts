// The user's call site: the first stack frame outside the engine, mapped through source maps so a
// TypeScript user sees their own .ts line. Only called while tracing is on.
//
// What Node 20 offers, and how it is used here:
// - V8 CallSite objects (Error.prepareStackTrace returning its `sites`): file, line and column of
//   each frame without formatting the whole stack. The engine's frames are skipped on these.
// - Error.prepareStackTrace itself, as the host left it: Node's default one maps through source
//   maps when --enable-source-maps / process.setSourceMapsEnabled(true) was on when the module
//   loaded; vitest and source-map-support install their own. Only the chosen frame is formatted
//   with it, so a .ts file run by any of them comes out with its .ts line and column.
// - module.findSourceMap(path): a map Node already loaded (again only with source maps enabled).
// - Otherwise, for a .js frame, its `//# sourceMappingURL=` (a file or a data: URL) is read once
//   and given to `new module.SourceMap(payload)`; findEntry(line0, col0) maps the frame (findOrigin,
//   1-based, appeared only in 20.4). Maps are cached per file, misses too.

import { readFileSync } from "node:fs";
import { findSourceMap, SourceMap } from "node:module";
import { dirname, isAbsolute, resolve, sep } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { SourceLocation } from "./events.js";

/** A parsed V8 stack frame: the file as the stack names it (path or URL) and 1-based positions. */
interface Frame {
  file: string;
  line: number;
  column: number;
}

// "    at fn (file:1:2)", "    at file:1:2", "    at async fn (file:1:2)", "    at new C (file:1:2)"
const frameRe = /^\s*at (?:.*? \()?(.+?):(\d+):(\d+)\)?$/;

export function parseStack(stack: string): Frame[] {
  const frames: Frame[] = [];
  for (const line of stack.split("\n")) {
    const m = frameRe.exec(line);
    if (m) frames.push({ file: m[1], line: Number(m[2]), column: Number(m[3]) });
  }
  return frames;
}

const pathOfUrl = new Map<string, string>();

function toPath(file: string): string {
  if (!file.startsWith("file://")) return file;
  let path = pathOfUrl.get(file);
  if (path === undefined) {
    try {
      path = fileURLToPath(file);
    } catch {
      path = file;
    }
    if (pathOfUrl.size < 4096) pathOfUrl.set(file, path);
  }
  return path;
}

// The engine's own directories, from where this file lives: engine/trace/callsite.ts in source
// (vitest, tsx) or dist/engine/trace/callsite.js when compiled. Both trees are skipped either way,
// because a source-mapped dist frame names the engine/ source file.
const engineDir = dirname(dirname(fileURLToPath(import.meta.url)));
const packageRoot = dirname(engineDir).endsWith(`${sep}dist`) ? dirname(dirname(engineDir)) : dirname(engineDir);
const enginePrefixes = [resolve(packageRoot, "engine") + sep, resolve(packageRoot, "dist", "engine") + sep];

/** Frames that are not the user's: the engine itself, Node internals, frames without a file. */
export function isEngineFrame(path: string): boolean {
  if (path.startsWith("node:") || path === "native" || path.startsWith("<")) return true;
  if (path.startsWith("evalmachine.") || path.includes("(eval at ")) return true;
  return enginePrefixes.some((p) => path.startsWith(p));
}

const mapCache = new Map<string, { map: SourceMap; base: string } | null>();

function loadMap(path: string): { map: SourceMap; base: string } | null {
  const cached = mapCache.get(path);
  if (cached !== undefined) return cached;
  let found: { map: SourceMap; base: string } | null = null;
  try {
    const known = findSourceMap(path) ?? findSourceMap(pathToFileURL(path).href);
    if (known) {
      found = { map: known, base: dirname(path) };
    } else {
      const text = readFileSync(path, "utf8");
      const m = /\/\/# sourceMappingURL=(\S+)\s*$/.exec(text);
      if (m) {
        const url = m[1];
        if (url.startsWith("data:")) {
          const b64 = url.slice(url.indexOf(",") + 1);
          found = { map: new SourceMap(JSON.parse(Buffer.from(b64, "base64").toString("utf8"))), base: dirname(path) };
        } else {
          const mapPath = resolve(dirname(path), decodeURIComponent(url));
          found = { map: new SourceMap(JSON.parse(readFileSync(mapPath, "utf8"))), base: dirname(mapPath) };
        }
      }
    }
  } catch {
    found = null; // unreadable file or malformed map: report the generated position
  }
  mapCache.set(path, found);
  return found;
}

/** Maps a generated .js position to its original source, when a source map says where. */
export function mapThroughSourceMap(loc: SourceLocation): SourceLocation {
  if (!/\.[cm]?js$/.test(loc.file)) return loc;
  const found = loadMap(loc.file);
  if (!found) return loc;
  const e = found.map.findEntry(loc.line - 1, loc.column - 1) as {
    originalSource?: string;
    originalLine?: number;
    originalColumn?: number;
  };
  if (!e || typeof e.originalSource !== "string" || e.originalLine === undefined || e.originalColumn === undefined) return loc;
  const root = (found.map.payload as { sourceRoot?: string }).sourceRoot ?? "";
  const src = e.originalSource;
  const file = src.startsWith("file://")
    ? toPath(src)
    : isAbsolute(src)
      ? src
      : resolve(found.base, root, src);
  return { file, line: e.originalLine + 1, column: e.originalColumn + 1 };
}

/**
 * The first frame of the current stack that is not engine code, mapped to the original source.
 * `skip` adds frames to ignore (e.g. a notebook host's own wrapper).
 *
 * Cost matters (this runs once per traced call): the stack is taken as V8 CallSite objects, which
 * skips formatting every frame; only the chosen frame is formatted by whatever source-map hook the
 * host installed (vitest, source-map-support), or mapped here through its .map file.
 */
export function captureCallSite(skip?: (file: string) => boolean): SourceLocation | null {
  // Most calls come straight from user code, a few frames up; nested calls (a composite kernel's
  // inner ops) sit deeper. Capturing frames costs per frame, so try a short stack first.
  for (const depth of [16, 256]) {
    const { sites, complete } = callSites(depth);
    const loc = pickUserFrame(sites, skip);
    if (loc || complete) return loc;
  }
  return null;
}

function callSites(depth: number): { sites: NodeJS.CallSite[]; complete: boolean } {
  const hostPrepare = Error.prepareStackTrace;
  const limit = Error.stackTraceLimit;
  const holder: { stack?: unknown } = {};
  Error.prepareStackTrace = (_e, sites) => sites;
  Error.stackTraceLimit = depth;
  try {
    Error.captureStackTrace(holder, captureCallSite);
    void holder.stack; // V8 builds the value (here: the CallSite array) on first access
  } finally {
    Error.prepareStackTrace = hostPrepare;
    Error.stackTraceLimit = limit;
  }
  const sites = Array.isArray(holder.stack) ? (holder.stack as NodeJS.CallSite[]) : [];
  return { sites, complete: sites.length < depth };
}

function pickUserFrame(sites: NodeJS.CallSite[], skip?: (file: string) => boolean): SourceLocation | null {
  const hostPrepare = Error.prepareStackTrace; // Node's own maps when source maps are enabled
  for (const site of sites) {
    const name = site.getFileName() ?? site.getScriptNameOrSourceURL();
    if (!name || site.isEval()) continue;
    const path = toPath(name);
    if (isEngineFrame(path) || skip?.(path)) continue;
    const raw: SourceLocation = { file: path, line: site.getLineNumber() ?? 0, column: site.getColumnNumber() ?? 0 };
    const loc = mapThroughSourceMap(hostPrepare ? mapThroughHost(hostPrepare, site, raw) : raw);
    // A bundle may hold engine code too: check again after mapping.
    if (loc.file !== path && (isEngineFrame(loc.file) || skip?.(loc.file))) continue;
    return loc;
  }
  return null;
}

type PrepareStackTrace = NonNullable<typeof Error.prepareStackTrace>;

/** The frame as the host's own stack formatter (which may map source) prints it. */
function mapThroughHost(prepare: PrepareStackTrace, site: NodeJS.CallSite, raw: SourceLocation): SourceLocation {
  try {
    const err = Object.assign(Object.create(Error.prototype) as Error, { name: "Error", message: "" });
    const text: unknown = prepare(err, [site]);
    if (typeof text !== "string") return raw;
    const f = parseStack(text)[0];
    return f ? { file: toPath(f.file), line: f.line, column: f.column } : raw;
  } catch {
    return raw;
  }
}

/** The first non-engine frame of a stack text (for stacks that are already strings). */
export function firstUserFrame(stack: string, skip?: (file: string) => boolean): SourceLocation | null {
  for (const f of parseStack(stack)) {
    const path = toPath(f.file);
    if (isEngineFrame(path) || skip?.(path)) continue;
    const loc = mapThroughSourceMap({ file: path, line: f.line, column: f.column });
    if (loc.file !== path && (isEngineFrame(loc.file) || skip?.(loc.file))) continue;
    return loc;
  }
  return null;
}
