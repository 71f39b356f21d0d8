// operator<<(std::ostream&, const Tensor&) (aten/src/ATen/core/Formatting.cpp), which some TORCH_CHECK
// messages embed ("2D or 3D (batch mode) tensor expected for input, but got: ..."): the values (as
// doubles) in the format __printFormat picks — integers, fixed with 4 decimals (with a common scale), or
// scientific — a 1-d tensor one value per line, a 2-d one as a matrix in blocks of columns that fit 80
// characters, higher ranks as "(i,j,.,.) = " matrices; then "[ torch.FloatTensor{2,3} ]".

import type { Tensor } from "../../core/Tensor.js";
import { tensorTypeString } from "../shape/TensorTypeString.js";

type Format = { scale: number; width: number; mode: "int" | "fixed" | "sci" };

/** C++'s defaultfloat (%g, 6 significant digits): 1e+06, 100, 0.001, 1e-07. */
function defaultFloat(v: number): string {
  if (!Number.isFinite(v)) return Number.isNaN(v) ? "nan" : v > 0 ? "inf" : "-inf";
  const exp = v === 0 ? 0 : Math.floor(Math.log10(Math.abs(v)));
  if (exp < -4 || exp >= 6) {
    const [m, e] = v.toExponential(5).split("e");
    const mant = m.includes(".") ? m.replace(/0+$/, "").replace(/\.$/, "") : m;
    const n = Number(e);
    return `${mant}e${n < 0 ? "-" : "+"}${String(Math.abs(n)).padStart(2, "0")}`;
  }
  const s = v.toPrecision(6);
  return s.includes(".") ? s.replace(/0+$/, "").replace(/\.$/, "") : s;
}

/** std::setw(width) << value in the stream mode __printFormat chose. */
function formatValue(v: number, f: Format): string {
  let s: string;
  if (!Number.isFinite(v)) s = Number.isNaN(v) ? "nan" : v > 0 ? "inf" : "-inf";
  else if (f.mode === "int") s = defaultFloat(v);
  else if (f.mode === "fixed") s = v.toFixed(4);
  else s = v.toExponential(4).replace(/e([+-])(\d)$/, "e$10$2");
  return s.padStart(f.width);
}

/** __printFormat: integer mode when every finite value is whole; else fixed or scientific by the exponents' spread. */
function printFormat(xs: readonly number[]): Format {
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

const scaleLine = (scale: number): string => `${defaultFloat(scale)} *\n`;

/** __printMatrix(stream, rows, linesize=80, indent). */
function printMatrix(rows: readonly number[][], indent: number): string {
  const f = printFormat(rows.flat());
  const pad = " ".repeat(indent);
  const nCols = rows[0]?.length ?? 0;
  const perLine = Math.trunc((80 - indent) / (f.width + 1));
  let out = pad;
  for (let first = 0; first < nCols;) {
    const last = first + perLine <= nCols ? first + perLine - 1 : nCols - 1;
    if (perLine < nCols) {
      if (first !== 0) out += "\n";
      out += `Columns ${first + 1} to ${last + 1}${pad}`;
    }
    if (f.scale !== 1) out += scaleLine(f.scale) + pad;
    rows.forEach((row, l) => {
      for (let c = first; c <= last; c++) {
        out += formatValue(row[c] / f.scale, f);
        if (c === last) {
          out += "\n";
          if (l !== rows.length - 1) out += f.scale !== 1 ? `${pad} ` : pad;
        } else out += " ";
      }
    });
    first = last + 1;
  }
  return out;
}

export function cppTensorString(t: Tensor): string {
  const sizes = t._impl.sizes();
  const type = `[ ${tensorTypeString(t)}{${sizes.join(",")}} ]`;
  if (t.numel() === 0) return type;
  const flat = (x: unknown): number[] => (Array.isArray(x) ? x.flatMap(flat) : [Number(x)]);
  const xs = flat(t.tolist());
  if (sizes.length === 0) return `${defaultFloat(xs[0])}\n${type}`;
  if (sizes.length === 1) {
    const f = printFormat(xs);
    return `${f.scale !== 1 ? scaleLine(f.scale) : ""}${xs.map((x) => formatValue(x / f.scale, f) + "\n").join("")}${type}`;
  }
  const [r, c] = sizes.slice(-2);
  const matrixAt = (start: number) => Array.from({ length: r }, (_, i) => xs.slice(start + i * c, start + (i + 1) * c));
  if (sizes.length === 2) return printMatrix(matrixAt(0), 0) + type;
  // __printTensor: the leading indices count up with the first one fastest
  const lead = sizes.slice(0, -2);
  const counter = lead.map(() => 0);
  const blocks: string[] = [];
  for (;;) {
    const start = counter.reduce((acc, k, i) => acc * lead[i] + k, 0) * r * c;
    blocks.push(`(${counter.map((k) => k + 1).join(",")},.,.) = \n${printMatrix(matrixAt(start), 1)}`);
    let i = 0;
    while (i < lead.length && ++counter[i] >= lead[i]) counter[i++] = 0;
    if (i === lead.length) break;
  }
  return blocks.join("\n") + type;
}
