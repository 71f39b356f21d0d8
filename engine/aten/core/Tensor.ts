// Tensor: the handle users hold (at::Tensor / torch.Tensor). All state lives in its TensorImpl;
// a Tensor adds the user-facing methods. Operator methods (add, view, ...) are attached by generated code.

import { TensorImpl } from "../../c10/TensorImpl.js";
import type { Storage } from "../../c10/Storage.js";
import type { device } from "../../c10/Device.js";
import type { dtype } from "../../c10/ScalarType.js";
import type { DispatchKeySet } from "../../c10/DispatchKeySet.js";
import { maybe_wrap_dim } from "../../c10/WrapDimMinimal.js";
import { strided, type layout } from "../../c10/Layout.js";
import { NotImplementedError, RuntimeError, ValueError } from "../../c10/Errors.js";
import { forEachOffset, fromRaw, offsetOf, readNumber, typedView } from "../../c10/ElementAccess.js";
import { Size } from "./Size.js";
import { tensorRepr, type ReprDtype, type ReprInput, type ReprScalar } from "./tensor_str.js";
import { get_default_dtype } from "../../c10/DefaultDtype.js";
import { ScalarType } from "../../c10/ScalarType.js";
import { check_not_disposed, dispose_impl, is_disposed } from "../../c10/Dispose.js";

export type Scalar = number | boolean;
export type NestedList = Scalar | NestedList[];

export class Tensor implements Disposable {
  /** Replaced only by dispose(), with an impl that keeps the metadata and throws on any use of the data. */
  constructor(public _impl: TensorImpl) {}

  // ---- deterministic freeing (c10/Dispose.ts) ----

  /**
   * This handle is done: its memory goes back to the allocator now if nothing else can read it (no other
   * tensor over the storage, no engine holder), else when the last of them is collected. Metadata stays
   * readable; any op or data read on this handle throws. Disposing twice does nothing.
   */
  dispose(): void {
    if (!is_disposed(this._impl)) this._impl = dispose_impl(this._impl);
  }

  /** `using t = torch.add(a, b)` disposes t at the end of its block. */
  [Symbol.dispose](): void {
    this.dispose();
  }

  /** Whether dispose() was called on this handle. */
  get is_disposed(): boolean {
    return is_disposed(this._impl);
  }

  // ---- metadata ----

  get shape(): Size {
    return Size.from_(this._impl.sizes());
  }

  /** size() -> torch.Size; size(dim) -> that dim's size (negative dims count from the end). */
  size(): Size;
  size(dim: number): number;
  size(dim?: number): Size | number {
    if (dim === undefined) return this.shape;
    return this._impl.sizes()[maybe_wrap_dim(dim, this._impl.dim(), false)];
  }

  stride(): number[];
  stride(dim: number): number;
  stride(dim?: number): number[] | number {
    if (dim === undefined) return [...this._impl.strides()];
    return this._impl.strides()[maybe_wrap_dim(dim, this._impl.dim(), false)];
  }

  dim(): number {
    return this._impl.dim();
  }

  get ndim(): number {
    return this._impl.dim();
  }

  numel(): number {
    return this._impl.numel();
  }

  nelement(): number {
    return this._impl.numel();
  }

  element_size(): number {
    return this._impl.itemsize();
  }

  storage_offset(): number {
    return this._impl.storage_offset();
  }

  is_contiguous(): boolean {
    return this._impl.is_contiguous();
  }

  get dtype(): dtype {
    return this._impl.dtype;
  }

  get device(): device {
    return this._impl.device;
  }

  /** torch.strided: every Glasstorch tensor is strided. */
  get layout(): layout {
    return strided;
  }

  get is_meta(): boolean {
    return this._impl.device.type === "meta";
  }

  get is_cpu(): boolean {
    return this._impl.device.type === "cpu";
  }

  get is_cuda(): boolean {
    return this._impl.device.type === "cuda";
  }

  is_floating_point(): boolean {
    return this._impl.dtype.is_floating_point;
  }

  is_complex(): boolean {
    return this._impl.dtype.is_complex;
  }

