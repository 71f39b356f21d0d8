// How an operator appears to the user as torch.<name> / Tensor.<name>: its binding signature
// (tools/autograd/gen_python_functions.py + torchgen/api/python.py, much simplified).
//
// A binding merges a functional overload with its out= twin (add.Tensor + add.out become
// "add(Tensor input, Tensor other, *, Scalar alpha=1, Tensor? out=None)"), renames self to input
// for torch.* functions, drops self for methods, and gives factories Python's requires_grad.

import type { Argument, FunctionSchema } from "../dispatcher/schema/FunctionSchema.js";
import type { NativeFunction, Variant } from "./model.js";

/** PyTorch lets numbers stand for tensors in these functions (python_arg_parser.cpp should_allow_numbers_as_tensors). */
export const numbersAsTensors = new Set([
  "add", "add_", "add_out", "div", "div_", "div_out", "mul", "mul_", "mul_out", "sub", "sub_", "sub_out",
  "true_divide", "true_divide_", "true_divide_out", "floor_divide", "floor_divide_", "floor_divide_out",
]);

const tensorOptionNames = ["dtype", "layout", "device", "pin_memory"];

export interface BindingOverload {
  /** The functional (or in-place) overload called when out= is absent. */
  fn: NativeFunction;
  /** Its out= twin, if it has one. */
  out: NativeFunction | null;
  /** The signature string PythonArgParser reads. */
  signature: string;
  /** The binding's parameter names in signature order (what PythonArgParser returns). */
  params: string[];
  /** A factory (TensorOptions, no tensor input): the binding adds requires_grad. */
  isFactory: boolean;
}

export interface Binding {
  name: string;
  variant: Variant;
  overloads: BindingOverload[];
}

/** The argument list as a binding prints it: type (no alias annotation), name, default. */
function param(a: Argument, rename: string | null): string {
  const def = a.default !== null ? `=${a.default}` : "";
  return `${a.type.toString()} ${rename ?? a.name}${def}`;
}

function sameArgs(a: readonly Argument[], b: readonly Argument[]): boolean {
  return a.length === b.length && a.every((x, i) => x.name === b[i].name && x.type.toString() === b[i].type.toString());
}

/**
 * A factory takes TensorOptions (dtype, layout, device, pin_memory): zeros, empty_like, full_like...
 * PyTorch's bindings give these requires_grad and run them as torch:: variable factories.
 */
function isFactory(s: FunctionSchema): boolean {
  return tensorOptionNames.every((n) => s.argument(n) !== undefined);
}

/**
 * Overloads PyTorch gives no Python binding (gen_python_functions.py SKIP_PYTHON_BINDINGS_SIGNATURES):
 * numbers reach the Tensor overloads as wrapped numbers instead.
 */
const skippedOverloads = new Set(["add.Scalar", "add_.Scalar", "sub.Scalar", "sub_.Scalar", "mul.Scalar", "mul_.Scalar", "div.Scalar", "div_.Scalar"]);

export function isSkippedOverload(fullName: string): boolean {
  return skippedOverloads.has(fullName.replace(/^aten::/, ""));
}

/** Tensor methods PyTorch binds by hand (SKIP_PYTHON_BINDINGS; python_variable_methods.cpp): engine/aten/python_variable_methods.ts. */
export const handWrittenMethods = new Set(["to"]);
/** gen_python_functions.py SKIP_PYTHON_BINDINGS patterns ".*_forward", ".*_backward": no Python binding anywhere. */
export function isSkippedPythonBinding(name: string): boolean {
  return /_(forward|backward)$/.test(name);
}
/**
 * Ops PyTorch binds to Python by hand or not at all (gen_python_functions.py SKIP_PYTHON_BINDINGS:
 * "index", "nonzero(_(out|numpy))?", "lift.*", "item"): no generated torch.* function or Tensor method.
 * torch.nonzero / Tensor.nonzero (with as_tuple) are written by hand, as python_torch_functions_manual.cpp does.
 */
const skippedNames = new Set(["index", "nonzero", "nonzero_numpy", "lift_fresh", "item"]);

/** Names PyTorch keeps out of torch.* (gen_python_functions.py SKIP_PYTHON_BINDINGS, and private names). */
export function isHiddenFromTorch(name: string): boolean {
  return name.startsWith("_") || ["slice", "alias"].includes(name) || isSkippedPythonBinding(name);
}

function bindingOf(name: string, variant: Variant, fn: NativeFunction, out: NativeFunction | null): BindingOverload {
  const s = fn.func;
  const pieces: string[] = [];
  const params: string[] = [];
  let star = false;
  for (const a of s.arguments) {
    if (a.name === "self" && variant === "method") continue;
    if (a.kwarg_only && !star) {
      pieces.push("*");
      star = true;
    }
    // torch.add(input, ...): a Tensor self is called input; a Scalar self keeps its name (pow(Number self, ...))
    const rename = a.name === "self" && a.type.toString() === "Tensor" ? "input" : null;
    pieces.push(param(a, rename));
    params.push(rename ?? a.name);
  }
  const factory = isFactory(s);
  const extras: string[] = [];
  if (out) extras.push(out.func.outArguments().length > 1 ? "Tensor[] out=None" : "Tensor? out=None");
  if (factory) extras.push("bool? requires_grad=False");
  if (extras.length && !star) pieces.push("*");
  pieces.push(...extras);
  params.push(...extras.map((e) => e.split(" ")[1].split("=")[0]));
  return { fn, out, signature: `${name}(${pieces.join(", ")})`, params, isFactory: factory };
}

/** Every torch.* function and Tensor method the yaml asks for, grouped by Python name. */
export function computeBindings(fns: readonly NativeFunction[]): Binding[] {
  const bindings: Binding[] = [];
  for (const variant of ["function", "method"] as const) {
    const byName = new Map<string, NativeFunction[]>();
    for (const f of fns) {
      if (!f.variants.has(variant) || f.func.isOut() || isSkippedOverload(f.func.fullName())) continue;
      const name = f.func.name.replace(/^aten::/, "");
      if (variant === "method" && handWrittenMethods.has(name)) continue;
      if (skippedNames.has(name)) continue;
      byName.set(name, [...(byName.get(name) ?? []), f]);
    }
    for (const [name, list] of byName) {
      const overloads = list.map((fn) => {
        const twin = fns.find((o) => o.func.isOut() && o.variants.has("function") && o.func.name === fn.func.name && sameArgs(nonOut(o.func), fn.func.arguments));
        return bindingOf(name, variant, fn, variant === "function" ? twin ?? null : null);
      });
      bindings.push({ name, variant, overloads });
    }
  }
  return bindings;
}

function nonOut(s: FunctionSchema): Argument[] {
  const outs = new Set(s.outArguments());
  return s.arguments.filter((a) => !outs.has(a));
}
