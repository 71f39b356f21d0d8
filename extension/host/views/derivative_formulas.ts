// derivatives.yaml formulas by autograd Node class ("MulBackward0" -> "self: ...\nother: ..."), read
// from the engine sources (derivatives.yaml is the source; engine/generated/index.json says which
// entry each Node class came from).

import type { EngineSources } from "../engine_root.js";

interface IndexOp {
  name: string;
  derivative: { file: string; line: number; node: string } | null;
}

export class DerivativeFormulas {
  private byNode: Map<string, { file: string; line: number }> | null = null;
  constructor(private readonly sources: EngineSources) {}

  /** The entry's lines (the `- name:` line and the derivative lines), and where it starts. */
  entry(node: string): { text: string; file: string; startLine: number; endLine: number } | null {
    const at = this.index().get(node);
    if (!at) return null;
    const lines = this.sources.lines(at.file);
    if (!lines) return null;
    let end = at.line; // 1-based inclusive
    while (end < lines.length && !/^\s*- name:/.test(lines[end]) && !/^\S/.test(lines[end]) && lines[end].trim() !== "") end++;
    return { text: lines.slice(at.line - 1, end).join("\n"), file: at.file, startLine: at.line, endLine: end };
  }

  /** The formula lines without the `- name:` line ("self: grad * other"), or null. */
  forNode(node: string): string | null {
    const e = this.entry(node);
    if (!e) return null;
    const body = e.text
      .split("\n")
      .slice(1)
      .map((l) => l.trim())
      .filter((l) => l && !l.startsWith("#"));
    return body.length > 0 ? body.join("\n") : null;
  }

  private index(): Map<string, { file: string; line: number }> {
    if (this.byNode) return this.byNode;
    this.byNode = new Map();
    const idx = this.sources.json<{ ops: IndexOp[] }>("engine/generated/index.json");
    for (const op of idx?.ops ?? []) {
      const d = op.derivative;
      if (d && !this.byNode.has(d.node)) this.byNode.set(d.node, { file: d.file, line: d.line });
    }
    return this.byNode;
  }
}
