// The model's helpers: type printing, isTensorLike, alias info, default values, SchemaKind, names, and the
// JIT-only forms (varargs, Dict/Future/tuple types, type variables, custom classes).
import { describe, it, expect } from "vitest";
import { parseSchema, parseType } from "../../../engine/dispatcher/schema/SchemaParser.js";
import { defaultToJS, isTensorLike, type Argument } from "../../../engine/dispatcher/schema/FunctionSchema.js";

const arg = (schema: string, name: string): Argument => {
  const a = parseSchema(schema).argument(name);
  if (!a) throw new Error(`no argument ${name}`);
  return a;
};

describe("types", () => {
  const s = parseSchema(
    "foo(Tensor(a!) self, Tensor(b)? x, Tensor(c!)[] l, Tensor[](d) m, Tensor?[] i, int[2] s, int[1]? d, SymInt[] z, " +
      "Dimname[]? n, Scalar v, Generator? g) -> ()",
  );
  it("print without alias annotations", () => {
    expect(s.arguments.map((a) => String(a.type))).toEqual([
      "Tensor", "Tensor?", "Tensor[]", "Tensor[]", "Tensor?[]", "int[2]", "int[1]?", "SymInt[]", "Dimname[]?", "Scalar",
      "Generator?",
    ]); // prettier-ignore
  });
  it("print with them where they were written", () => {
    expect(s.arguments.slice(0, 4).map((a) => a.type.annotatedString())).toEqual([
      "Tensor(a!)",
      "Tensor(b)?",
      "Tensor(c!)[]",
      "Tensor[](d)",
    ]);
  });
  it("isTensorLike: Tensor, Tensor?, Tensor[], Tensor?[] (under any Optional/List)", () => {
    expect(s.arguments.map((a) => isTensorLike(a.type))).toEqual([
      true, true, true, true, true, false, false, false, false, false, false,
    ]); // prettier-ignore
    expect(isTensorLike(parseType("Tensor[]?"))).toBe(true);
  });
  it("N and the fixed-size list", () => {
    expect(s.arguments.map((a) => a.N)).toEqual([null, null, null, null, null, 2, 1, null, null, null, null]);
    const t = parseType("int[1]?");
    expect(t.kind).toBe("optional");
    expect(t.isListLike()?.size).toBe(1);
    expect(t.isNullable()).toBe(true);
  });
  it("SymInt-like and generator-like", () => {
    expect(parseType("SymInt[]?").isSymIntLike()).toBe(true);
    expect(parseType("Generator?").isGeneratorLike()).toBe(true);
  });
});

describe("alias annotations", () => {
  it("(a!) on self and the return", () => {
    const s = parseSchema("add_.Tensor(Tensor(a!) self, Tensor other, *, Scalar alpha=1) -> Tensor(a!)");
    const a = s.arguments[0].alias_info!;
    expect([a.beforeSets, a.afterSets, a.isWrite, String(a)]).toEqual([["a"], ["a"], true, "a!"]);
    expect(s.returns[0].alias_info!.equals(a)).toBe(true);
  });
  it("(a -> *): aliases flow into a list output", () => {
    const s = parseSchema("split.Tensor(Tensor(a -> *) self, SymInt split_size, int dim=0) -> Tensor(a)[]");
    const a = s.arguments[0].alias_info!;
    expect([a.beforeSets, a.afterSets, a.isWrite, a.isWildcardBefore, a.isWildcardAfter]).toEqual([
      ["a"], ["*"], false, false, true,
    ]); // prettier-ignore
    expect(String(a)).toBe("a -> *");
    expect(String(s.returns[0].alias_info)).toBe("a");
  });
  it("(b|c) sets and (a! -> a|b)", () => {
    expect(arg("foo(Tensor(b|c) x) -> ()", "x").alias_info!.beforeSets).toEqual(["b", "c"]);
    const a = arg("foo(Tensor(a! -> a|b) x) -> ()", "x").alias_info!;
    expect([a.beforeSets, a.afterSets, a.isWrite]).toEqual([["a"], ["a", "b"], true]);
  });
  it("Tensor! is a fresh written set, printed back as written", () => {
    const s = parseSchema("foo(Tensor! x, Tensor! y) -> ()");
    expect(s.arguments.map((a) => a.alias_info!.beforeSets[0])).toEqual(["$0", "$1"]);
    expect(s.arguments.every((a) => a.is_write)).toBe(true);
    expect(String(s)).toBe("foo(Tensor! x, Tensor! y) -> ()");
  });
  it("on list elements and on the list itself", () => {
    expect(arg("foo(Tensor(a!)[] self) -> ()", "self").is_write).toBe(true);
    expect(arg("foo(Tensor[](a!) self) -> ()", "self").is_write).toBe(true);
    const both = arg("foo(Tensor(a)[](b) self) -> ()", "self");
    expect(String(both.alias_info)).toBe("b"); // the list's own, as c10 keeps it at the top
  });
});

