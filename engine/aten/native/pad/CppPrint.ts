// operator<<(std::ostream&, const Tensor&) (aten/src/ATen/core/Formatting.cpp), which some TORCH_CHECK
// messages embed ("2D or 3D (batch mode) tensor expected for input, but got: ..."): the values one per
// line in the format __printFormat picks, then "[ torch.FloatTensor{3} ]". Written for empty and 1-d
// tensors; other ranks print their type line only (PyTorch prints their matrices too).

import type { Tensor } from "../../core/Tensor.js";
import { tensorTypeString } from "../shape/TensorTypeString.js";

/** std::setw(width) << value in the stream mode __printFormat chose. */
function formatValue(v: number, mode: "int" | "fixed" | "sci", width: number): string {
  let s: string;
  if (!Number.isFinite(v)) s = Number.isNaN(v) ? "nan" : v > 0 ? "inf" : "-inf";
  else if (mode === "int") s = String(v);
  else if (mode === "fixed") s = v.toFixed(4);
  else s = v.toExponential(4).replace(/e([+-])(\d)$/, "e$10$2");
  return s.padStart(width);
}

function printFormat(xs: readonly number[]): { scale: number; width: number; mode: "int" | "fixed" | "sci" } {
  const intMode = xs.every((z) => !Number.isFinite(z) || z === Math.ceil(z));
  const finite = xs.filter((z) => Number.isFinite(z));
  let expMin = 1, expMax = 1;
  if (finite.length > 0) {
    let lo = Math.abs(finite[0]), hi = Math.abs(finite[0]);
    for (const z of finite) {
      lo = Math.min(lo, Math.abs(z));
      if (z > hi) hi = Math.abs(z); // PyTorch compares the signed value here
    }
    expMin = lo !== 0 ? Math.floor(Math.log10(lo)) + 1 : 1;
    expMax = hi !== 0 ? Math.floor(Math.log10(hi)) + 1 : 1;
  }
  if (intMode) return expMax > 9 ? { scale: 1, width: 11, mode: "sci" } : { scale: 1, width: expMax + 1, mode: "int" };
  if (expMax - expMin > 4) return { scale: 1, width: Math.abs(expMax) > 99 || Math.abs(expMin) > 99 ? 12 : 11, mode: "sci" };
  if (expMax > 5 || expMax < 0) return { scale: Math.pow(10, expMax - 1), width: 7, mode: "fixed" };
  return { scale: 1, width: expMax === 0 ? 7 : expMax + 6, mode: "fixed" };
}

export function cppTensorString(t: Tensor): string {
  const sizes = t._impl.sizes();
  const type = `[ ${tensorTypeString(t)}{${sizes.join(",")}} ]`;
  if (sizes.length !== 1 || t.numel() === 0) return type;
  const xs = (t.tolist() as (number | boolean)[]).map(Number);
  const { scale, width, mode } = printFormat(xs);
  const head = scale !== 1 ? `${scale.toExponential(0).replace(/e\+?/, "e+0")} *\n` : "";
  return `${head}${xs.map((x) => formatValue(x / scale, mode, width) + "\n").join("")}${type}`;
}
