// TensorIterator (aten/src/ATen/TensorIterator.cpp), the part pointwise ops need: broadcast the
// operands, find the common dtype, check devices, allocate or check the output, then walk every
// output element with each operand's storage offset.

import { RuntimeError } from "../../c10/Errors.js";
import { dtypeOf, type dtype } from "../../c10/ScalarType.js";
import { canCast } from "../../c10/PromoteTypes.js";
import { scalarTypeName } from "../../c10/ScalarType.js";
import { infer_size } from "../ExpandUtils.js";
import { resultTypeOf } from "../TypeProperties.js";
import { Tensor } from "../core/Tensor.js";
import { empty_impl, wrap } from "../core/empty.js";
import { resize_output } from "./Resize.js";

export interface BinaryOpConfig {
  /** The out= tensor or, for in-place ops, self; null allocates a fresh output. */
  out: Tensor | null;
  isInplace: boolean;
  /** Comparison ops produce bool whatever the inputs are. */
  outputDtype?: dtype;
}

export class TensorIterator {
  readonly shape: number[];
  readonly commonDtype: dtype;
  readonly output: Tensor;
  readonly inputs: readonly Tensor[];

  private constructor(shape: number[], commonDtype: dtype, output: Tensor, inputs: Tensor[]) {
    this.shape = shape;
    this.commonDtype = commonDtype;
    this.output = output;
    this.inputs = inputs;
  }

  /** build_borrowing_binary_op: out = op(a, b) with broadcasting and type promotion. */
  static binary_op(a: Tensor, b: Tensor, config: BinaryOpConfig): TensorIterator {
    checkSameDevice([config.out, a, b]);
    const shape = infer_size(a._impl.sizes(), b._impl.sizes());
    const common = dtypeOf(resultTypeOf([a, b]));
    let out = config.out;
    if (out && config.isInplace) {
      if (!sameShape(out._impl.sizes(), shape)) {
        throw new RuntimeError(`output with shape [${out._impl.sizes().join(", ")}] doesn't match the broadcast shape [${shape.join(", ")}]`);
      }
    }
    const resultDtype = config.outputDtype ?? common;
    if (out) {
      if (!canCast(common.scalarType, out.dtype.scalarType)) {
        throw new RuntimeError(`result type ${scalarTypeName(common.scalarType)} can't be cast to the desired output type ${scalarTypeName(out.dtype.scalarType)}`);
      }
      if (!config.isInplace) resize_output(out, shape);
    } else {
      out = wrap(empty_impl(shape, resultDtype, a.device.type === "cpu" && a._impl.is_wrapped_number ? b.device : a.device));
    }
    return new TensorIterator(shape, common, out, [a, b]);
  }

  numel(): number {
    let n = 1;
    for (const s of this.shape) n *= s;
    return n;
  }

  /** Calls fn(outOffset, offset of each input) for every element, in row-major order of the output. */
  forEach(fn: (outOffset: number, aOffset: number, bOffset: number) => void): void {
    const n = this.numel();
    if (n === 0) return;
    const dims = this.shape.length;
    const operands = [this.output, ...this.inputs].map((t) => broadcastStrides(t, this.shape));
    const offsets = [this.output, ...this.inputs].map((t) => t._impl.storage_offset());
    const counter = new Array<number>(dims).fill(0);
    for (let i = 0; i < n; i++) {
      fn(offsets[0], offsets[1], offsets[2]);
      for (let d = dims - 1; d >= 0; d--) {
        counter[d]++;
        for (let k = 0; k < 3; k++) offsets[k] += operands[k][d];
        if (counter[d] < this.shape[d]) break;
        for (let k = 0; k < 3; k++) offsets[k] -= operands[k][d] * this.shape[d];
        counter[d] = 0;
      }
    }
  }
}

/** Strides of t seen in the broadcast shape: 0 along dims it is stretched over. */
function broadcastStrides(t: Tensor, shape: readonly number[]): number[] {
  const sizes = t._impl.sizes();
  const strides = t._impl.strides();
  const out = new Array<number>(shape.length).fill(0);
  for (let i = 0; i < sizes.length; i++) {
    const d = shape.length - sizes.length + i;
    out[d] = sizes[i] === 1 && shape[d] !== 1 ? 0 : strides[i];
  }
  return out;
}

function sameShape(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && a.every((v, i) => v === b[i]);
}

/** All tensors on one device, except CPU zero-dim tensors (wrapped numbers), which go anywhere. */
function checkSameDevice(tensors: (Tensor | null)[]): void {
  let first: string | undefined;
  for (const t of tensors) {
    if (!t || (t.device.type === "cpu" && t.dim() === 0)) continue;
    const d = String(t.device);
    if (first === undefined) first = d;
    else if (d !== first) {
      throw new RuntimeError(`Expected all tensors to be on the same device, but found at least two devices, ${first} and ${d}!`);
    }
  }
}
