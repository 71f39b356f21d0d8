// The kernels torchgen writes for `autogen:` overloads (RegisterCompositeExplicitAutograd.cpp):
// an out= overload runs the functional op, then resize_out_helper + copy_arg put the result into out;
// a functional form of an in-place op runs it on clone_arg(self).

import type { Tensor } from "../core/Tensor.js";
import { resize_output } from "./Resize.js";
import { copy__default } from "../../generated/copy.js";
import { clone_default } from "../../generated/clone.js";

/** resize_out_helper(out, result); copy_arg(out, result). */
export function autogen_copy_out(out: Tensor, result: Tensor): Tensor {
  resize_output(out, result._impl.sizes());
  copy__default.call(out, result, false);
  return out;
}

/** Tensor[] out=: each out tensor takes its result. */
export function autogen_copy_out_list(out: Tensor[], result: Tensor[]): void {
  out.forEach((o, i) => autogen_copy_out(o, result[i]));
}

/** clone_arg: the functional form works on a copy of self. */
export function autogen_clone_arg(self: Tensor): Tensor {
  return clone_default.call(self, null) as Tensor;
}
