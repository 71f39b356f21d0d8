// Every func of PyTorch 1.13's native_functions.yaml: parse(s).toString() === s (torchgen's str), and the parsed
// structure agrees with torchgen (names, types, defaults, kwarg_only, annotations, SchemaKind) and with the JIT's
// torch._C.parse_schema (N, default values, is_out, alias sets, is_mutable). Each `it` checks one slice and lists
// the schemas that fail.
import { describe, it, expect } from "vitest";
import { parseSchema } from "../../../engine/dispatcher/schema/SchemaParser.js";
import {
  isTensorLike,
  type AliasInfo,
  type DefaultValue,
  type FunctionSchema,
} from "../../../engine/dispatcher/schema/FunctionSchema.js";
import { dec } from "../../support/fixtures.js";
import { corpus, slices, type CorpusEntry, type JitAlias, type JitDefault } from "./corpus.js";

const SLICES = 50;

function parseOrReport(e: CorpusEntry, failures: string[]): FunctionSchema | null {
  try {
    return parseSchema(e.func, { file: corpus.yaml, line: e.line, column: e.column });
  } catch (err) {
    failures.push(`${e.func}\n    threw: ${(err as Error).message}`);
    return null;
  }
}

function check(failures: string[], e: CorpusEntry, what: string, got: unknown, want: unknown): void {
  const g = JSON.stringify(got);
  const w = JSON.stringify(want);
  if (g !== w) failures.push(`${e.func}\n    ${what}: got ${g}, want ${w}`);
}

/** Our default in the JIT's tagged form (enums become the integer the JIT stores). */
function asJit(v: DefaultValue): JitDefault {
  switch (v.kind) {
    case "none":
      return ["none", null];
    case "enum":
      return ["int", v.value];
    case "int":
      return ["int", Number(v.value)];
    case "list":
      return ["list", v.elements.map(asJit)];
    default:
      return [v.kind, v.value];
  }
}

function decJit(d: JitDefault): JitDefault {
  return d[0] === "list" ? ["list", (d[1] as JitDefault[]).map(decJit)] : [d[0], dec(d[1])];
}

function aliasSets(a: AliasInfo | null): JitAlias {
  return a && [[...a.beforeSets].sort(), [...a.afterSets].sort(), a.isWrite];
}

describe("native_functions.yaml corpus", () => {
  it(`holds every func of PyTorch ${corpus.torch_version}'s yaml, all accepted by torch._C.parse_schema`, () => {
    expect(corpus.count).toBe(2493);
    expect(corpus.schemas.length).toBe(corpus.count);
    expect(corpus.jit_failures).toEqual([]);
  });
});

describe("round trip: parse(s).toString() === torchgen's str(FunctionSchema.parse(s))", () => {
  for (const { label, entries } of slices(SLICES)) {
    it(label, () => {
      const failures: string[] = [];
      for (const e of entries) {
        const s = parseOrReport(e, failures);
        if (!s) continue;
        check(failures, e, "toString()", s.toString(), e.str);
        expect(e.str).toBe(e.func); // torchgen asserts the same
        // Every span slices back to the canonical text of what it covers, at the yaml position.
        const src = e.func;
        const cut = (sp: { start: { offset: number }; end: { offset: number } } | undefined) =>
          sp && src.slice(sp.start.offset, sp.end.offset);
        check(failures, e, "nameSpan start", [s.nameSpan?.start.line, s.nameSpan?.start.column], [e.line, e.column]);
        check(failures, e, "span file", s.span?.file, corpus.yaml);
        check(failures, e, "span", cut(s.span), src);
        check(failures, e, "returnsSpan", cut(s.returnsSpan), s.returnsString());
        for (const a of s.arguments) {
          check(failures, e, `${a.name} span`, cut(a.span), String(a));
          check(failures, e, `${a.name} typeSpan`, cut(a.typeSpan), a.type.annotatedString());
          check(failures, e, `${a.name} nameSpan`, cut(a.nameSpan), a.name);
          check(failures, e, `${a.name} defaultSpan`, cut(a.defaultSpan) ?? null, a.default);
          check(failures, e, `${a.name} column`, a.span?.start.column, e.column + (a.span?.start.offset ?? NaN));
        }
        for (const r of s.returns) check(failures, e, "return span", cut(r.span), String(r));
      }
      expect(failures).toEqual([]);
    });
  }
});

describe("structure agrees with torchgen (torchgen/model.py)", () => {
  for (const { label, entries } of slices(SLICES)) {
    it(label, () => {
      const failures: string[] = [];
      for (const e of entries) {
        const s = parseOrReport(e, failures);
        if (!s) continue;
        const outs = new Set(s.outArguments());
        const op = s.operatorName;
        check(failures, e, "name", [s.name, s.unqualifiedName, s.namespace], [e.name, e.name, null]);
        check(
          failures,
          e,
          "operator name",
          [op.base, op.inplace, op.dunder_method, op.functional_overload],
          [e.base, e.inplace, e.dunder, e.functional_overload],
        );
        check(failures, e, "overload_name", s.overload_name, e.overload);
        check(failures, e, "fullName()", s.fullName(), e.full_name);
        check(failures, e, "kind()", s.kind(), e.kind);
        check(failures, e, "isOut()", s.isOut(), e.is_out);
        check(failures, e, "isInplace()", s.isInplace(), e.kind === "inplace");
        check(failures, e, "mutable args", s.arguments.filter((a) => a.is_write).map((a) => a.name), e.mutable_args);
        const args = s.arguments.map((a) => [
          a.name,
          String(a.type),
          a.default,
          a.kwarg_only,
          a.alias_info ? String(a.alias_info) : null,
          outs.has(a),
          isTensorLike(a.type),
        ]);
        check(failures, e, "arguments", args, e.args);
        const rets = s.returns.map((r) => [r.name, String(r.type), r.alias_info ? String(r.alias_info) : null]);
        check(failures, e, "returns", rets, e.returns);
      }
      expect(failures).toEqual([]);
    });
  }
});

describe("values agree with the JIT parser (torch._C.parse_schema)", () => {
  for (const { label, entries } of slices(SLICES / 2)) {
    it(label, () => {
      const failures: string[] = [];
      for (const e of entries) {
        const s = parseOrReport(e, failures);
        if (!s) continue;
        check(failures, e, "isMutable()", s.isMutable(), e.jit.is_mutable);
        s.arguments.forEach((a, i) => {
          const [N, def, kwargOnly, isOut, alias] = e.jit.args[i];
          check(failures, e, `${a.name}.N`, a.N, N);
          check(failures, e, `${a.name} default value`, a.default_value && asJit(a.default_value), def && decJit(def));
          check(failures, e, `${a.name}.kwarg_only`, a.kwarg_only, kwargOnly);
          check(failures, e, `${a.name}.is_out`, a.is_out, isOut);
          // c10 keeps a list element's annotation as a contained type; only is_write shows at the top.
          if (a.type.isListLike()) check(failures, e, `${a.name} is_write`, a.is_write, alias?.[2] ?? false);
          else check(failures, e, `${a.name} alias sets`, aliasSets(a.alias_info), alias);
        });
        check(failures, e, "return names", s.returns.map((r) => r.name ?? ""), e.jit.returns.map((r) => r[0]));
        s.returns.forEach((r, i) => {
          const alias = e.jit.returns[i][1];
          if (r.type.isListLike()) check(failures, e, "return is_write", r.is_write, alias?.[2] ?? false);
          else check(failures, e, "return alias sets", aliasSets(r.alias_info), alias);
        });
      }
      expect(failures).toEqual([]);
    });
  }
});
