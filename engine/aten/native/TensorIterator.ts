// TensorIterator (aten/src/ATen/TensorIterator.cpp), the part pointwise ops need: broadcast the
// operands, find the common dtype, check devices and memory overlap, allocate or check the output,
// then walk every output element with each operand's storage offset.
//
// The build_* helpers mirror PyTorch's TensorIteratorBase::build_*_op configurations: which dtype the
// op computes in, which dtype it returns, and whether integer inputs are promoted to float first.

import { RuntimeError } from "../../c10/Errors.js";
import { COLOUR_MIN_BYTES, colour_away_from } from "../../c10/Allocator.js";
import { dtypeOf, isIntegralType, bool, type dtype } from "../../c10/ScalarType.js";
import { canCast } from "../../c10/PromoteTypes.js";
import { scalarTypeName } from "../../c10/ScalarType.js";
import { get_default_dtype } from "../../c10/DefaultDtype.js";
import { infer_size } from "../ExpandUtils.js";
import { resultTypeOf } from "../TypeProperties.js";
import { Tensor } from "../core/Tensor.js";
import { empty_impl, empty_strided_impl, wrap } from "../core/empty.js";
import { iterator_output_strides } from "./OutputLayout.js";
import { resize_output } from "./Resize.js";
import { assert_no_internal_overlap, assert_no_partial_overlap } from "./MemoryOverlap.js";

export interface TensorIteratorConfig {
  /** The out= tensor or, for in-place ops, self; null allocates a fresh output. */
  out: Tensor | null;
  isInplace: boolean;
  inputs: readonly Tensor[];
  /** A fixed result dtype (comparisons give bool); by default the common dtype. */
  outputDtype?: dtype;
  /** true division, sqrt, sigmoid...: integer (and bool) inputs compute in the default float dtype. */
  promoteIntegerInputsToFloat?: boolean;
}

export interface BinaryOpConfig {
  out: Tensor | null;
  isInplace: boolean;
  outputDtype?: dtype;
}

export class TensorIterator {
  private constructor(
    readonly shape: number[],
    /** The dtype the kernel computes in (inputs are converted to it). */
    readonly commonDtype: dtype,
    readonly output: Tensor,
    readonly inputs: readonly Tensor[],
  ) {}

  static build(config: TensorIteratorConfig): TensorIterator {
    return TensorIterator.setup(config.out, config.isInplace, config.inputs, config.outputDtype, config.promoteIntegerInputsToFloat === true, true);
  }

  /**
   * build() with the configuration as arguments, so the hot binary/unary builders make no config
   * objects. `copyInputs`: the caller's array may change later (build's), or was made for this call.
   */
  private static setup(
    out: Tensor | null,
    isInplace: boolean,
    inputs: readonly Tensor[],
    outputDtype: dtype | undefined,
    promoteIntegerInputsToFloat: boolean,
    copyInputs: boolean,
  ): TensorIterator {
    const fast = fastSetup(out, isInplace, inputs, outputDtype, promoteIntegerInputsToFloat);
    if (fast !== null) return new TensorIterator(fast.shape, fast.common, fast.out, copyInputs ? [...inputs] : inputs);
    return TensorIterator.buildGeneral({ out, isInplace, inputs, outputDtype, promoteIntegerInputsToFloat });
  }