  /** The untyped Storage shared with every view of this tensor. */
  untyped_storage(): Storage {
    return this._impl.storage;
  }

  /** Address of the first element: equal for tensors that alias the same memory. */
  data_ptr(): number {
    return this._impl.data_ptr();
  }

  /** The version counter shared with views; in-place ops bump it. */
  get _version(): number {
    return this._impl.version_counter.version;
  }

  /** The dispatch keys this tensor contributes to every call (torch._C._dispatch_keys). */
  _dispatch_keys(): DispatchKeySet {
    return this._impl.key_set;
  }

  // ---- autograd flag ----

  get requires_grad(): boolean {
    return this._impl.requires_grad();
  }

  set requires_grad(value: boolean) {
    this.requires_grad_(value);
  }

  requires_grad_(requiresGrad = true): this {
    const dt = this._impl.dtype;
    if (requiresGrad && !(dt.is_floating_point || dt.is_complex)) {
      throw new RuntimeError("only Tensors of floating point dtype can require gradients", { op: "requires_grad_" });
    }
    this._impl.set_requires_grad(requiresGrad);
    return this;
  }

  // ---- data out ----

  /** The single value of a one-element tensor (number, or boolean for bool tensors). */
  item(): Scalar {
    check_not_disposed(this._impl, "item");
    if (this._impl.numel() !== 1) throw new ValueError("only one element tensors can be converted to Python scalars", { op: "item" });
    if (this.is_meta) throw new NotImplementedError("Cannot copy out of meta tensor; no data!", { op: "item" });
    return this._element(0);
  }

  /** Nested arrays of numbers/booleans; a 0-dim tensor gives its scalar. */
  tolist(): NestedList {
    check_not_disposed(this._impl, "tolist");
    if (this.is_meta) throw new NotImplementedError("Cannot copy out of meta tensor; no data!", { op: "tolist" });
    const sizes = this._impl.sizes();
    let flat = 0;
    const build = (d: number): NestedList => {
      if (d === sizes.length) return this._element(flat++);
      const out: NestedList[] = [];
      for (let i = 0; i < sizes[d]; i++) out.push(build(d + 1));
      return out;
    };
    return build(0);
  }

  /** Every element in row-major order as numbers (bool as 0/1), for kernels that take flat input. */
  _flatNumbers(): Float64Array {
    const impl = this._impl;
    const out = new Float64Array(impl.numel());
    const view = typedView(impl.storage, impl.dtype);
    forEachOffset(impl, (offset, i) => (out[i] = readNumber(view, impl.dtype.scalarType, offset)));
    return out;
  }

  /** Element at a row-major flat index, read through sizes/strides/offset. */
  _element(flatIndex: number): Scalar {
    const impl = this._impl;
    const view = typedView(impl.storage, impl.dtype);
    return fromRaw(impl.dtype.scalarType, view[offsetOf(impl, flatIndex)]);
  }

  // ---- printing ----

  /** PyTorch's repr, character for character: tensor([[1., 2.]], dtype=torch.float64) */
  toString(): string {
    check_not_disposed(this._impl, "repr");
    return tensorRepr(this._reprInput(), { defaultDtype: get_default_dtype().name as ReprDtype });
  }

  [Symbol.for("nodejs.util.inspect.custom")](): string {
    return this.toString();
  }

  private _reprInput(): ReprInput {
    const impl = this._impl;
    const st = impl.dtype.scalarType;
    const view = impl.storage.hasData() ? typedView(impl.storage, impl.dtype) : null;
    return {
      sizes: impl.sizes(),
      dtype: impl.dtype.name as ReprDtype,
      get: (i: number): ReprScalar => {
        const raw = view![offsetOf(impl, i)];
        // int64 beyond 2^53 prints exactly, as Python's ints do
        if (st === ScalarType.Long && !Number.isSafeInteger(Number(raw))) return raw as bigint;
        return fromRaw(st, raw);
      },
      device: String(impl.device),
      isMeta: this.is_meta,
      requiresGrad: impl.requires_grad(),
      gradFnName: impl.autograd_meta?.grad_fn_name?.(),
    };
  }
}
