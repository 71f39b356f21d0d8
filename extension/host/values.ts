// A cell's value -> what the notebook shows: a tensor as PyTorch prints it plus the data of its rich
// view (a heat map when it is at most 2-D after squeezing and small, otherwise a histogram); any
// other value as Node's util.inspect prints it.

import { inspect } from "node:util";
import { Tensor } from "../../engine/aten/core/Tensor.js";
import type { CellOutput, TensorOutput, TensorRichData } from "./protocol.js";
import type { HandleRegistry } from "./handles.js";

/** Largest heat map side; bigger 2-D tensors get a histogram. */
export const HEATMAP_MAX_SIDE = 128;
export const HISTOGRAM_BINS = 32;

export function toCellOutput(value: unknown, tensors: HandleRegistry<Tensor>): CellOutput {
  if (value instanceof Tensor) return tensorOutput(value, tensors);
  return { kind: "value", text: inspect(value, { depth: 4, colors: false, maxArrayLength: 100 }) };
}

export function tensorOutput(t: Tensor, tensors: HandleRegistry<Tensor>): TensorOutput {
  const out: TensorOutput = {
    kind: "tensor",
    repr: String(t),
    shape: [...t.shape],
    dtype: String(t.dtype),
    device: String(t.device),
    requires_grad: t.requires_grad,
    handle: tensors.handleOf(t),
  };
  const fn = t.grad_fn;
  if (fn) out.grad_fn = fn.name();
  const rich = richData(t);
  if (rich) out.rich = rich;
  return out;
}

/** The rich view's data; null for meta, empty, bool and complex tensors. */
export function richData(t: Tensor): TensorRichData | null {
  if (t.is_meta || t.numel() === 0 || t.is_complex() || String(t.dtype) === "torch.bool") return null;
  const values = t._flatNumbers();
  const sides = t.shape.filter((s) => s !== 1);
  if (sides.length <= 2 && sides.every((s) => s <= HEATMAP_MAX_SIDE)) {
    const [rows, cols] = sides.length === 2 ? sides : [1, sides[0] ?? 1];
    const { min, max } = finiteRange(values);
    return { view: "heatmap", rows, cols, values: Array.from(values, (v) => (Number.isFinite(v) ? v : null)), min, max };
  }
  return histogram(values, HISTOGRAM_BINS);
}

function finiteRange(values: Float64Array): { min: number; max: number; nonFinite: number } {
  let min = Infinity;
  let max = -Infinity;
  let nonFinite = 0;
  for (const v of values) {
    if (!Number.isFinite(v)) nonFinite++;
    else {
      if (v < min) min = v;
      if (v > max) max = v;
    }
  }
  if (min > max) return { min: 0, max: 0, nonFinite }; // no finite value
  return { min, max, nonFinite };
}

export function histogram(values: Float64Array, bins: number): TensorRichData {
  const { min, max, nonFinite } = finiteRange(values);
  const n = min === max ? 1 : bins;
  const width = (max - min) / n;
  const edges = Array.from({ length: n + 1 }, (_, i) => (i === n ? max : min + i * width));
  const counts = new Array<number>(n).fill(0);
  if (nonFinite < values.length) {
    for (const v of values) {
      if (!Number.isFinite(v)) continue;
      // The last bin is closed on the right, as numpy.histogram's.
      const b = width === 0 ? 0 : Math.min(n - 1, Math.floor((v - min) / width));
      counts[b]++;
    }
  }
  return { view: "histogram", edges, counts, min, max, nonFinite };
}