describe("default values", () => {
  const d = (schema: string) => parseSchema(schema).arguments[0];
  it.each([
    ["foo(int[2] stride=1) -> ()", { kind: "list", elements: [{ kind: "int", value: 1 }, { kind: "int", value: 1 }], broadcast: true }],
    ["foo(int[] dim=[-2,-1]) -> ()", { kind: "list", elements: [{ kind: "int", value: -2 }, { kind: "int", value: -1 }], broadcast: false }],
    ["foo(int[] size=[]) -> ()", { kind: "list", elements: [], broadcast: false }],
    ["foo(float eps=1e-05) -> ()", { kind: "float", value: 1e-5 }],
    ["foo(float p=1) -> ()", { kind: "float", value: 1 }],
    ["foo(float x=-.5) -> ()", { kind: "float", value: -0.5 }],
    ["foo(Scalar alpha=1) -> ()", { kind: "int", value: 1 }],
    ["foo(Scalar alpha=1.) -> ()", { kind: "float", value: 1 }],
    ["foo(int ignore_index=-100) -> ()", { kind: "int", value: -100 }],
    ["foo(bool keepdim=False) -> ()", { kind: "bool", value: false }],
    ["foo(Tensor? w=None) -> ()", { kind: "none" }],
    ["foo(str mode='reduced') -> ()", { kind: "str", value: "reduced" }],
    ["foo(str a=\"\\\"'\\\\\") -> ()", { kind: "str", value: "\"'\\" }],
    ["foo(str a='\\101\\n') -> ()", { kind: "str", value: "A\n" }],
    ["foo(ScalarType dtype=long) -> ()", { kind: "enum", name: "long", enumType: "ScalarType", value: 4 }],
    ["foo(ScalarType? dtype=float) -> ()", { kind: "enum", name: "float", enumType: "ScalarType", value: 6 }],
    ["foo(MemoryFormat m=contiguous_format) -> ()", { kind: "enum", name: "contiguous_format", enumType: "MemoryFormat", value: 0 }],
    ["foo(int reduction=Mean) -> ()", { kind: "enum", name: "Mean", enumType: "Reduction", value: 1 }],
    ["foo(Layout l=strided) -> ()", { kind: "enum", name: "strided", enumType: "Layout", value: 0 }],
    ["foo(Device d=\"cuda:1\") -> ()", { kind: "device", value: "cuda:1" }],
    ["foo(bool[3] m=[True, False, True]) -> ()", { kind: "list", elements: [{ kind: "bool", value: true }, { kind: "bool", value: false }, { kind: "bool", value: true }], broadcast: false }],
    ["foo(float[] w=[1, 2.5]) -> ()", { kind: "list", elements: [{ kind: "float", value: 1 }, { kind: "float", value: 2.5 }], broadcast: false }],
  ])("%s", (schema, value) => {
    const a = d(schema);
    expect(a.default_value).toEqual(value);
    expect(String(a)).toBe(schema.slice(4, -7)); // the default text is kept as written
  });
  it("keeps int64 beyond 2^53 exact as a bigint", () => {
    expect(d("foo(int end=9223372036854775807) -> ()").default_value).toEqual({
      kind: "int",
      value: 9223372036854775807n,
    });
  });
  it("defaultToJS gives plain values", () => {
    expect(defaultToJS(d("foo(int[2] stride=1) -> ()").default_value!)).toEqual([1, 1]);
    expect(defaultToJS(d("foo(ScalarType? dtype=None) -> ()").default_value!)).toBe(null);
    expect(defaultToJS(d("foo(MemoryFormat m=contiguous_format) -> ()").default_value!)).toBe("contiguous_format");
  });
  it("no default: null text and value", () => {
    const a = d("foo(Tensor self) -> ()");
    expect([a.default, a.default_value, a.has_default]).toEqual([null, null, false]);
  });
});

