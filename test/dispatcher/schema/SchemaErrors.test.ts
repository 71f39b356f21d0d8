// Bad schemas: every one torch._C.parse_schema rejects is rejected here too, at the position the JIT's caret
// points to (where it gives one), with a readable reason and a caret excerpt; `origin` maps positions to the file.
import { describe, it, expect } from "vitest";
import { parseSchema, parseType, SchemaParseError } from "../../../engine/dispatcher/schema/SchemaParser.js";
import { corpus } from "./corpus.js";

function errorOf(text: string, origin?: Parameters<typeof parseSchema>[1]): SchemaParseError {
  try {
    parseSchema(text, origin);
  } catch (e) {
    expect(e).toBeInstanceOf(SchemaParseError);
    return e as SchemaParseError;
  }
  throw new Error(`accepted: ${text}`);
}

// Where the JIT shows no caret (end of input, checks without a position), or points past the offending
// identifier (its parseSingleConstant reports at the token after an unknown default name), our position is:
const OWN_POSITION: Record<string, [number, number]> = {
  "foo(Tensor x)": [1, 14],
  "foo(Tensor x) -> ": [1, 18],
  "foo(ScalarType x=bad) -> ()": [1, 18],
  "foo(float x=inf) -> ()": [1, 13],
  "foo(int x=99999999999999999999) -> ()": [1, 11],
  "foo(Tensor x) -> (Tensor, Tensor": [1, 33],
  "foo(Tensor x) -> Tensor[": [1, 25],
  "foo.default(Tensor x) -> ()": [1, 5],
  "foo.__bar(Tensor x) -> ()": [1, 5],
  "aten::add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor(a!": [1, 76],
  foo: [1, 4],
  "": [1, 1],
};

// Errors whose wording we keep from the JIT.
const SAME_REASON = new Set([
  "foo(str s='a\\q') -> ()",
  "foo(str s='a\\x41') -> ()",
  "foo(Tensor x, ..., int y) -> ()",
  "foo(Tensor x) -> (Tensor, ..., Tensor)",
  "foo.default(Tensor x) -> ()",
  "foo.__bar(Tensor x) -> ()",
]);

describe("schemas torch._C.parse_schema rejects", () => {
  it("the fixture holds them", () => expect(corpus.invalid.length).toBeGreaterThanOrEqual(40));
  for (const bad of corpus.invalid) {
    it(`rejects ${JSON.stringify(bad.schema)} (JIT: ${bad.jit_reason})`, () => {
      const err = errorOf(bad.schema);
      const want =
        OWN_POSITION[bad.schema] ?? (bad.jit_line !== null ? [bad.jit_line, bad.jit_column] : "missing expectation");
      expect([err.line, err.column]).toEqual(want);
      if (SAME_REASON.has(bad.schema)) expect(err.reason).toBe(bad.jit_reason);
      expect(err.message.startsWith(`${err.reason} at ${err.line}:${err.column}\n`)).toBe(true);
    });
  }
});

describe("error messages", () => {
  it("names what was expected and what was found, with a caret under it", () => {
    const err = errorOf("foo(Tensor x -> Tensor");
    expect(err.reason).toBe("expected ')' but found '->'");
    expect(err.message).toBe(
      ["expected ')' but found '->' at 1:14", "  foo(Tensor x -> Tensor", "               ^~"].join("\n"),
    );
    expect([err.offset, err.length]).toEqual([13, 2]);
    expect(err.name).toBe("SchemaParseError");
    expect(err).toBeInstanceOf(Error);
  });

  it.each([
    ["foo(Tensor x)", "expected '->' but found end of input"],
    ["foo(Tensor def) -> ()", "expected an argument name but found keyword 'def'"],
    ["foo(Foo x) -> ()", "unknown type 'Foo'"],
    ["foo(Tensor x=1) -> ()", "expected None but found number '1'"],
    ["foo(Stream s=None) -> ()", "default values are not supported for type 'Stream'"],
    ["foo(ScalarType x=bad) -> ()", "invalid default value 'bad'"],
    ['foo(str s="abc) -> ()', "unterminated string literal"],
    ["foo(Tensor self, $x) -> ()", "unexpected character '$'"],
    ["foo(int[2] x=[1, 2.5]) -> ()", "expected an int in the default of int[2]"],
    ["foo(bool[2] x=[True, 1]) -> ()", "expected a bool in the default of bool[2]"],
    ["foo(int[1.5] x) -> ()", "list size must be an integer, got '1.5'"],
    ["foo(__torch__.torch.klasses.ns.C x) -> ()", "Expected classes namespace but got klasses"],
  ])("%s: %s", (text, reason) => expect(errorOf(text).reason).toBe(reason));

  it("points into the right line of a multi-line schema", () => {
    const err = errorOf("foo(Tensor x,\n    int y=) -> ()");
    expect([err.line, err.column]).toEqual([2, 11]);
    expect(err.excerpt).toBe("      int y=) -> ()\n            ^");
  });
});

describe("positions in the original file (origin)", () => {
  const origin = { file: "native_functions.yaml", line: 120, column: 9 };

  it("reports file:line:column", () => {
    const err = errorOf("foo(Tensor x -> Tensor", origin);
    expect([err.file, err.line, err.column]).toEqual(["native_functions.yaml", 120, 22]);
    expect(err.message.split("\n")[0]).toBe("expected ')' but found '->' at native_functions.yaml:120:22");
  });

  it("offsets only the first line's columns", () => {
    const err = errorOf("foo(Tensor x,\n    int y=) -> ()", origin);
    expect([err.line, err.column]).toEqual([121, 11]);
  });

  it("locates a broken copy of a real yaml entry", () => {
    const e = corpus.schemas.find((s) => s.func.startsWith("add.Tensor("))!;
    const broken = e.func.replace("alpha=1)", "alpha=1");
    const err = errorOf(broken, { file: corpus.yaml, line: e.line, column: e.column });
    expect([err.line, err.column]).toEqual([e.line, e.column + broken.indexOf(" -> ") + 1]);
    expect(err.reason).toBe("expected ')' but found '->'");
  });

  it("later stages can report at a place in a schema with the same error", () => {
    const text = "add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor";
    const at = text.indexOf("alpha");
    const err = new SchemaParseError("derivatives.yaml names no argument 'alpha'", text, at, 5, origin);
    expect([err.line, err.column, err.length]).toEqual([120, 9 + at, 5]);
    expect(err.excerpt.split("\n")[1]).toBe("  " + " ".repeat(at) + "^~~~~");
  });

  it("parseType reports positions in the type text", () => {
    expect(String(parseType("Tensor(a!)?"))).toBe("Tensor?");
    let err: unknown;
    try {
      parseType("Tensor(a!");
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(SchemaParseError);
    expect([(err as SchemaParseError).line, (err as SchemaParseError).column]).toEqual([1, 10]);
  });
});