  private static buildGeneral(config: TensorIteratorConfig): TensorIterator {
    const { inputs, isInplace } = config;
    checkSameDevice([config.out, ...inputs]);
    let shape: number[] = [];
    for (const t of inputs) shape = infer_size(shape, t._impl.sizes());
    let common = dtypeOf(resultTypeOf(inputs));
    if (config.promoteIntegerInputsToFloat && isIntegralType(common.scalarType, true)) common = get_default_dtype();
    const resultDtype = config.outputDtype ?? common;
    let out = config.out;
    if (out) {
      if (isInplace && !sameShape(out._impl.sizes(), shape)) {
        throw new RuntimeError(`output with shape [${out._impl.sizes().join(", ")}] doesn't match the broadcast shape [${shape.join(", ")}]`);
      }
      // an out= or in-place result must be able to hold what the op computes
      if (!canCast(resultDtype.scalarType, out.dtype.scalarType)) {
        throw new RuntimeError(`result type ${scalarTypeName(resultDtype.scalarType)} can't be cast to the desired output type ${scalarTypeName(out.dtype.scalarType)}`);
      }
      // an out= tensor that had to be resized takes the layout a fresh output would have
      // (set_output_raw_strided: resize_output, then as_strided_ to the computed strides)
      if (!isInplace && resize_output(out, shape)) out._impl.set_sizes_and_strides(shape, iterator_output_strides(shape, inputs));
      assert_no_internal_overlap(out);
      for (const t of inputs) assert_no_partial_overlap(out, t);
    } else {
      // a fresh output is laid out like the inputs (exp(x.t()) is transposed like x.t())
      // (uninitialised: the kernel writes every element)
      out = wrap(empty_strided_impl(shape, iterator_output_strides(shape, inputs), resultDtype, deviceOf(inputs), true, output_colour(shape, resultDtype, inputs)));
    }
    return new TensorIterator(shape, common, out, [...inputs]);
  }

  /** build_borrowing_binary_op: out = op(a, b) with broadcasting and type promotion. */
  static binary_op(a: Tensor, b: Tensor, config: BinaryOpConfig): TensorIterator {
    return TensorIterator.setup(config.out, config.isInplace, [a, b], config.outputDtype, false, false);
  }

  /** build_borrowing_binary_float_op: true division and friends (int / int -> float). */
  static binary_float_op(a: Tensor, b: Tensor, config: BinaryOpConfig): TensorIterator {
    return TensorIterator.setup(config.out, config.isInplace, [a, b], config.outputDtype, true, false);
  }

  /** build_borrowing_comparison_op: compute in the common dtype, return bool (or the out= dtype). */
  static comparison_op(a: Tensor, b: Tensor, config: BinaryOpConfig): TensorIterator {
    return TensorIterator.setup(config.out, config.isInplace, [a, b], config.out?.dtype ?? bool, false, false);
  }

  /** build_borrowing_unary_op: out = op(a) in a's dtype. */
  static unary_op(a: Tensor, config: BinaryOpConfig): TensorIterator {
    return TensorIterator.setup(config.out, config.isInplace, [a], config.outputDtype, false, false);
  }

  /** build_borrowing_unary_float_op: exp, sqrt, sin...: integer inputs give the default float dtype. */
  static unary_float_op(a: Tensor, config: BinaryOpConfig): TensorIterator {
    return TensorIterator.setup(config.out, config.isInplace, [a], config.outputDtype, true, false);
  }

  numel(): number {
    let n = 1;
    for (const s of this.shape) n *= s;
    return n;
  }

  /**
   * Calls fn(offsets) for every element, in row-major order of the output. offsets[0] is the output's
   * storage index, offsets[1..] the inputs'. The array is reused between calls: read it, don't keep it.
   */
  forEachOffsets(fn: (offsets: readonly number[]) => void): void {
    const n = this.numel();
    if (n === 0) return;
    const operands = [this.output, ...this.inputs];
    const k = operands.length;
    const offsets = operands.map((t) => t._impl.storage_offset());
    if (allContiguousOver(operands, this.shape)) {
      // every operand is a contiguous block of the iterator's shape: element i is at offset + i
      for (let i = 0; i < n; i++) {
        fn(offsets);
        for (let j = 0; j < k; j++) offsets[j]++;
      }
      return;
    }
    // coalesce_dimensions: merge neighbouring dims every operand walks as one (all contiguous -> one dim)
    const { shape, strides } = coalesce(this.shape, operands.map((t) => broadcastStrides(t, this.shape)));
    const dims = shape.length;
    if (dims <= 1) {
      // one dim: the offsets step by each operand's stride (1 when contiguous, 0 when broadcast)
      const step = strides.map((s) => (dims === 0 ? 0 : s[0]));
      for (let i = 0; i < n; i++) {
        fn(offsets);
        for (let j = 0; j < k; j++) offsets[j] += step[j];
      }
      return;
    }
    const counter = new Array<number>(dims).fill(0);
    for (let i = 0; i < n; i++) {
      fn(offsets);
      for (let d = dims - 1; d >= 0; d--) {
        counter[d]++;
        for (let j = 0; j < k; j++) offsets[j] += strides[j][d];
        if (counter[d] < shape[d]) break;
        for (let j = 0; j < k; j++) offsets[j] -= strides[j][d] * shape[d];
        counter[d] = 0;
      }
    }
  }

