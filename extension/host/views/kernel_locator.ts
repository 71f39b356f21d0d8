// Where a kernel or formula helper named in the yaml files is defined: the first
// `export function <name>` (or `export const <name>`) under engine/aten/ and engine/autograd/.
// Built once, on first use, from the engine sources.

import { readdirSync } from "node:fs";
import { join } from "node:path";
import type { EngineSources } from "../engine_root.js";

const DIRS = ["engine/aten", "engine/autograd"];

export class KernelLocator {
  private defs: Map<string, { file: string; line: number }> | null = null;
  constructor(private readonly sources: EngineSources) {}

  find(name: string): { file: string; line: number } | undefined {
    return this.index().get(name);
  }

  private index(): Map<string, { file: string; line: number }> {
    if (this.defs) return this.defs;
    this.defs = new Map();
    const root = this.sources.root;
    if (root === null) return this.defs;
    const walk = (dir: string) => {
      let entries;
      try {
        entries = readdirSync(join(root, dir), { withFileTypes: true });
      } catch {
        return;
      }
      for (const e of entries.sort((a, b) => a.name.localeCompare(b.name))) {
        const rel = `${dir}/${e.name}`;
        if (e.isDirectory()) walk(rel);
        else if (e.name.endsWith(".ts") && !e.name.endsWith(".d.ts")) this.scan(rel);
      }
    };
    for (const d of DIRS) walk(d);
    return this.defs;
  }

  private scan(file: string): void {
    const lines = this.sources.lines(file);
    if (!lines) return;
    lines.forEach((l, i) => {
      const m = /^export (?:async )?(?:function\*?|const|let) (\w+)/.exec(l);
      if (m && !this.defs!.has(m[1])) this.defs!.set(m[1], { file, line: i + 1 });
    });
  }
}
