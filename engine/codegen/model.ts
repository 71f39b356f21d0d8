// The codegen's model of native_functions.yaml (torchgen/model.py NativeFunction): each entry with
// its parsed schema and the position of every field, so errors and the editor can point at the yaml.

import { readFileSync } from "node:fs";
import { LineCounter, parseDocument, isMap, isSeq, isScalar, type Node } from "yaml";
import { parseSchema } from "../dispatcher/schema/SchemaParser.js";
import type { FunctionSchema } from "../dispatcher/schema/FunctionSchema.js";
import type { AutogenSource } from "./autogen.js";

export interface Loc {
  file: string;
  line: number;
  column: number;
}

export type Variant = "function" | "method";

export interface DispatchEntry {
  key: string;
  kernel: string;
  loc: Loc;
}

export interface NativeFunction {
  func: FunctionSchema;
  funcText: string;
  loc: Loc;
  /** Last line of the entry in the yaml (for index ranges). */
  endLine: number;
  variants: Set<Variant>;
  dispatch: DispatchEntry[];
  structured: boolean;
  structuredDelegate: string | null;
  structuredInherits: string | null;
  tags: string[];
  /** `python_module:` (linalg, nn, special, fft): the binding lives in torch.<module> (torch._C._nn for nn), not torch.*. */
  pythonModule: string | null;
  /** `autogen:` names: overloads derived from this one (flip -> flip.out); see autogen.ts. */
  autogen: string[];
  /** Set on an overload the codegen derived from another entry's `autogen:`. */
  autogenFrom?: AutogenSource;
}

export class YamlError extends Error {
  constructor(message: string, readonly loc: Loc) {
    super(`${loc.file}:${loc.line}:${loc.column}: ${message}`);
  }
}

const knownFields = new Set(["func", "variants", "dispatch", "structured", "structured_delegate", "structured_inherits", "tags", "python_module", "autogen", "device_check", "manual_cpp_binding", "cpp_no_default_args", "precomputed"]);

/** Reads native_functions.yaml; `displayPath` is the path written into generated comments. */
export function loadNativeFunctions(path: string, displayPath: string): NativeFunction[] {
  const text = readFileSync(path, "utf8");
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, keepSourceTokens: false });
  const locOf = (node: Node | null | undefined): Loc => {
    const pos = lineCounter.linePos(node?.range?.[0] ?? 0);
    return { file: displayPath, line: pos.line, column: pos.col };
  };
  if (doc.errors.length) throw new YamlError(doc.errors[0].message, locOf(null));
  if (!isSeq(doc.contents)) throw new YamlError("expected a list of operator entries", locOf(doc.contents));
  const out: NativeFunction[] = [];
  for (const item of doc.contents.items) {
    if (!isMap(item)) throw new YamlError("each entry must be a mapping with a 'func:' field", locOf(item as Node));
    for (const pair of item.items) {
      const key = isScalar(pair.key) ? String(pair.key.value) : "";
      if (!knownFields.has(key)) throw new YamlError(`unknown field '${key}'`, locOf(pair.key as Node));
    }
    const funcNode = item.get("func", true);
    if (!isScalar(funcNode)) throw new YamlError("missing 'func:'", locOf(item));
    const funcText = String(funcNode.value);
    const funcLoc = locOf(funcNode);
    const func = parseSchema(funcText, { file: displayPath, line: funcLoc.line, column: funcLoc.column });
    const endLine = lineCounter.linePos(Math.max((item.range?.[1] ?? 1) - 1, 0)).line;
    const variantsText = scalarString(item.get("variants", true)) ?? "function";
    const variants = new Set(variantsText.split(",").map((v) => v.trim()) as Variant[]);
    for (const v of variants) if (v !== "function" && v !== "method") throw new YamlError(`unknown variant '${v}'`, locOf(item.get("variants", true) as Node));
    const dispatch: DispatchEntry[] = [];
    const dispatchNode = item.get("dispatch", true);
    if (dispatchNode !== undefined) {
      if (!isMap(dispatchNode)) throw new YamlError("'dispatch:' must map keys to kernels", locOf(dispatchNode as Node));
      for (const pair of dispatchNode.items) {
        const keys = String((pair.key as { value: unknown }).value).split(",").map((k) => k.trim());
        const kernel = String((pair.value as { value: unknown }).value);
        for (const key of keys) dispatch.push({ key, kernel, loc: locOf(pair.key as Node) });
      }
    }
    const tagsNode = item.get("tags", true);
    const tags = tagsNode === undefined ? [] : isSeq(tagsNode) ? tagsNode.items.map((t) => String((t as { value: unknown }).value)) : [String(scalarString(tagsNode))];
    out.push({
      func,
      funcText,
      loc: funcLoc,
      endLine,
      variants,
      dispatch,
      structured: scalarString(item.get("structured", true)) === "true",
      structuredDelegate: scalarString(item.get("structured_delegate", true)),
      structuredInherits: scalarString(item.get("structured_inherits", true)),
      tags,
      pythonModule: scalarString(item.get("python_module", true)),
      autogen: (scalarString(item.get("autogen", true)) ?? "").split(",").map((a) => a.trim()).filter(Boolean),
    });
  }
  return out;
}

function scalarString(node: unknown): string | null {
  if (node === undefined || node === null) return null;
  if (isScalar(node)) return String(node.value).toLowerCase() === "true" ? "true" : String(node.value);
  return null;
}
