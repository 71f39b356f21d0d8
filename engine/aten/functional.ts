// torch.einsum and torch.tensordot as torch/functional.py defines them over the aten ops: einsum
// takes its operands as varargs (or one list, the old interface); tensordot takes `dims` as an int
// (the last dims of a with the first of b) or as a pair of dim lists.

import { RuntimeError } from "../c10/Errors.js";
import type { Tensor } from "./core/Tensor.js";
import { einsum as aten_einsum, tensordot as aten_tensordot } from "../generated/torch_functions.js";

export function einsum(equation: string, ...operands: (Tensor | readonly Tensor[])[]): Tensor {
  // the old interface: the operands as one list
  if (operands.length === 1 && Array.isArray(operands[0])) return einsum(equation, ...(operands[0] as Tensor[]));
  return (aten_einsum as any)(equation, operands) as Tensor;
}

export function tensordot(a: Tensor, b: Tensor, dims: number | readonly [readonly number[], readonly number[]] = 2, options: { out?: Tensor } = {}): Tensor {
  let dimsA: number[], dimsB: number[];
  if (typeof dims === "number") {
    if (dims < 0) throw new RuntimeError(`tensordot expects dims >= 0, but got dims=${dims}`);
    dimsA = Array.from({ length: dims }, (_, i) => i - dims);
    dimsB = Array.from({ length: dims }, (_, i) => i);
  } else if (Array.isArray(dims) && dims.length === 2) {
    [dimsA, dimsB] = [[...dims[0]], [...dims[1]]];
  } else {
    throw new RuntimeError(`tensordot expects dims to be int or Tuple[List[int], List[int]] or List[List[int]] containing two lists, but got dims=${String(dims)}`);
  }
  return (options.out === undefined ? (aten_tensordot as any)(a, b, dimsA, dimsB) : (aten_tensordot as any)(a, b, dimsA, dimsB, { out: options.out })) as Tensor;
}
