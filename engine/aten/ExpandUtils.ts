// Broadcasting (aten/src/ATen/ExpandUtils.cpp): align sizes from the right; a size-1 dim stretches.

import { RuntimeError } from "../c10/Errors.js";

/** infer_size: the broadcast shape of two shapes, with PyTorch's error text. */
export function infer_size(a: readonly number[], b: readonly number[]): number[] {
  const ndim = Math.max(a.length, b.length);
  const out = new Array<number>(ndim);
  for (let i = ndim - 1; i >= 0; i--) {
    const offset = ndim - 1 - i;
    const dimA = a.length - 1 - offset;
    const dimB = b.length - 1 - offset;
    const sizeA = dimA >= 0 ? a[dimA] : 1;
    const sizeB = dimB >= 0 ? b[dimB] : 1;
    if (sizeA !== sizeB && sizeA !== 1 && sizeB !== 1) {
      throw new RuntimeError(
        `The size of tensor a (${sizeA}) must match the size of tensor b (${sizeB}) at non-singleton dimension ${i}`,
      );
    }
    out[i] = sizeA === 1 ? sizeB : sizeA;
  }
  return out;
}

/** torch.broadcast_shapes: folds infer_size over any number of shapes (torch/functional.py has its own error text). */
export function broadcast_shapes(...shapes: (readonly number[] | number)[]): number[] {
  let out: number[] = [];
  try {
    for (const s of shapes) out = infer_size(out, typeof s === "number" ? [s] : s);
  } catch (e) {
    if (e instanceof RuntimeError) throw new RuntimeError("Shape mismatch: objects cannot be broadcast to a single shape", { op: "broadcast_shapes" });
    throw e;
  }
  return out;
}
