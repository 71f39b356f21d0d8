// Inputs and exact comparisons for the order-statistic and scan tests (cpu_native_sorting, _median_mode,
// _scan): values with many ties, where a kernel's choice among equal elements shows in its indices.
import * as torch from "../../engine/index.js";

/** A tensor's shape, strides and every element as text (-0 and NaN spelled out): equal strings, equal bits. */
export function bits(t: torch.Tensor): string {
  const v = (t.contiguous().flatten().tolist() as unknown[]).map((x) => (Object.is(x, -0) ? "-0" : String(x)));
  return JSON.stringify({ shape: t.shape, stride: t.stride(), v });
}

/** Values with many ties (a few distinct values), and for floats NaN, -0, 0, +-inf among them (unless `nan` is false). */
export function values(shape: number[], dtype: torch.dtype, seed: number, distinct = 7, nan = true): torch.Tensor {
  torch.manual_seed(seed);
  if (dtype === torch.bool) return torch.rand(shape).gt(0.5);
  const x = torch.randint(-distinct, distinct, shape).to(torch.float64);
  if (dtype.is_floating_point) {
    const flat = x.view(-1);
    const n = flat.numel();
    for (const [k, v] of [[0, NaN], [1, -0], [2, 0], [3, Infinity], [4, -Infinity], [5, NaN], [6, 0.5], [7, -0]] as const)
      if (k * 3 < n && (nan || !Number.isNaN(v))) flat.set(k * 3, v);
    return x.to(dtype);
  }
  return (dtype === torch.uint8 ? x.abs() : x.mul(dtype === torch.int8 ? 1 : 1000)).to(dtype);
}
