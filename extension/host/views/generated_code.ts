// The Generated Code view's document for one operator: its native_functions.yaml declaration, the
// generated Python-style binding(s), the registrations, the Autograd kernel and the autograd Node
// class, and the derivatives.yaml entry — each with the file and lines it was taken from, and links
// to the kernels the yaml names. engine/generated/index.json (written by the codegen) says where
// each piece is; the text is read from the engine sources.

import type { GeneratedCodeResult, GeneratedCodeSection } from "../protocol.js";
import type { EngineSources } from "../engine_root.js";
import type { DerivativeFormulas } from "./derivative_formulas.js";
import { KernelLocator } from "./kernel_locator.js";
import { parseOpName } from "./op_names.js";

interface Piece {
  kind: string;
  label: string;
  file: string;
  startLine: number;
  endLine: number;
}
interface IndexOp {
  name: string;
  yaml: { file: string; line: number; endLine: number };
  derivative: { file: string; line: number; node: string } | null;
  pieces: Piece[];
}
interface Binding {
  label: string;
  file: string;
  startLine: number;
  endLine: number;
  yamlLine: number;
}
interface GenIndex {
  ops: IndexOp[];
  bindings: Binding[];
}

const FUNCTIONS_FILE = "engine/generated/Functions.ts";

export class GeneratedCode {
  private readonly kernels: KernelLocator;
  constructor(
    private readonly sources: EngineSources,
    private readonly formulas: DerivativeFormulas,
  ) {
    this.kernels = new KernelLocator(sources);
  }

  private index(): GenIndex {
    const idx = this.sources.json<GenIndex>("engine/generated/index.json");
    if (!idx) throw new Error(this.sources.missingReason() ?? "engine/generated/index.json is unreadable");
    return idx;
  }

  get(opName: string): GeneratedCodeResult {
    const name = parseOpName(opName);
    const idx = this.index();
    const op = idx.ops.find((o) => o.name === name.yamlName);
    if (!op) throw new Error(`no generated code for ${name.full} (not in engine/generated/index.json)`);
    const sections: GeneratedCodeSection[] = [];
    const section = (title: string, file: string, startLine: number, endLine: number, links?: GeneratedCodeSection["links"]) => {
      const text = this.sources.slice(file, startLine, endLine);
      if (text === null) return;
      sections.push({ title, text, source: { file, startLine, endLine }, ...(links && links.length > 0 ? { links } : {}) });
    };

    const yamlText = this.sources.slice(op.yaml.file, op.yaml.line, op.yaml.endLine) ?? "";
    section("native_functions.yaml", op.yaml.file, op.yaml.line, op.yaml.endLine, this.kernelLinks(idx, op, yamlText));

    const defPiece = op.pieces.find((p) => p.kind === "def");
    const genFile = defPiece?.file;
    for (const b of idx.bindings) {
      if (b.file === genFile && b.yamlLine === op.yaml.line) section(`Binding: ${b.label}`, b.file, b.startLine, b.endLine);
    }
    for (const p of op.pieces) {
      if (p.kind === "def") section(`Registration: def ${p.label}`, p.file, p.startLine, p.endLine);
    }
    for (const p of op.pieces) {
      if (p.kind !== "kernel" || p.label.endsWith("@ Autograd")) continue;
      section(`Registration: impl ${p.label}`, p.file, p.startLine, p.endLine);
    }
    for (const p of op.pieces) {
      if (p.kind === "kernel" && p.label.endsWith("@ Autograd")) section(`Autograd kernel (${p.label})`, p.file, p.startLine, p.endLine);
    }
    if (op.derivative) {
      const cls = this.nodeClass(op.derivative.node);
      if (cls) section(`Node class ${op.derivative.node}`, FUNCTIONS_FILE, cls.start, cls.end);
      const entry = this.formulas.entry(op.derivative.node);
      if (entry) section("derivatives.yaml", entry.file, entry.startLine, entry.endLine, this.formulaLinks(entry.text));
    }
    return { op: name.full, sections };
  }

  /** `export class MulBackward0 extends Node {` .. its closing `}` in Functions.ts. */
  private nodeClass(node: string): { start: number; end: number } | null {
    const lines = this.sources.lines(FUNCTIONS_FILE);
    if (!lines) return null;
    const start = lines.findIndex((l) => l.startsWith(`export class ${node} `));
    if (start < 0) return null;
    let end = start;
    while (end < lines.length && lines[end] !== "}") end++;
    return { start: start + 1, end: end + 1 };
  }

  /** The kernels the yaml's `dispatch:` names (following structured_delegate to the out= op). */
  private kernelLinks(idx: GenIndex, op: IndexOp, yamlText: string): { label: string; file: string; line?: number }[] {
    let text = yamlText;
    const delegate = /structured_delegate:\s*(\S+)/.exec(text);
    if (delegate) {
      const target = idx.ops.find((o) => o.name === delegate[1]);
      if (target) text += "\n" + (this.sources.slice(target.yaml.file, target.yaml.line, target.yaml.endLine) ?? "");
    }
    const links: { label: string; file: string; line?: number }[] = [];
    const seen = new Set<string>();
    let inDispatch = false;
    for (const line of text.split("\n")) {
      if (/^\s*dispatch:/.test(line)) {
        inDispatch = true;
        continue;
      }
      if (!inDispatch) continue;
      const m = /^\s{4,}([A-Za-z, ]+):\s*(\w+)/.exec(line);
      if (!m) {
        inDispatch = false;
        continue;
      }
      const kernel = m[2];
      if (seen.has(kernel)) continue;
      seen.add(kernel);
      const at = this.kernels.find(kernel);
      if (at) links.push({ label: `${m[1].trim()} kernel ${kernel}`, file: at.file, line: at.line });
    }
    return links;
  }

  /** The FunctionsManual helpers a formula calls (mul_tensor_backward ...). */
  private formulaLinks(text: string): { label: string; file: string; line?: number }[] {
    const links: { label: string; file: string; line?: number }[] = [];
    for (const m of text.matchAll(/\b([a-z_][a-z0-9_]*)\(/g)) {
      const at = this.kernels.find(m[1]);
      if (at && !links.some((l) => l.label === m[1])) links.push({ label: m[1], file: at.file, line: at.line });
    }
    return links;
  }
}