  /**
   * The operands' (output first) storage offsets when each is a contiguous block of the iterator's
   * shape, so element i of every operand is at offset + i; null when some operand is strided or broadcast.
   */
  flatOffsets(): number[] | null {
    const operands = [this.output, ...this.inputs];
    return allContiguousOver(operands, this.shape) ? operands.map((t) => t._impl.storage_offset()) : null;
  }

  /** The binary case of forEachOffsets, kept for the existing kernels: fn(out, a, b). */
  forEach(fn: (outOffset: number, aOffset: number, bOffset: number) => void): void {
    this.forEachOffsets((o) => fn(o[0], o[1], o[2]));
  }
}

/**
 * TensorIteratorBase::fast_set_up, the CONTIGUOUS case: a fresh (or in-place) result whose inputs all
 * have one shape, one dtype and one device and are contiguous needs no broadcasting, no type
 * promotion and no stride computation: the output is a contiguous tensor of that shape and dtype.
 * null for anything else (the general build below handles it). Wrapped numbers are left out: type
 * promotion treats them apart (a wrapped float stands for the default dtype).
 */
function fastSetup(
  out: Tensor | null,
  isInplace: boolean,
  inputs: readonly Tensor[],
  outputDtype: dtype | undefined,
  promoteIntegerInputsToFloat: boolean,
): { shape: number[]; common: dtype; out: Tensor } | null {
  if (inputs.length === 0) return null;
  const first = inputs[0]._impl;
  const dt = first.dtype;
  const dev = first.device;
  const sizes = first.sizes();
  for (let i = 0; i < inputs.length; i++) {
    const t = inputs[i]._impl;
    if (t.dtype !== dt || !t.is_contiguous() || t.is_wrapped_number) return null;
    if (i > 0) {
      const d = t.device;
      if (d !== dev && (d.type !== dev.type || d.index !== dev.index)) return null;
      const s = t.sizes();
      if (s.length !== sizes.length) return null;
      for (let j = 0; j < s.length; j++) if (s[j] !== sizes[j]) return null;
    }
  }
  let common = dt;
  if (promoteIntegerInputsToFloat && isIntegralType(common.scalarType, true)) common = get_default_dtype();
  const resultDtype = outputDtype ?? common;
  if (out !== null) {
    // in place, or an out= already of the common shape, contiguous, on the same device: nothing is
    // resized, a contiguous tensor cannot overlap itself; only the dtype and overlap checks remain
    const o = out._impl;
    if (!o.is_contiguous() || (o.device !== dev && (o.device.type !== dev.type || o.device.index !== dev.index))) return null;
    const s = o.sizes();
    if (s.length !== sizes.length) return null;
    for (let j = 0; j < s.length; j++) if (s[j] !== sizes[j]) return null;
    if (!canCast(resultDtype.scalarType, out.dtype.scalarType)) return null; // the general path raises
    for (let i = 0; i < inputs.length; i++) if (inputs[i] !== out) assert_no_partial_overlap(out, inputs[i]);
    return { shape: sizes.slice(), common, out };
  }
  // every element is written
  return { shape: sizes.slice(), common, out: wrap(empty_impl(sizes, resultDtype, dev, true, output_colour(sizes, resultDtype, inputs))) };
}

