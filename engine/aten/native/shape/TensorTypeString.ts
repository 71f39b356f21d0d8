// Tensor::toString() as error messages print it (aten/src/ATen/core/Tensor.cpp, DeprecatedTypeProperties):
// "torch.FloatTensor" for CPU, "torch.cuda.FloatTensor" for CUDA, "MetaFloatType" for other backends.

import { ScalarType, scalarTypeName } from "../../../c10/ScalarType.js";
import type { Tensor } from "../../core/Tensor.js";

export function tensorTypeString(t: Tensor): string {
  const name = scalarTypeName(t.dtype.scalarType as ScalarType);
  switch (t.device.type) {
    case "cpu":
      return `torch.${name}Tensor`;
    case "cuda":
      return `torch.cuda.${name}Tensor`;
    default:
      return `${t.device.type[0].toUpperCase()}${t.device.type.slice(1)}${name}Type`;
  }
}
