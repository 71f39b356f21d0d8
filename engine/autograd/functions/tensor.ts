// The Nodes autograd builds for views changed in place (torch/csrc/autograd/functions/tensor.h/.cpp,
// and AsStridedBackward0 of generated/Functions.h, written out here because the engine itself makes it).
//
// When an in-place op changes a view, the base's history must include it: CopySlices becomes the
// base's grad_fn. Backward takes the base's gradient, runs the in-place op's Node on the slice the view
// covers, and writes the result back into that slice. The view's own grad_fn is regenerated lazily
// (variable.ts grad_fn) as AsStridedBackward0 reading from the base. CopyBackwards is copy_'s Node.

import type { Tensor } from "../../aten/core/Tensor.js";
import { empty_strided_default } from "../../generated/empty_strided.js";
import { zeros_default } from "../../generated/zeros.js";
import { as_strided_default } from "../../generated/as_strided.js";
import { copy__default } from "../../generated/copy.js";
import { clone_default } from "../../generated/clone.js";
import { zeros_like_default } from "../../generated/zeros_like.js";
import { to_dtype_layout } from "../../generated/to.js";
import { contiguous_format } from "../../c10/MemoryFormat.js";
import { Node, type Grad } from "../function.js";
import type { Edge } from "../edge.js";

/** at::TensorGeometry: sizes, strides and storage offset, without the data. */
export interface TensorGeometry {
  readonly sizes: readonly number[];
  readonly strides: readonly number[];
  readonly storage_offset: number;
}

export function geometryOf(t: Tensor): TensorGeometry {
  return { sizes: [...t._impl.sizes()], strides: [...t._impl.strides()], storage_offset: t._impl.storage_offset() };
}

/** How many storage elements a geometry reaches from its offset. */
function extent(g: TensorGeometry): number {
  if (g.sizes.some((s) => s === 0)) return 0;
  return 1 + g.sizes.reduce((acc, s, i) => acc + (s - 1) * g.strides[i], 0);
}

/**
 * as_strided_backward for a base and view that do not overlap themselves: zeros over the base's
 * storage, the gradient written where the view lies, read back with the base's geometry.
 */
function as_strided_backward(grad: Tensor, base: TensorGeometry, size: readonly number[], stride: readonly number[], storage_offset: number): Tensor {
  const rel = storage_offset - base.storage_offset;
  const span = Math.max(extent(base), rel + extent({ sizes: size, strides: stride, storage_offset: 0 }));
  const storage = zeros_default.call([span], grad.dtype, null, grad.device, null) as Tensor;
  copy__default.call(as_strided_default.call(storage, [...size], [...stride], rel), grad, false);
  return as_strided_default.call(storage, [...base.sizes], [...base.strides], 0) as Tensor;
}

export class AsStridedBackward0 extends Node {
  constructor(
    readonly self_geometry: TensorGeometry,
    readonly size: readonly number[],
    readonly stride: readonly number[],
    readonly storage_offset: number,
  ) {
    super();
  }
  name(): string {
    return "AsStridedBackward0";
  }
  apply(grads: Grad[]): Grad[] {
    const grad = grads[0];
    if (grad === null || !this.should_compute_output(0)) return [null];
    return [as_strided_backward(grad, this.self_geometry, this.size, this.stride, this.storage_offset)];
  }
}

export class CopySlices extends Node {
  private readonly base: TensorGeometry;
  private readonly view: TensorGeometry;

  /** base: the base tensor (its current edge becomes ours); view: the changed view; fn: the in-place op's Node. */
  constructor(base: Tensor, baseEdge: Edge, view: Tensor, private fn: Node | null) {
    super();
    this.base = geometryOf(base);
    this.view = geometryOf(view);
    this.add_input_metadata(base);
    // fn's edges, except the first, which went to the view and now goes to the base's old history
    this.set_next_edges([baseEdge, ...fn!.next_edges.slice(1)]);
  }

  name(): string {
    return "CopySlices";
  }

  apply(grads: Grad[]): Grad[] {
    const grad = grads[0];
    const fn = this.fn;
    if (!fn) throw new Error("CopySlices: the wrapped function was released");
    if (grad === null) return this.next_edges.map(() => null);
    const result = empty_strided_default.call([...this.base.sizes], [...this.base.strides], grad.dtype, null, grad.device, null) as Tensor;
    copy__default.call(result, grad, false);
    const offset = this.view.storage_offset - this.base.storage_offset;
    const gradSlice = as_strided_default.call(result, [...this.view.sizes], [...this.view.strides], offset) as Tensor;
    const res = fn.apply([clone_default.call(gradSlice, contiguous_format) as Tensor]);
    return res.map((r, i) => {
      if (!this.should_compute_output(i)) return null;
      if (i === 0) {
        if (r !== null) copy__default.call(gradSlice, r, false);
        return result;
      }
      return r;
    });
  }

  override release_variables(): void {
    this.fn?.release_variables();
  }

  override runs_user_code(): boolean {
    return this.fn?.runs_user_code() ?? false;
  }
}

/**
 * CopyBackwards (functions/tensor.cpp): the Node of self.copy_(src), made by the hand-written copy_
 * kernel (VariableTypeManual.ts). self's old values are overwritten, so its gradient is zero; src's is
 * the gradient converted to src's dtype and device (grad.to(src_options)); the engine then sums it down
 * to src's shape when src was broadcast.
 */
export class CopyBackwards extends Node {
  src_options: { dtype: Tensor["dtype"]; device: Tensor["device"]; layout: Tensor["layout"] } | null = null;
  name(): string {
    return "CopyBackwards";
  }
  apply(grads: Grad[]): Grad[] {
    const grad = grads[0];
    const grad_inputs: Grad[] = [null, null];
    if (grad === null) return grad_inputs;
    if (this.should_compute_output(0)) grad_inputs[0] = zeros_like_default.call(grad, null, null, null, null, contiguous_format) as Tensor;
    if (this.should_compute_output(1)) {
      const o = this.src_options!;
      grad_inputs[1] = to_dtype_layout.call(grad, o.dtype, o.layout, o.device, null, false, false, null) as Tensor;
    }
    return grad_inputs;
  }
}
