// mul.Scalar (aten/src/ATen/native/BinaryOps.cpp, CompositeExplicitAutograd): mul.Tensor with the number
// as a wrapped scalar tensor (promotes like a Python scalar).

import type { Tensor, Scalar } from "../../core/Tensor.js";
import { mul_Tensor } from "../../../generated/mul.js";
import { wrapScalar } from "../binary/common.js";

export const mul_Scalar = (self: Tensor, other: Scalar): Tensor => mul_Tensor.call(self, wrapScalar(other)) as Tensor;
