// The argument parser against PyTorch 1.13's own TypeError texts (test/fixtures/arg_parser.json), using
// the binding signatures PyTorch 1.13 generates for these functions.
import { describe, it, expect } from "vitest";
import * as torch from "../../engine/index.js";
import { PythonArgParser } from "../../engine/aten/python_arg_parser.js";
import { loadFixture, outcome } from "../support/fixtures.js";

const F = loadFixture("arg_parser.json");

const parsers: Record<string, PythonArgParser> = {
  add: new PythonArgParser(["add(Tensor input, Tensor other, *, Scalar alpha=1, Tensor? out=None)", "add(Tensor input, Scalar alpha, Tensor other, *, Tensor? out=None)|deprecated"], true),
  mul: new PythonArgParser(["mul(Tensor input, Tensor other, *, Tensor? out=None)"], true),
  sum: new PythonArgParser([
    "sum(Tensor input, *, ScalarType? dtype=None)",
    "sum(Tensor input, int[1]? dim, bool keepdim=False, *, ScalarType? dtype=None, Tensor? out=None)",
    "sum(Tensor input, Dimname[1] dim, bool keepdim=False, *, ScalarType? dtype=None, Tensor? out=None)",
  ]),
  view: new PythonArgParser(["view(ScalarType dtype)", "view(SymInt[] size)"]),
  ones: new PythonArgParser([
    "ones(int[] size, *, Dimname[]? names, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=False, bool? requires_grad=False)",
    "ones(SymInt[] size, *, Tensor? out=None, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=False, bool? requires_grad=False)",
  ]),
};

const T = torch.ones(2);
const decode = (v: unknown): unknown => (v === "T" ? T : v === "dtype" ? torch.float32 : Array.isArray(v) ? v.map(decode) : v);

describe("PythonArgParser reproduces PyTorch's argument errors", () => {
  for (const c of F.cases) {
    it(`${c.op}: ${c.name}`, () => {
      const args = c.args.map(decode);
      const kwargs = Object.fromEntries(Object.entries(c.kwargs).map(([k, v]) => [k, decode(v)]));
      const call = Object.keys(kwargs).length ? [...args, kwargs] : args;
      expect(outcome(() => parsers[c.op].parse(call))).toEqual({ error: "TypeError", message: c.message });
    });
  }
});

describe("PythonArgParser binds calls", () => {
  it("fills defaults and reads keywords from the trailing options object", () => {
    expect(parsers.add.parse([T, T]).values).toEqual([T, T, 1, null]);
    expect(parsers.add.parse([T, T, { alpha: 2 }]).values).toEqual([T, T, 2, null]);
  });
  it("lets numbers stand for tensors where PyTorch does (add, mul)", () => {
    expect(parsers.add.parse([T, 2]).values[1]).toBe(2);
  });
  it("picks the first signature that fits", () => {
    expect(parsers.sum.parse([T]).index).toBe(0);
    expect(parsers.sum.parse([T, [0], true]).index).toBe(1);
    expect(parsers.sum.parse([T, 0]).values[1]).toEqual([0]); // int[1] takes a single int
  });
  it("takes a lone int list as varargs: view(2, 3)", () => {
    expect(parsers.view.parse([2, 3])).toEqual({ index: 1, values: [[2, 3]] });
    expect(parsers.view.parse([[2, 3]]).values).toEqual([[2, 3]]);
    expect(parsers.view.parse([torch.float16]).index).toBe(0);
  });
  it("treats an explicit undefined keyword like an absent one", () => {
    expect(parsers.add.parse([T, T, { alpha: undefined }]).values[2]).toBe(1);
  });
});
