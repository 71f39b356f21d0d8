// stack, hstack, vstack, dstack and atleast_{1,2,3}d (aten/src/ATen/native/TensorShape.cpp).
// All are decompositions that call other ops through the dispatcher: stack is cat + view (or cat of
// unsqueezed inputs when stacking along the new last dim); h/v/dstack are atleast_Nd + cat.

import { RuntimeError } from "../../../c10/Errors.js";
import { maybe_wrap_dim } from "../../../c10/WrapDimMinimal.js";
import type { Tensor } from "../../core/Tensor.js";
import { cat_default, cat_out } from "../../../generated/cat.js";
import { view_default } from "../../../generated/view.js";
import { reshape_default } from "../../../generated/reshape.js";
import { unsqueeze_default } from "../../../generated/unsqueeze.js";
import { atleast_1d_Sequence } from "../../../generated/atleast_1d.js";
import { atleast_2d_Sequence } from "../../../generated/atleast_2d.js";
import { atleast_3d_Sequence } from "../../../generated/atleast_3d.js";
import { resize_output } from "../Resize.js";
import { list, sameList } from "./common.js";
import { borrow, end_composite } from "../../../c10/Dispose.js";

function check_stack_inputs(tensors: readonly Tensor[]): void {
  const entry = tensors[0]._impl.sizes();
  for (let i = 1; i < tensors.length; i++) {
    const s = tensors[i]._impl.sizes();
    if (!sameList(s, entry)) {
      throw new RuntimeError(`stack expects each tensor to be equal size, but got ${list(entry)} at entry 0 and ${list(s)} at entry ${i}`);
    }
  }
}

const get_stack_inputs = (tensors: readonly Tensor[], dim: number): Tensor[] => tensors.map((t) => unsqueeze_default.call(t, dim) as Tensor);

export function stack(tensors: readonly Tensor[], dim: number): Tensor {
  if (tensors.length === 0) throw new RuntimeError("stack expects a non-empty TensorList");
  const wrapped = maybe_wrap_dim(dim, tensors[0].dim() + 1);
  check_stack_inputs(tensors);
  if (wrapped < tensors[0].dim()) {
    const resultSizes = [...tensors[0]._impl.sizes()];
    resultSizes.splice(wrapped, 0, tensors.length);
    const out = cat_default.call(tensors, wrapped) as Tensor;
    const result = view_default.call(out, resultSizes) as Tensor; // one can always split a dimension with view
    end_composite([out], [result]);
    return result;
  }
  const inputs = get_stack_inputs(tensors, dim);
  const result = cat_default.call(inputs, dim) as Tensor;
  for (const t of inputs) borrow(t._impl); // the unsqueezed views die here, as PyTorch's temporaries
  return result;
}

export function stack_out(tensors: readonly Tensor[], dimArg: number, result: Tensor): Tensor {
  if (tensors.length === 0) throw new RuntimeError("stack expects a non-empty TensorList");
  const dim = maybe_wrap_dim(dimArg, tensors[0].dim() + 1);
  check_stack_inputs(tensors);
  if (dim < tensors[0].dim()) {
    const resultSizes = [...tensors[0]._impl.sizes()];
    resultSizes.splice(dim, 0, tensors.length);
    resize_output(result, resultSizes);
    const catSizes = [...tensors[0]._impl.sizes()];
    catSizes[dim] *= tensors.length;
    // computeStride: a contiguous result can always be viewed with the cat sizes
    if (result.is_contiguous()) {
      const resultView = view_default.call(result, catSizes) as Tensor;
      cat_out.call(tensors, dim, resultView);
      borrow(resultView._impl);
      return result;
    }
  }
  const inputs = get_stack_inputs(tensors, dim);
  cat_out.call(inputs, dim, result);
  for (const t of inputs) borrow(t._impl);
  return result;
}

/** atleast_1d(Tensor) and atleast_1d.Sequence(Tensor[]) share the C++ name; the argument tells them apart. */
export function atleast_1d(self: Tensor | readonly Tensor[]): Tensor | Tensor[] {
  if (Array.isArray(self)) return self.map((t) => atleast_1d(t) as Tensor); // at::native::atleast_1d: no dispatch
  const t = self as Tensor;
  return t.dim() === 0 ? (reshape_default.call(t, [1]) as Tensor) : t;
}

export function atleast_2d(self: Tensor | readonly Tensor[]): Tensor | Tensor[] {
  if (Array.isArray(self)) return self.map((t) => atleast_2d(t) as Tensor); // at::native::atleast_2d: no dispatch
  const t = self as Tensor;
  switch (t.dim()) {
    case 0: return reshape_default.call(t, [1, 1]) as Tensor;
    case 1: return unsqueeze_default.call(t, 0) as Tensor;
    default: return t;
  }
}

export function atleast_3d(self: Tensor | readonly Tensor[]): Tensor | Tensor[] {
  if (Array.isArray(self)) return self.map((t) => atleast_3d(t) as Tensor); // at::native::atleast_3d: no dispatch
  const t = self as Tensor;
  switch (t.dim()) {
    case 0: return reshape_default.call(t, [1, 1, 1]) as Tensor;
    case 1: return unsqueeze_default.call(unsqueeze_default.call(t, 0), -1) as Tensor;
    case 2: return unsqueeze_default.call(t, -1) as Tensor;
    default: return t;
  }
}

const nonEmpty = (name: string, tensors: readonly Tensor[]) => {
  if (tensors.length === 0) throw new RuntimeError(`${name} expects a non-empty TensorList`);
};

export function hstack(tensors: readonly Tensor[]): Tensor {
  nonEmpty("hstack", tensors);
  const rep = atleast_1d_Sequence.call(tensors) as Tensor[];
  return cat_default.call(rep, rep[0].dim() === 1 ? 0 : 1) as Tensor;
}

export function hstack_out(tensors: readonly Tensor[], result: Tensor): Tensor {
  nonEmpty("hstack", tensors);
  const rep = atleast_1d_Sequence.call(tensors) as Tensor[];
  return cat_out.call(rep, rep[0].dim() === 1 ? 0 : 1, result) as Tensor;
}

export function vstack(tensors: readonly Tensor[]): Tensor {
  nonEmpty("vstack", tensors);
  const rep = atleast_2d_Sequence.call(tensors) as Tensor[];
  return cat_default.call(rep, 0) as Tensor;
}

export function vstack_out(tensors: readonly Tensor[], result: Tensor): Tensor {
  nonEmpty("vstack", tensors);
  const rep = atleast_2d_Sequence.call(tensors) as Tensor[];
  return cat_out.call(rep, 0, result) as Tensor;
}

export function dstack(tensors: readonly Tensor[]): Tensor {
  nonEmpty("dstack", tensors);
  const rep = atleast_3d_Sequence.call(tensors) as Tensor[];
  return cat_default.call(rep, 2) as Tensor;
}

export function dstack_out(tensors: readonly Tensor[], result: Tensor): Tensor {
  nonEmpty("dstack", tensors);
  const rep = atleast_3d_Sequence.call(tensors) as Tensor[];
  return cat_out.call(rep, 2, result) as Tensor;
}
