// torch.nn.Parameter (torch/nn/parameter.py): a Tensor subclass a Module registers when it is assigned
// as an attribute. Parameter(data) is Tensor._make_subclass(Parameter, data, requires_grad): a detached
// alias of data's storage (same version counter) that is a leaf and requires grad by default.

import { Tensor } from "../aten/core/Tensor.js";
import { empty } from "../generated/torch_functions.js";

export class Parameter extends Tensor {
  constructor(data: Tensor | null = null, requires_grad = true) {
    const base = data ?? (empty([0]) as Tensor);
    super((base.detach() as Tensor)._impl);
    this.requires_grad_(requires_grad);
  }

  /** Parameter.__repr__: 'Parameter containing:\n' + Tensor.__repr__. */
  override toString(): string {
    return "Parameter containing:\n" + super.toString();
  }

  [Symbol.for("nodejs.util.inspect.custom")](): string {
    return this.toString();
  }
}

/** torch.typename(obj): the type name PyTorch puts in its TypeError texts. */
export function typename(obj: unknown): string {
  if (obj === null || obj === undefined) return "NoneType";
  if (obj instanceof Parameter) return "torch.nn.parameter.Parameter";
  if (obj instanceof Tensor) {
    const names: Record<string, string> = {
      float32: "Float", float64: "Double", float16: "Half", bfloat16: "BFloat16", int64: "Long", int32: "Int",
      int16: "Short", int8: "Char", uint8: "Byte", bool: "Bool",
    };
    return `torch.${names[obj.dtype.name] ?? ""}Tensor`;
  }
  if (typeof obj === "number") return Number.isInteger(obj) ? "int" : "float";
  if (typeof obj === "string") return "str";
  if (typeof obj === "boolean") return "bool";
  if (Array.isArray(obj)) return "list";
  const ctor = (obj as { constructor?: { name?: string } }).constructor;
  return ctor?.name && ctor.name !== "Object" ? ctor.name : "dict";
}
