// How PyTorch prints a tensor's dtype() (caffe2::TypeMeta: the C++ type's name) in messages such as
// lerp's "expected dtype float for `end` but got dtype double" (c10/util/typeid.h).

import { ScalarType } from "../../../c10/ScalarType.js";

const names: Partial<Record<ScalarType, string>> = {
  [ScalarType.Byte]: "unsigned char",
  [ScalarType.Char]: "signed char",
  [ScalarType.Short]: "short int",
  [ScalarType.Int]: "int",
  [ScalarType.Long]: "long int",
  [ScalarType.Half]: "c10::Half",
  [ScalarType.Float]: "float",
  [ScalarType.Double]: "double",
  [ScalarType.Bool]: "bool",
  [ScalarType.BFloat16]: "c10::BFloat16",
};

export function typeMetaName(t: ScalarType): string {
  return names[t] ?? ScalarType[t];
}
