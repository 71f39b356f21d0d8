// The TensorIterator configurations of the unary family (aten/src/ATen/TensorIterator.cpp
// build_borrowing_unary_op, build_borrowing_unary_float_op, build_borrowing_unary_force_boolean_op,
// and the plain configs clamp.Tensor and logical_not use), with the three structured modes.
//
// What this adds to the shared TensorIterator.build, and why it runs first:
// - the output's layout: a functional result, or an out= tensor that had to be resized, takes the
//   layout TensorIterator computes from the inputs (OutputLayout.ts), not a contiguous one;
// - check_all_same_dtype: unary_op refuses an out= of another dtype ("Found dtype Double but
//   expected Float") where TensorIterator.build would cast;
// - the device check names the first non-CPU device as the common one, as PyTorch's compute_types;
// - every check happens before an out= tensor is resized, so a refused call leaves it untouched.

import { RuntimeError } from "../../../c10/Errors.js";
import { canCast } from "../../../c10/PromoteTypes.js";
import { bool, dtypeOf, isIntegralType, scalarTypeName, type dtype } from "../../../c10/ScalarType.js";
import { get_default_dtype } from "../../../c10/DefaultDtype.js";
import { infer_size } from "../../ExpandUtils.js";
import { resultTypeOf } from "../../TypeProperties.js";
import { empty_impl, empty_strided_impl, wrap } from "../../core/empty.js";
import type { Tensor } from "../../core/Tensor.js";
import { TensorIterator, output_colour } from "../TensorIterator.js";
import { resize_output } from "../Resize.js";
import type { StructuredMode } from "../BinaryOps.js";
import { iterator_output_strides } from "../OutputLayout.js";

export type { StructuredMode };

/**
 * Which TensorIterator configuration:
 *  unary_op        the result has the input's dtype (or `dtype`: pow and clamp convert self first);
 *                  an out= must have exactly that dtype
 *  unary_float_op  integer and bool inputs compute in the default float dtype; out= may be any
 *                  dtype the result can be cast to
 *  force_boolean   a bool result (isnan: self != self)
 *  promoting       N inputs promoted to their common dtype, cast safely to out= (clamp.Tensor)
 *  out_dtype       the output keeps its own dtype, bool when allocated (logical_not)
 */
export type UnaryConfig = "unary_op" | "unary_float_op" | "force_boolean" | "promoting" | "out_dtype";

export interface UnaryBuild {
  config: UnaryConfig;
  /** self first, then any further inputs (clamp's bounds). */
  inputs: readonly Tensor[];
  out: Tensor | null;
  mode: StructuredMode;
  /** unary_op only: the dtype self is converted to before the op (result_type of self and the scalars). */
  dtype?: dtype;
}

/** The result dtype each configuration computes. */
function resultDtype(b: UnaryBuild): dtype {
  const common = () => dtypeOf(resultTypeOf(b.inputs));
  switch (b.config) {
    case "unary_op":
      return b.dtype ?? b.inputs[0].dtype;
    case "unary_float_op": {
      const c = common();
      return isIntegralType(c.scalarType, true) ? get_default_dtype() : c;
    }
    case "force_boolean":
      return bool;
    case "promoting":
      return common();
    case "out_dtype":
      return b.out && b.mode !== "functional" ? b.out.dtype : b.mode === "inplace" ? b.inputs[0].dtype : bool;
  }
}

/** compute_types' device check: the first non-CPU tensor sets the device; CPU 0-dim tensors go anywhere. */
function checkSameDevice(tensors: readonly (Tensor | null)[]): void {
  const defined = tensors.filter((t): t is Tensor => t !== null);
  const common = defined.find((t) => t.device.type !== "cpu")?.device;
  if (!common) return;
  for (const t of defined) {
    if (t.device.type === "cpu" && t.dim() === 0) continue;
    if (String(t.device) !== String(common)) {
      throw new RuntimeError(`Expected all tensors to be on the same device, but found at least two devices, ${common} and ${t.device}!`);
    }
  }
}

const sameShape = (a: readonly number[], b: readonly number[]) => a.length === b.length && a.every((v, i) => v === b[i]);

/**
 * fast_set_up's CONTIGUOUS case for a functional call: every input contiguous with one shape on one
 * device gives a contiguous output of that shape, and nothing to broadcast or lay out.
 */
function contiguousSameShape(inputs: readonly Tensor[]): boolean {
  const first = inputs[0]._impl;
  if (!first.is_contiguous()) return false;
  const sizes = first.sizes(), dev = first.device;
  for (let i = 1; i < inputs.length; i++) {
    const t = inputs[i]._impl;
    if (!t.is_contiguous() || t.device.type !== dev.type || t.device.index !== dev.index) return false;
    const s = t.sizes();
    if (s.length !== sizes.length) return false;
    for (let d = 0; d < s.length; d++) if (s[d] !== sizes[d]) return false;
  }
  return true;
}

/** Builds the iterator of one structured call; the output is iter.output. */
export function build_unary(b: UnaryBuild): TensorIterator {
  const self = b.inputs[0];
  if (b.mode === "functional" && contiguousSameShape(b.inputs)) {
    const dt = resultDtype(b), sizes = self._impl.sizes();
    const output = wrap(empty_impl(sizes, dt, self.device, true, output_colour(sizes, dt, b.inputs))); // the kernel writes every element
    return TensorIterator.build({ out: output, isInplace: false, inputs: b.inputs, outputDtype: output.dtype, promoteIntegerInputsToFloat: b.config === "unary_float_op" });
  }
  const out = b.mode === "functional" ? null : b.mode === "inplace" ? self : b.out;
  checkSameDevice([out, ...b.inputs]);
  let shape: number[] = [];
  for (const t of b.inputs) shape = infer_size(shape, t._impl.sizes());
  const result = resultDtype(b);
  let output: Tensor;
  if (out === null) {
    const device = (b.inputs.find((t) => !(t.device.type === "cpu" && t.dim() === 0)) ?? self).device;
    output = wrap(empty_strided_impl(shape, iterator_output_strides(shape, b.inputs), result, device, true, output_colour(shape, result, b.inputs)));
  } else {
    if (b.mode === "inplace" && !sameShape(out._impl.sizes(), shape)) {
      throw new RuntimeError(`output with shape [${out._impl.sizes().join(", ")}] doesn't match the broadcast shape [${shape.join(", ")}]`);
    }
    if (b.config === "unary_op" && out.dtype !== result) {
      throw new RuntimeError(`Found dtype ${scalarTypeName(out.dtype.scalarType)} but expected ${scalarTypeName(result.scalarType)}`);
    }
    if (!canCast(result.scalarType, out.dtype.scalarType)) {
      throw new RuntimeError(`result type ${scalarTypeName(result.scalarType)} can't be cast to the desired output type ${scalarTypeName(out.dtype.scalarType)}`);
    }
    // resize_out: a resized out= takes the computed layout (only then: a right-sized one keeps its own)
    if (resize_output(out, shape)) out._impl.set_sizes_and_strides(shape, iterator_output_strides(shape, b.inputs));
    output = out;
  }
  return TensorIterator.build({
    out: output,
    isInplace: b.mode === "inplace",
    inputs: b.inputs,
    outputDtype: output.dtype,
    promoteIntegerInputsToFloat: b.config === "unary_float_op",
  });
}

/** Meta tensors stop after the iterator: it has computed the output's shape, dtype and strides. */
export const hasData = (iter: TensorIterator) => iter.output._impl.storage.hasData();
