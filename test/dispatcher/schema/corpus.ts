// The schemas.json fixture (test/fixtures/gen_schemas.py): every func of PyTorch 1.13's native_functions.yaml with
// torchgen's and the JIT's reading of it, and invalid schemas with the JIT's error position.
import { loadFixture } from "../../support/fixtures.js";

/** [name, type, default text, kwarg_only, annotation, is out arg, is_tensor_like] as torchgen prints them. */
export type TorchgenArg = [string, string, string | null, boolean, string | null, boolean, boolean];
/** [name, type, annotation] */
export type TorchgenReturn = [string | null, string, string | null];
/** [before sets, after sets, is_write] */
export type JitAlias = [string[], string[], boolean] | null;
/** A tagged JIT default: ['int', 1], ['float', 0.5], ['list', [...]], ['none', null] ... */
export type JitDefault = [string, unknown];

export interface CorpusEntry {
  func: string;
  line: number;
  column: number;
  str: string;
  name: string;
  base: string;
  inplace: boolean;
  dunder: boolean;
  functional_overload: boolean;
  overload: string;
  full_name: string;
  kind: string;
  is_out: boolean;
  mutable_args: string[];
  args: TorchgenArg[];
  returns: TorchgenReturn[];
  jit: {
    error?: string;
    str?: string;
    is_mutable: boolean;
    /** [N, default, kwarg_only, is_out, alias] */
    args: [number | null, JitDefault | null, boolean, boolean, JitAlias][];
    returns: [string, JitAlias][];
  };
}

export interface InvalidEntry {
  schema: string;
  jit_message: string;
  jit_reason: string;
  jit_line: number | null;
  jit_column: number | null;
}

export interface Corpus {
  torch_version: string;
  yaml: string;
  count: number;
  jit_failures: string[];
  schemas: CorpusEntry[];
  invalid: InvalidEntry[];
}

export const corpus = loadFixture<Corpus>("schemas.json");

/** Splits the corpus into about `n` slices, labelled by yaml line range, so each `it` checks one slice. */
export function slices(n: number): { label: string; entries: CorpusEntry[] }[] {
  const all = corpus.schemas;
  const size = Math.ceil(all.length / n);
  const out: { label: string; entries: CorpusEntry[] }[] = [];
  for (let i = 0; i < all.length; i += size) {
    const entries = all.slice(i, i + size);
    out.push({
      label: `#${i}-${i + entries.length - 1} (yaml lines ${entries[0].line}-${entries[entries.length - 1].line})`,
      entries,
    });
  }
  return out;
}