/** output_colour's scratch: the inputs' colours (colour_away_from sorts them in place). */
const takenColours: number[] = [];

/**
 * Where a fresh output of this many bytes should start in its 4 KiB page: away from the colours of
 * the inputs the kernel streams alongside it (c10/Allocator.ts colour_away_from); -1 for a small output,
 * or inputs whose blocks the allocator did not place.
 */
export function output_colour(shape: readonly number[], dt: dtype, inputs: readonly Tensor[]): number {
  let n = dt.itemsize;
  for (let d = 0; d < shape.length; d++) n *= shape[d];
  if (n < COLOUR_MIN_BYTES) return -1;
  const taken = takenColours;
  taken.length = 0;
  for (let i = 0; i < inputs.length; i++) {
    const impl = inputs[i]._impl;
    const c = impl.storage.colour();
    if (c !== undefined) taken.push((c + impl.storage_offset() * impl.dtype.itemsize) % 4096);
  }
  return colour_away_from(taken);
}

/** Each operand contiguous with exactly the iterator's shape (no broadcasting): one flat walk serves all. */
function allContiguousOver(operands: readonly Tensor[], shape: readonly number[]): boolean {
  for (let i = 0; i < operands.length; i++) {
    const t = operands[i]._impl;
    if (!t.is_contiguous()) return false;
    const s = t.sizes();
    if (s.length !== shape.length) return false;
    for (let d = 0; d < s.length; d++) if (s[d] !== shape[d]) return false;
  }
  return true;
}

/**
 * coalesce_dimensions (TensorIterator.cpp): dims d-1 and d merge when, for every operand, stepping
 * along d-1 equals walking all of d (stride[d-1] == shape[d] * stride[d]), or one of them has size 1.
 */
function coalesce(shape: readonly number[], strides: number[][]): { shape: number[]; strides: number[][] } {
  const dims = shape.length;
  if (dims <= 1) return { shape: [...shape], strides };
  const outShape: number[] = [shape[dims - 1]];
  const outStrides = strides.map((s) => [s[dims - 1]]);
  for (let d = dims - 2; d >= 0; d--) {
    const inner = outShape.length - 1; // the current innermost merged dim, being grown outward
    const size = shape[d];
    let canMerge = size === 1 || outShape[inner] === 1;
    if (!canMerge) {
      canMerge = true;
      for (let j = 0; j < strides.length; j++) {
        if (strides[j][d] !== outShape[inner] * outStrides[j][inner]) {
          canMerge = false;
          break;
        }
      }
    }
    if (canMerge) {
      if (outShape[inner] === 1) for (let j = 0; j < strides.length; j++) outStrides[j][inner] = strides[j][d];
      outShape[inner] *= size;
      // a size-1 outer dim changes nothing; otherwise the merged dim keeps the inner stride
    } else {
      outShape.push(size);
      for (let j = 0; j < strides.length; j++) outStrides[j].push(strides[j][d]);
    }
  }
  outShape.reverse();
  for (const s of outStrides) s.reverse();
  return { shape: outShape, strides: outStrides };
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

/** The result's device: the first operand that is not a CPU scalar (a wrapped number goes anywhere). */
function deviceOf(inputs: readonly Tensor[]) {
  const t = inputs.find((x) => !(x.device.type === "cpu" && x.dim() === 0)) ?? inputs[0];
  return t.device;
}

/** All tensors on one device, except CPU zero-dim tensors (wrapped numbers), which go anywhere. */
function checkSameDevice(tensors: (Tensor | null)[]): void {
  let first: Tensor["device"] | undefined;
  for (const t of tensors) {
    if (!t || (t.device.type === "cpu" && t.dim() === 0)) continue;
    const d = t.device;
    if (first === undefined) first = d;
    else if (d !== first && (d.type !== first.type || d.index !== first.index)) {
      throw new RuntimeError(`Expected all tensors to be on the same device, but found at least two devices, ${first} and ${d}!`);
    }
  }
}
