// The Generated Code document of one operator (glasstorch-gen:/aten/mul.Tensor): the host's
// GeneratedCode sections one after another, each headed by where it came from, with link ranges
// back to the yaml and on to the kernels and generated files. Pure: the provider adds vscode.

import type { GeneratedCodeResult } from "../../../host/protocol.js";
import type { SourceRef } from "../locations.js";

export const GEN_SCHEME = "glasstorch-gen";

/** "aten::mul.Tensor" -> "/aten/mul.Tensor" (the URI path); undefined for names without a namespace. */
export function opToPath(op: string): string | undefined {
  const m = /^([A-Za-z_][\w]*)::([\w.]+)$/.exec(op);
  return m ? `/${m[1]}/${m[2]}` : undefined;
}

/** "/aten/mul.Tensor" -> "aten::mul.Tensor". */
export function pathToOp(path: string): string | undefined {
  const m = /^\/([A-Za-z_]\w*)\/([\w.]+)$/.exec(path);
  return m ? `${m[1]}::${m[2]}` : undefined;
}

export interface GenLink {
  /** 0-based line and character range in the document. */
  line: number;
  start: number;
  end: number;
  target: SourceRef;
  tooltip: string;
}

export interface GenDocument {
  text: string;
  links: GenLink[];
  /** 0-based first line of each section's text, by title (for "reveal section"). */
  sections: { title: string; line: number }[];
}

export function renderGenerated(result: GeneratedCodeResult): GenDocument {
  const lines: string[] = [];
  const links: GenLink[] = [];
  const sections: GenDocument["sections"] = [];
  const link = (prefix: string, path: string, target: SourceRef, tooltip: string) => {
    links.push({ line: lines.length, start: prefix.length, end: prefix.length + path.length, target, tooltip });
    lines.push(prefix + path);
  };
  lines.push(`// ${result.op}: the code Glasstorch generated and registered for it (read-only).`);
  lines.push(`// ${result.sections.length} sections; the paths are links.`);
  for (const s of result.sections) {
    lines.push("");
    lines.push(`// ── ${s.title} ${"─".repeat(Math.max(3, 72 - s.title.length))}`);
    if (s.source) {
      const { file, startLine, endLine } = s.source;
      link("// from ", `${file}:${startLine}${endLine > startLine ? `-${endLine}` : ""}`, { kind: "engine", file, line: startLine, endLine }, `Open ${file}`);
    }
    sections.push({ title: s.title, line: lines.length });
    lines.push(...s.text.replace(/\n$/, "").split("\n"));
    for (const l of s.links ?? []) {
      link(`// -> ${l.label}: `, `${l.file}${l.line ? `:${l.line}` : ""}`, { kind: "engine", file: l.file, line: l.line ?? 1 }, `Open ${l.label}`);
    }
  }
  return { text: lines.join("\n") + "\n", links, sections };
}