describe("schema kinds and names (torchgen SchemaKind, OperatorName)", () => {
  it.each([
    ["add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor", "functional"],
    ["add_.Tensor(Tensor(a!) self, Tensor other, *, Scalar alpha=1) -> Tensor(a!)", "inplace"],
    ["add.out(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!)", "out"],
    ["_cummax_helper(Tensor self, Tensor(a!) values, Tensor(b!) indices, int dim) -> ()", "mutable"],
    ["foo.out(Tensor self, *, Tensor(a!) out, Tensor(b!) _scratch_tmp) -> Tensor(a!)", "scratch"],
    ["__iand__.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)", "inplace"],
    ["_foreach_add_.Scalar(Tensor(a!)[] self, Scalar scalar) -> ()", "inplace"],
  ])("%s is %s", (text, kind) => expect(parseSchema(text).kind()).toBe(kind));

  it("isInplace / isOut / isMutable", () => {
    const f = (t: string) => {
      const s = parseSchema(t);
      return [s.isInplace(), s.isOut(), s.isMutable()];
    };
    expect(f("add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor")).toEqual([false, false, false]);
    expect(f("add_.Tensor(Tensor(a!) self, Tensor other, *, Scalar alpha=1) -> Tensor(a!)")).toEqual([true, false, true]);
    expect(f("add.out(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!)")).toEqual([false, true, true]);
    expect(f("set_data(Tensor(a!) self, Tensor new_data) -> ()")).toEqual([false, false, true]);
  });

  it("out arguments, kwarg-only and positional", () => {
    const s = parseSchema(
      "max.dim_max(Tensor self, int dim, bool keepdim=False, *, Tensor(a!) max, Tensor(b!) max_values) -> (Tensor(a!) values, Tensor(b!) indices)",
    );
    expect(s.outArguments().map((a) => a.name)).toEqual(["max", "max_values"]);
    expect(s.positional().map((a) => a.name)).toEqual(["self", "dim", "keepdim"]);
    expect(s.kwargOnly()).toEqual([]);
    expect(s.arguments.map((a) => a.is_out)).toEqual([false, false, false, true, true]);
    expect(s.returns.map((r) => r.name)).toEqual(["values", "indices"]);
    expect(s.selfArgument()?.name).toBe("self");
  });

  it("fullName, namespace, operator name parts", () => {
    const a = parseSchema("aten::add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor");
    expect([a.fullName(), a.name, a.namespace, a.unqualifiedName, a.overload_name]).toEqual([
      "aten::add.Tensor", "aten::add", "aten", "add", "Tensor",
    ]); // prettier-ignore
    expect(String(a)).toBe("aten::add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor");
    const r = parseSchema("relu(Tensor self) -> Tensor");
    expect([r.fullName(), r.namespace, r.overload_name]).toEqual(["relu", null, ""]);
    expect(parseSchema("native_batch_norm_functional(Tensor input) -> Tensor").operatorName).toEqual({
      base: "native_batch_norm",
      inplace: false,
      dunder_method: false,
      functional_overload: true,
    });
    expect(parseSchema("__iand__.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)").operatorName).toEqual({
      base: "and",
      inplace: true,
      dunder_method: true,
      functional_overload: false,
    });
  });
});

describe("the rest of the JIT's language", () => {
  it.each([
    "foo(int x, ...) -> ...",
    "foo(Tensor x) -> (Tensor, ...)",
    "foo(...) -> ()",
    "aten::items.str(Dict(str, t) self) -> ((str, t)[])",
    "foo(Dict(str, Tensor)(a) d, Future(int) f, RRef(Tensor) r, (int, float) tup, Union(int, str) u) -> ((int, int))",
    "aten::append.t(t[](a!) self, t(c -> *) el) -> t[](a!)",
    "foo(__torch__.torch.classes.quantized.Conv2dPackedParamsBase p) -> Tensor",
    "foo(complex c, Any a, None n, number x, Capsule c2, QScheme q, Stream s, Storage st) -> ()",
    "foo(int[2](a) x) -> ()",
    "foo(int(a) x) -> int(a)",
  ])("round-trips %s", (text) => expect(String(parseSchema(text))).toBe(text));

  it("records varargs", () => {
    const s = parseSchema("foo(int x, ...) -> (Tensor, ...)");
    expect([s.is_vararg, s.is_varret, s.returns.length]).toEqual([true, true, 1]);
  });

  it("knows type variables and tuples", () => {
    expect(parseType("t[]").kind).toBe("list");
    expect(parseType("t").kind).toBe("var");
    expect(parseType("(int, Tensor)").kind).toBe("tuple");
  });

  it("normalizes spacing, comments, a parenthesized single return and a trailing `*`", () => {
    expect(String(parseSchema("foo ( Tensor  x , * ) ->  ( Tensor y ) # note"))).toBe("foo(Tensor x) -> Tensor y");
    expect(String(parseSchema("foo(Tensor x,\n    int y=1) -> ()"))).toBe("foo(Tensor x, int y=1) -> ()");
  });
});
