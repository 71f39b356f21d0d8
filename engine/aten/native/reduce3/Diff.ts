// torch.diff (aten/src/ATen/native/ReduceOps.cpp): the n-th forward difference along a dim, with
// optional tensors put before (prepend) and after (append) self first. CompositeImplicitAutograd: each
// order is narrow(x, dim, 1, len) - narrow(x, dim, 0, len) (logical_xor for bool) through the
// dispatcher, so autograd records SubBackward0 and the trace shows the narrows, as in PyTorch.

import { RuntimeError } from "../../../c10/Errors.js";
import { ScalarType } from "../../../c10/ScalarType.js";
import { maybe_wrap_dim } from "../../../c10/WrapDimMinimal.js";
import type { Tensor } from "../../core/Tensor.js";
import { resize_output } from "../Resize.js";
import { narrow_default } from "../../../generated/narrow.js";
import { sub_Tensor, sub_out } from "../../../generated/sub.js";
import { logical_xor_default, logical_xor_out } from "../../../generated/logical_xor.js";
import { cat_default } from "../../../generated/cat.js";
import { zeros_like_default } from "../../../generated/zeros_like.js";
import { copy__default } from "../../../generated/copy.js";
import { checkScalarTypeEqual } from "./common.js";

const narrow = (t: Tensor, dim: number, start: number, length: number): Tensor => narrow_default.call(t, dim, start, length) as Tensor;

/** diff_check_compatible_shape: prepend/append must match self except along dim. */
function checkCompatibleShape(self: Tensor, other: Tensor | null, dim: number): void {
  if (other === null) return;
  const d = maybe_wrap_dim(dim, self.dim(), false);
  if (other.dim() !== self.dim()) throw new RuntimeError("diff expects prepend or append to be the same dimension as input");
  for (let i = 0; i < other.dim(); i++) {
    if (i === d) continue;
    if (other.size(i) !== self.size(i)) {
      throw new RuntimeError(
        `diff expects the shape of tensor to prepend or append to match that of input except along the differencing dimension; input.size(${i}) = ${self.size(i)}, but got tensor.size(${i}) = ${other.size(i)}`,
      );
    }
  }
}

function diffCheck(self: Tensor, n: number, dim: number, prepend: Tensor | null, append: Tensor | null): void {
  if (self.dim() < 1) throw new RuntimeError("diff expects input to be at least one-dimensional");
  checkCompatibleShape(self, prepend, dim);
  checkCompatibleShape(self, append, dim);
}

/** One difference step: x[1:] - x[:-1] along dim (xor for bool), `length` elements long. */
const step = (x: Tensor, dim: number, length: number): Tensor =>
  x.dtype.scalarType === ScalarType.Bool
    ? (logical_xor_default.call(narrow(x, dim, 1, length), narrow(x, dim, 0, length)) as Tensor)
    : (sub_Tensor.call(narrow(x, dim, 1, length), narrow(x, dim, 0, length), 1) as Tensor);

/**
 * diff_helper: n steps (at most size(dim): the result is then empty along dim); n = 0 copies. PyTorch
 * 1.13 does not check n: a negative n takes no step and returns self itself.
 */
function diffHelper(self: Tensor, n: number, dim: number): Tensor {
  if (n === 0) return copy__default.call(zeros_like_default.call(self, null, null, null, null, null), self, false) as Tensor;
  let outLen = self.size(dim) - 1;
  let result = self;
  const steps = Math.min(n, self.size(dim));
  for (let i = 0; i < steps; i++) {
    result = step(result, dim, outLen);
    outLen--;
  }
  return result;
}

/** prepend_append_on_dim: cat(prepend, self, append) along dim. */
function withEnds(self: Tensor, prepend: Tensor | null, append: Tensor | null, dim: number): Tensor {
  const parts = [prepend, self, append].filter((t): t is Tensor => t !== null);
  return cat_default.call(parts, dim) as Tensor;
}

export function diff(self: Tensor, n: number, dim: number, prepend: Tensor | null, append: Tensor | null): Tensor {
  diffCheck(self, n, dim, prepend, append);
  if ((prepend === null && append === null) || n === 0) return diffHelper(self, n, dim);
  return diffHelper(withEnds(self, prepend, append, dim), n, dim);
}

/** diff_out_helper: n - 1 steps as diff, the last one into out (sub.out / logical_xor.out). */
function diffOutHelper(self: Tensor, n: number, dim: number, out: Tensor): Tensor {
  if (n === 0) {
    resize_output(out, self._impl.sizes());
    checkScalarTypeEqual(out, self.dtype);
    return copy__default.call(out, self, false) as Tensor;
  }
  const steps = Math.min(n, self.size(dim));
  const outLen = self.size(dim) - steps;
  const prev = steps > 1 ? diffHelper(self, steps - 1, dim) : self;
  // the second narrow first: GCC evaluates C++ call arguments right to left, which decides the error
  // a negative n meets ("start (0) + length (4) exceeds dimension size (3).")
  const lower = narrow(prev, dim, 0, outLen);
  const upper = narrow(prev, dim, 1, outLen);
  if (self.dtype.scalarType === ScalarType.Bool) return logical_xor_out.call(upper, lower, out) as Tensor;
  return sub_out.call(upper, lower, 1, out) as Tensor;
}

export function diff_out(self: Tensor, n: number, dim: number, prepend: Tensor | null, append: Tensor | null, out: Tensor): Tensor {
  diffCheck(self, n, dim, prepend, append);
  if ((prepend === null && append === null) || n === 0) return diffOutHelper(self, n, dim, out);
  return diffOutHelper(withEnds(self, prepend, append, dim), n, dim, out);
}
