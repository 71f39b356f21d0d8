// ScalarType and torch.dtype (c10/core/ScalarType.h, torch/csrc/Dtype.cpp).
// The enum values are PyTorch's, which its serialization format relies on.

export enum ScalarType {
  Byte = 0,
  Char = 1,
  Short = 2,
  Int = 3,
  Long = 4,
  Half = 5,
  Float = 6,
  Double = 7,
  ComplexHalf = 8,
  ComplexFloat = 9,
  ComplexDouble = 10,
  Bool = 11,
  BFloat16 = 15,
}

/** The C++ name PyTorch uses in error messages ("result type Float can't be cast to ... Long"). */
export function scalarTypeName(t: ScalarType): string {
  return ScalarType[t];
}

/** torch.dtype: what a user holds. One instance per ScalarType, compared by identity. */
export class dtype {
  constructor(
    readonly scalarType: ScalarType,
    /** Python-facing name: float32, int64, ... */
    readonly name: string,
    readonly itemsize: number,
    readonly is_floating_point: boolean,
    readonly is_complex: boolean,
    readonly is_signed: boolean,
  ) {}

  toString(): string {
    return `torch.${this.name}`;
  }

  [Symbol.for("nodejs.util.inspect.custom")](): string {
    return this.toString();
  }
}

export const float32 = new dtype(ScalarType.Float, "float32", 4, true, false, true);
export const float64 = new dtype(ScalarType.Double, "float64", 8, true, false, true);
export const float16 = new dtype(ScalarType.Half, "float16", 2, true, false, true);
export const bfloat16 = new dtype(ScalarType.BFloat16, "bfloat16", 2, true, false, true);
export const int8 = new dtype(ScalarType.Char, "int8", 1, false, false, true);
export const uint8 = new dtype(ScalarType.Byte, "uint8", 1, false, false, false);
export const int16 = new dtype(ScalarType.Short, "int16", 2, false, false, true);
export const int32 = new dtype(ScalarType.Int, "int32", 4, false, false, true);
export const int64 = new dtype(ScalarType.Long, "int64", 8, false, false, true);
export const bool = new dtype(ScalarType.Bool, "bool", 1, false, false, false);

/** The dtypes tensors can have today (complex comes later; its ScalarTypes already take part in promotion). */
export const allDtypes: readonly dtype[] = [float32, float64, float16, bfloat16, int8, uint8, int16, int32, int64, bool];

const byScalarType = new Map<ScalarType, dtype>(allDtypes.map((d) => [d.scalarType, d]));

export function dtypeOf(t: ScalarType): dtype {
  const d = byScalarType.get(t);
  if (!d) throw new TypeError(`dtype ${scalarTypeName(t)} is not supported yet`);
  return d;
}

/** Aliases PyTorch exposes: torch.float, torch.double, torch.half, torch.long, ... */
export const dtypeAliases: Record<string, dtype> = {
  float: float32,
  double: float64,
  half: float16,
  short: int16,
  int: int32,
  long: int64,
};

export function isFloatingType(t: ScalarType): boolean {
  return t === ScalarType.Float || t === ScalarType.Double || t === ScalarType.Half || t === ScalarType.BFloat16;
}

export function isComplexType(t: ScalarType): boolean {
  return t === ScalarType.ComplexHalf || t === ScalarType.ComplexFloat || t === ScalarType.ComplexDouble;
}

export function isIntegralType(t: ScalarType, includeBool: boolean): boolean {
  switch (t) {
    case ScalarType.Byte:
    case ScalarType.Char:
    case ScalarType.Short:
    case ScalarType.Int:
    case ScalarType.Long:
      return true;
    case ScalarType.Bool:
      return includeBool;
    default:
      return false;
  }
}
