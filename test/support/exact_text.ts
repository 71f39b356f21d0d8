// Exact comparison of kernel results: equal strings, equal values (NaN, infinities and -0 spelled out).
import * as torch from "../../engine/index.js";

/** Every element of t as float64 text, in row-major order; NaN, +-inf and -0 as words. */
export const asText = (t: torch.Tensor): string =>
  JSON.stringify(t.to(torch.float64).contiguous().view(-1).tolist(), (_k, v) =>
    Number.isNaN(v) ? "NaN" : v === Infinity ? "inf" : v === -Infinity ? "-inf" : Object.is(v, -0) ? "-0" : v);
