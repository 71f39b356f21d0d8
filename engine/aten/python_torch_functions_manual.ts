// The bindings PyTorch writes by hand instead of generating (torch/csrc/autograd/python_torch_functions_manual.cpp,
// python_variable_methods.cpp): torch.nonzero and Tensor.nonzero, whose as_tuple=True returns one
// index tensor per dim (aten::nonzero_numpy) instead of one [n, ndim] tensor (aten::nonzero).

import { RuntimeError } from "../c10/Errors.js";
import { Tensor } from "./core/Tensor.js";
import { PythonArgParser } from "./python_arg_parser.js";
import { isTracing, noteApiBinding } from "../trace/session.js";
import { nonzero_default, nonzero_out } from "../generated/nonzero.js";
import { nonzero_numpy_default } from "../generated/nonzero_numpy.js";

const parser = new PythonArgParser(["nonzero(Tensor input, *, bool as_tuple=False, Tensor? out=None)"]);

/** torch.nonzero(input, {as_tuple, out}) */
export function nonzero(input: Tensor, options?: { as_tuple?: false; out?: Tensor | null }): Tensor;
export function nonzero(input: Tensor, options: { as_tuple: true }): Tensor[];
export function nonzero(...args: unknown[]): Tensor | Tensor[] {
  if (isTracing()) noteApiBinding("torch.nonzero");
  const [input, asTuple, out] = parser.parse(args).values as [Tensor, boolean, Tensor | null];
  if (asTuple) {
    if (out !== null) throw new RuntimeError("nonzero does not support the out kwarg when as_tuple is True");
    return nonzero_numpy_default.call(input) as Tensor[];
  }
  return (out !== null ? nonzero_out.call(input, out) : nonzero_default.call(input)) as Tensor;
}

const methodParser = new PythonArgParser(["nonzero()", "nonzero(*, bool as_tuple)"]);

declare module "./core/Tensor.js" {
  interface Tensor {
    nonzero(options?: { as_tuple?: false }): Tensor;
    nonzero(options: { as_tuple: true }): Tensor[];
  }
}

function Tensor_nonzero(this: Tensor, ...args: unknown[]): Tensor | Tensor[] {
  if (isTracing()) noteApiBinding("Tensor.nonzero");
  const r = methodParser.parse(args);
  if (r.index === 0 || !(r.values[0] as boolean)) return nonzero_default.call(this) as Tensor;
  return nonzero_numpy_default.call(this) as Tensor[];
}

Object.assign(Tensor.prototype, { nonzero: Tensor_nonzero });
