// Tensors described by fixtures as windows onto a 1-D base (non-contiguous, offset, expanded inputs),
// rebuilt with the TensorImpl constructor so the ops under test are not used to make their own inputs.
import * as torch from "../../engine/index.js";
import { Tensor } from "../../engine/aten/core/Tensor.js";
import { TensorImpl } from "../../engine/c10/TensorImpl.js";
import { dec } from "./fixtures.js";

export interface WindowSpec {
  base: (number | boolean)[];
  dtype: string;
  sizes: number[];
  strides: number[];
  offset: number;
}

export const dtypeNamed = (n: string) => (torch as any)[n] as torch.dtype;

/** The window `spec` describes, on a fresh base tensor (data on CPU, shapes only on meta). */
export function buildWindow(spec: WindowSpec, device = "cpu"): Tensor {
  const base: Tensor =
    device === "meta"
      ? torch.empty([spec.base.length], { dtype: dtypeNamed(spec.dtype), device: "meta" })
      : torch.tensor(dec(spec.base) as (number | boolean)[], { dtype: dtypeNamed(spec.dtype) }); // "nan", "inf", "-0.0" decoded
  const b = base._impl;
  return new Tensor(new TensorImpl(b.storage, b.dtype, spec.sizes, spec.strides, spec.offset, b.version_counter));
}
