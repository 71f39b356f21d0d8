// engine/ops/derivatives.yaml and its loader (PyTorch's tools/autograd/load_derivatives.py): the real file
// matches its operators and saves what PyTorch's Nodes save; mistakes are reported at their yaml position.
import { describe, it, expect } from "vitest";
import { mkdtempSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { loadNativeFunctions } from "../../engine/codegen/model.js";
import { expandAutogen } from "../../engine/codegen/autogen.js";
import { loadDerivatives, parseDerivatives, findDerivative, opPrefix, DerivativesError, type DifferentiabilityInfo } from "../../engine/codegen/derivatives.js";

const opsDir = fileURLToPath(new URL("../../engine/ops/", import.meta.url));
// native_functions.yaml and the family files, as engine/codegen/main.ts loads them
const familyFiles = readdirSync(join(opsDir, "native_functions")).filter((f) => f.endsWith(".yaml")).sort();
const declared = [
  loadNativeFunctions(join(opsDir, "native_functions.yaml"), "engine/ops/native_functions.yaml"),
  ...familyFiles.map((f) => loadNativeFunctions(join(opsDir, "native_functions", f), `engine/ops/native_functions/${f}`)),
].flat();
const fns = [...declared, ...expandAutogen(declared)];
const infos = loadDerivatives(join(opsDir, "derivatives.yaml"), "engine/ops/derivatives.yaml", fns);
const info = (name: string): DifferentiabilityInfo => infos.find((i) => i.fn.func.fullName() === name)!;
const names = (attrs: readonly { name: string }[]) => attrs.map((a) => a.name);
const formulaFor = (i: DifferentiabilityInfo, input: string) => i.derivatives.find((d) => d.varNames.includes(input))!;

describe("engine/ops/derivatives.yaml", () => {
  it("has one entry per differentiable operator, each matched to its native_functions.yaml entry", () => {
    expect(infos.slice(0, 8).map((i) => i.fn.func.fullName())).toEqual(["add.Tensor", "mul.Tensor", "fill.Scalar", "fill.Tensor", "fill_.Scalar", "fill_.Tensor", "sum", "sum.dim_IntList"]);
    for (const i of infos) {
      expect(String(i.fn.func)).toBe(i.schema);
      expect(i.loc.file).toBe("engine/ops/derivatives.yaml");
      expect(i.endLine).toBeGreaterThanOrEqual(i.loc.line);
    }
  });

  it("names the Node classes as PyTorch does (<Name>Backward<N>, N per name in file order)", () => {
    expect(infos.slice(0, 8).map((i) => i.op)).toEqual(["AddBackward0", "MulBackward0", "FillBackward0", "FillBackward1", "FillBackward2", "FillBackward3", "SumBackward0", "SumBackward1"]);
    // overloads numbered in PyTorch's file order (checked against torch 1.13's grad_fn names)
    const op = (n: string) => info(n).op;
    expect(["pow.Tensor_Scalar", "pow.Tensor_Tensor", "pow.Scalar", "clamp.Tensor", "clamp", "max.dim", "max", "eq_.Scalar", "eq_.Tensor"].map(op)).toEqual(
      ["PowBackward0", "PowBackward1", "PowBackward2", "ClampBackward0", "ClampBackward1", "MaxBackward0", "MaxBackward1", "EqBackward0", "EqBackward1"]);
    // an entry that differentiates nothing gets no Node class
    expect(op("eq.Tensor")).toBe(null);
    // a Tensor[] input saves its tensors' sizes and scalar types, not the tensors
    expect(names(info("cat").allSavedInputs).sort()).toEqual(["dim", "tensors_args_scalartypes", "tensors_args_sizes"]);
    expect(info("split.Tensor").derivatives[0].usesGradsList).toBe(true);
    expect(opPrefix("max_pool2d_with_indices")).toBe("MaxPool2DWithIndicesBackward");
    expect(opPrefix("_cudnn_rnn_forward")).toBe("CudnnRnnBackward");
  });

  it("mul.Tensor saves other for self's gradient and self for other's, plus the scalar types", () => {
    const mul = info("mul.Tensor");
    expect(names(formulaFor(mul, "self").savedInputs)).toEqual(["self_scalar_type", "other"]);
    expect(names(formulaFor(mul, "other").savedInputs)).toEqual(["self", "other_scalar_type"]);
    expect(names(mul.allSavedInputs).sort()).toEqual(["other", "other_scalar_type", "self", "self_scalar_type"]);
    expect(mul.allSavedOutputs).toEqual([]);
    expect(formulaFor(mul, "self").savedInputs[1]).toEqual({ name: "other", from: "input", source: "other", metadata: null, type: "Tensor" });
    expect(formulaFor(mul, "self").helpers).toEqual(["mul_tensor_backward"]);
  });

  it("add.Tensor saves only alpha and the scalar types (PyTorch's AddBackward0)", () => {
    const add = info("add.Tensor");
    expect(names(formulaFor(add, "self").savedInputs)).toEqual(["self_scalar_type"]);
    expect(names(formulaFor(add, "other").savedInputs)).toEqual(["other_scalar_type", "alpha"]);
    expect(formulaFor(add, "other").savedInputs[1]).toMatchObject({ name: "alpha", type: "Scalar", metadata: null });
    expect(add.argsWithDerivatives).toEqual(["self", "other"]);
  });

  it("sum, sum.dim_IntList and view save sizes, not the tensor; fill_ saves nothing", () => {
    expect(info("sum").allSavedInputs).toEqual([{ name: "self_sym_sizes", from: "input", source: "self", metadata: "sym_sizes", type: "SymInt[]" }]);
    expect(names(info("sum.dim_IntList").allSavedInputs)).toEqual(["self_sym_sizes", "dim", "keepdim"]);
    expect(info("sum.dim_IntList").allSavedInputs.map((a) => a.type)).toEqual(["SymInt[]", "int[1]?", "bool"]);
    expect(names(info("view").allSavedInputs)).toEqual(["self_sym_sizes"]);
    expect(info("fill_.Scalar").allSavedInputs).toEqual([]);
  });

  it("keeps each formula's text and its parsed expression", () => {
    const d = formulaFor(info("view"), "self");
    expect(d.formula).toBe("grad.reshape(self_sym_sizes)");
    expect(ts.isCallExpression(d.expr)).toBe(true);
    expect(d.expr.getText(d.sourceFile)).toBe("grad.reshape(self_sym_sizes)");
    expect(d.usesGrad).toBe(true);
    expect(d.loc.line).toBeGreaterThan(info("view").loc.line);
  });

  it("reads the forward-mode formulas", () => {
    const mul = info("mul.Tensor").forwardDerivatives[0];
    expect(mul).toMatchObject({ varNames: ["result"], kind: "formula", requiredInputsTangent: ["self", "other"], requiredInputsPrimal: ["self", "other"] });
    expect(info("add.Tensor").forwardDerivatives[0]).toMatchObject({ requiredInputsTangent: ["self", "other"], requiredInputsPrimal: [] });
    expect(info("sum").forwardDerivatives[0]).toMatchObject({ kind: "auto_linear", expr: null, requiredInputsTangent: ["self"] });
  });

  it("in-place variants use their functional entry; out= variants and factories have none", () => {
    const byName = (n: string) => fns.find((f) => f.func.fullName() === n)!;
    expect(findDerivative(byName("add_.Tensor"), infos)).toEqual({ info: info("add.Tensor"), exact: false });
    expect(findDerivative(byName("mul_.Tensor"), infos)?.info.op).toBe("MulBackward0");
    // torchgen signature() drops the overload name: pow_.Tensor pairs with pow.Tensor_Tensor, pow_.Scalar with pow.Tensor_Scalar
    expect(findDerivative(byName("pow_.Tensor"), infos)?.info.op).toBe("PowBackward1");
    expect(findDerivative(byName("pow_.Scalar"), infos)?.info.op).toBe("PowBackward0");
    expect(findDerivative(byName("fill_.Scalar"), infos)).toEqual({ info: info("fill_.Scalar"), exact: true });
    expect(findDerivative(byName("add.out"), infos)).toBeNull();
    expect(findDerivative(byName("ones"), infos)).toBeNull();
    expect(findDerivative(byName("empty.memory_format"), infos)).toBeNull();
  });
});

describe("problems are reported at their position in the yaml", () => {
  const MUL = "- name: mul.Tensor(Tensor self, Tensor other) -> Tensor\n";
  const ADD = "- name: add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor\n";
  const load = (text: string) => {
    const dir = mkdtempSync(join(tmpdir(), "gt-derivatives-"));
    writeFileSync(join(dir, "d.yaml"), text);
    return loadDerivatives(join(dir, "d.yaml"), "d.yaml", fns);
  };
  const errorOf = (text: string): DerivativesError => {
    try {
      load(text);
    } catch (e) {
      expect(e).toBeInstanceOf(DerivativesError);
      return e as DerivativesError;
    }
    throw new Error("expected the yaml to be rejected");
  };
  /** 1-based column of `needle` in line `line` (1-based) of `text`. */
  const col = (text: string, line: number, needle: string) => text.split("\n")[line - 1].indexOf(needle) + 1;

  it("an unknown identifier, at the identifier", () => {
    const text = MUL + "  self: grad.mul(othr)\n";
    const e = errorOf(text);
    expect(col(text, 2, "othr")).toBe(18);
    expect(e.message).toMatch(/^d\.yaml:2:18: unknown name 'othr' in the formula for self/);
    expect(e.loc).toEqual({ file: "d.yaml", line: 2, column: 18 });
  });

  it("an unknown identifier inside a quoted formula and in a forward formula", () => {
    const text = MUL + "  self: 'true ? grad.mul(other) : grad.mul(otehr)'\n  result: self_t.mul(bogus)\n";
    const e = errorOf(text);
    expect(e.problems.map((p) => p.message)).toEqual([
      expect.stringMatching(new RegExp(`^d\\.yaml:2:${col(text, 2, "otehr")}: unknown name 'otehr'`)),
      expect.stringMatching(new RegExp(`^d\\.yaml:3:${col(text, 3, "bogus")}: unknown name 'bogus' in the forward formula`)),
    ]);
    expect(e.message.split("\n")).toHaveLength(2);
  });

  it("a schema that matches no operator, at the schema", () => {
    const text = "- name: mul.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor\n  self: grad\n";
    const e = errorOf(text);
    expect(e.message).toMatch(/^d\.yaml:1:9: could not find an operator in native_functions\.yaml for schema: mul\.Tensor\(Tensor self, Tensor other, \*, Scalar alpha=1\) -> Tensor; operators named mul: mul\.Tensor\(/);
  });

  it("the schema must match exactly, names and defaults included (PyTorch's rule)", () => {
    expect(errorOf("- name: mul.Tensor(Tensor a, Tensor b) -> Tensor\n  a: grad\n").loc).toMatchObject({ line: 1, column: 9 });
  });

  it("a malformed expression, at the parser's error", () => {
    const unclosed = MUL + "  self: grad.mul(other\n";
    expect(errorOf(unclosed).message).toBe(`d.yaml:2:${unclosed.split("\n")[1].length + 1}: malformed formula: ')' expected.`);
    const twoExprs = MUL + "  self: grad other\n";
    expect(errorOf(twoExprs).message).toBe(`d.yaml:2:${col(twoExprs, 2, "other")}: malformed formula: ')' expected.`);
  });

  it("syntax outside the formula language, at that syntax", () => {
    const arrow = MUL + "  self: grad.mul((x) => x)\n";
    expect(errorOf(arrow).message).toBe(`d.yaml:2:${col(arrow, 2, "(x)")}: an arrow function is not part of the formula language`);
    const assign = MUL + "  self: grad = other\n";
    expect(errorOf(assign).message).toBe(`d.yaml:2:${col(assign, 2, "=")}: the operator '=' is not part of the formula language`);
  });

  it("a duplicate entry, at the second one", () => {
    const text = MUL + "  self: grad\n\n" + MUL + "  other: grad\n";
    expect(errorOf(text).message).toBe("d.yaml:4:9: duplicate entry for mul.Tensor(Tensor self, Tensor other) -> Tensor (first defined at line 1)");
  });

  it("a formula for an input the operator does not have, at that name", () => {
    expect(errorOf(MUL + "  selff: grad\n").message).toMatch(/^d\.yaml:2:3: 'selff' is neither an input of mul\.Tensor \(self, other\) nor an output \(result\)/);
    const shared = MUL + "  self, othr: foo(grad)\n";
    expect(errorOf(shared).message).toMatch(new RegExp(`^d\\.yaml:2:${col(shared, 2, "othr")}: 'othr' is not an input of mul\\.Tensor`));
    expect(errorOf(ADD + "  alpha: grad\n").message).toBe("d.yaml:2:3: 'alpha' is a Scalar: only Tensor inputs have gradients");
  });

  it("helpers must be called with their arity; metadata exists only for Tensors", () => {
    const text = ADD + "  self: maybe_multiply(grad)\n  other: grad.mul(alpha_scalar_type)\n";
    expect(errorOf(text).problems.map((p) => p.message)).toEqual([
      `d.yaml:2:${col(text, 2, "maybe")}: maybe_multiply takes 2 argument(s), got 1`,
      expect.stringMatching(new RegExp(`^d\\.yaml:3:${col(text, 3, "alpha_")}: unknown name 'alpha_scalar_type'`)),
    ]);
  });

  it("PyTorch's checks: bare inputs in forward formulas, mixed grad styles, grads out of bounds", () => {
    const fw = MUL + "  self: grad\n  result: self.mul(other_p)\n";
    expect(errorOf(fw).message).toMatch(/^d\.yaml:3:11: the forward formula is using the base name of the self argument/);
    expect(errorOf(MUL + "  self: grad\n  other: grads[0]\n").message).toMatch(/^d\.yaml:1:9: the formulas of mul\.Tensor mix 'grad' and 'grads'/);
    expect(errorOf(MUL + "  self: grads[1]\n").message).toMatch(/^d\.yaml:2:9: grads\[1\] is out of bounds/);
  });

  it("a yaml syntax error, at its position", () => {
    expect(errorOf(MUL + "  self: [grad\n").message).toMatch(/^d\.yaml:3:1: Flow sequence in block collection must be sufficiently indented and end with a \]$/);
    expect(errorOf(MUL + "  self: grad\n  self: grad\n").message).toBe("d.yaml:3:3: Map keys must be unique");
  });

  it("positions inside folded and quoted formulas", () => {
    const folded = MUL + "  self: >\n    grad.mul(\n      othr)\n";
    expect(errorOf(folded).loc).toMatchObject({ line: 4, column: 7 });
    const escaped = MUL + '  self: "grad.mul(\\"x\\", othr)"\n';
    expect(errorOf(escaped).loc).toMatchObject({ line: 2, column: col(escaped, 2, "othr") });
    const chained = MUL + "  self: grad.mul(other?.x)\n";
    expect(errorOf(chained).message).toBe(`d.yaml:2:${col(chained, 2, "?.")}: optional chaining '?.' is not part of the formula language`);
  });

  it("parseDerivatives returns every problem instead of throwing", () => {
    const { infos: ok, problems } = parseDerivatives(MUL + "  self: grad.mul(other)\n  other: nope\n" + ADD + "  self: grad\n", "d.yaml", fns);
    expect(problems.map((p) => [p.loc.line, p.loc.column])).toEqual([[3, 10]]);
    expect(ok.map((i) => i.op)).toEqual(["MulBackward0", "AddBackward0"]);
  });

  it("non_differentiable and not_implemented", () => {
    const [mul] = load(MUL + "  self: not_implemented(\"mul\")\n  other: non_differentiable\n");
    expect(mul.nonDifferentiableArgNames).toEqual(["other"]);
    expect(mul.argsWithDerivatives).toEqual(["self"]);
    expect(formulaFor(mul, "self").savedInputs).toEqual([]);
    const [nothing] = load(MUL + "  output_differentiability: [False]\n");
    expect(nothing.op).toBeNull();
    expect(nothing.outputDifferentiability).toEqual([false]);
  });
});
