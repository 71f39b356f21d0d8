// TensorImpl (c10/core/TensorImpl.h): the one object behind every tensor.
// A tensor is a window onto a Storage: (sizes, strides, storage_offset) say which elements, dtype says how to read them.

import { BackendComponent } from "./DispatchKey.js";
import { DispatchKeySet, tensorKeySetFor, autograd_dispatch_keyset_with_ADInplaceOrView } from "./DispatchKeySet.js";
import { InferenceMode } from "./InferenceMode.js";
import type { device } from "./Device.js";
import type { dtype } from "./ScalarType.js";
import type { Storage } from "./Storage.js";
import { computeContiguous, computeNumel, computeStorageNumelNeeded, contiguousStrides } from "./Contiguity.js";
import { RuntimeError } from "./Errors.js";
import { GetAutogradMetaFactory } from "./AutogradMetaFactory.js";

/**
 * VariableVersion: bumped by every in-place op; shared by a tensor and all its views. An inference
 * tensor's counter is disabled: it has no version, and only InferenceMode may change it in place.
 */
export class VariableVersion {
  private version_ = 0;
  constructor(readonly enabled = true) {}
  get version(): number {
    if (!this.enabled) throw new RuntimeError("Inference tensors do not track version counter.");
    return this.version_;
  }
  bump(): void {
    if (!this.enabled) {
      if (InferenceMode.is_enabled()) return;
      throw new RuntimeError(
        "Inplace update to inference tensor outside InferenceMode is not allowed." +
          "You can make a clone to get a normal tensor before doing inplace update." +
          "See https://github.com/pytorch/rfcs/pull/17 for more details.",
      );
    }
    this.version_++;
  }
}

/** What autograd keeps per tensor. The autograd layer defines the real shape; c10 only holds the slot. */
export interface AutogradMetaInterface {
  requires_grad(): boolean;
  set_requires_grad(requiresGrad: boolean): void;
  /** Name of the Node that made this tensor (MulBackward0), if any: printing shows it. */
  grad_fn_name?(): string | undefined;
  /**
   * The tangent at a forward AD level (AutogradMetaInterface::fw_grad; autograd's forward_grad.ts), typed
   * loosely because c10 sits below Tensor. `self` is the tensor owning this meta.
   */
  fw_grad?(level: number, self: unknown): unknown | null;
}

export function backendComponentFor(d: device): BackendComponent {
  switch (d.type) {
    case "cpu":
      return BackendComponent.CPUBit;
    case "cuda":
      return BackendComponent.CUDABit;
    case "meta":
      return BackendComponent.MetaBit;
    default:
      throw new RuntimeError(`Glasstorch has no backend for device type '${d.type}'`);
  }
}

export class TensorImpl {
  private sizes_: number[];
  private strides_: number[];
  private numel_: number;
  private isContiguous_: boolean;
  key_set: DispatchKeySet;
  /** A tensor made from a JS number for an op (wrapped number): it takes part in type promotion as a scalar. */
  is_wrapped_number = false;
  autograd_meta: AutogradMetaInterface | null = null;
  /** This impl holds a share of its storage (Storage.owners) until its handle is disposed (c10/Dispose.ts). */
  owns_storage = true;

  constructor(
    readonly storage: Storage,
    readonly dtype: dtype,
    sizes: readonly number[],
    strides: readonly number[] | null = null,
    private storageOffset_ = 0,
    versionCounter?: VariableVersion,
    keySet?: DispatchKeySet,
  ) {
    // a fresh tensor made in inference mode is an inference tensor; a view shares its base's counter (and kind)
    storage.owners++;
    this.version_counter = versionCounter ?? new VariableVersion(!InferenceMode.is_enabled());
    this.sizes_ = sizes.slice();
    this.strides_ = strides ? strides.slice() : contiguousStrides(sizes);
    this.numel_ = computeNumel(this.sizes_);
    // row-major strides are contiguous by construction
    this.isContiguous_ = strides ? computeContiguous(this.sizes_, this.strides_) : true;
    const ks = keySet ?? tensorKeySetFor(backendComponentFor(storage.device));
    this.key_set = this.version_counter.enabled ? ks : ks.minus(autograd_dispatch_keyset_with_ADInplaceOrView);
  }

  readonly version_counter: VariableVersion;

  /** An inference tensor: made in inference mode, outside autograd (no version counter). */
  is_inference(): boolean {
    return !this.version_counter.enabled;
  }

  get device(): device {
    return this.storage.device;
  }

  sizes(): readonly number[] {
    return this.sizes_;
  }

  strides(): readonly number[] {
    return this.strides_;
  }

  dim(): number {
    return this.sizes_.length;
  }

  numel(): number {
    return this.numel_;
  }

  storage_offset(): number {
    return this.storageOffset_;
  }

  itemsize(): number {
    return this.dtype.itemsize;
  }

  is_contiguous(): boolean {
    return this.isContiguous_;
  }

  /** set_sizes_and_strides: reshapes this window in place (views are new TensorImpls; this is for resize_/as_strided_). */
  set_sizes_and_strides(sizes: readonly number[], strides: readonly number[], storageOffset = this.storageOffset_): void {
    const needed = computeStorageNumelNeeded(sizes, strides, storageOffset) * this.itemsize();
    if (needed > this.storage.nbytes()) {
      throw new RuntimeError(
        `setStorage: sizes [${sizes.join(", ")}], strides [${strides.join(", ")}], storage offset ${storageOffset}, and itemsize ${this.itemsize()} ` +
          `requiring a storage size of ${needed} are out of bounds for storage of size ${this.storage.nbytes()}`,
      );
    }
    this.sizes_ = [...sizes];
    this.strides_ = [...strides];
    this.storageOffset_ = storageOffset;
    this.numel_ = computeNumel(this.sizes_);
    this.isContiguous_ = computeContiguous(this.sizes_, this.strides_);
  }

  requires_grad(): boolean {
    return this.autograd_meta?.requires_grad() ?? false;
  }

  /** The metadata is created lazily, as in PyTorch: most tensors never need it. */
  set_requires_grad(requiresGrad: boolean): void {
    if (this.autograd_meta) this.autograd_meta.set_requires_grad(requiresGrad);
    else if (requiresGrad) this.autograd_meta = GetAutogradMetaFactory().make(true);
  }

  /**
   * This impl's fields on a new object of prototype `proto`, over `storage` and owning no share of it:
   * Tensor.dispose()'s dead handle (c10/Dispose.ts), whose prototype supplies a key_set that throws.
   * Field by field, so the copy is a few monomorphic stores (an Object.keys loop of keyed stores was
   * half of a dispose's ~0.8 us). A field added to TensorImpl belongs here too (tensor_dispose.test.ts checks).
   */
  _copy_onto(proto: object, storage: Storage): TensorImpl {
    const c = Object.create(proto) as Record<string, unknown>;
    c.sizes_ = this.sizes_;
    c.strides_ = this.strides_; // (never mutated in place: sharing them is safe)
    c.numel_ = this.numel_;
    c.isContiguous_ = this.isContiguous_;
    c.is_wrapped_number = this.is_wrapped_number;
    c.autograd_meta = this.autograd_meta;
    c.owns_storage = false;
    c.storage = storage;
    c.dtype = this.dtype;
    c.storageOffset_ = this.storageOffset_;
    c.version_counter = this.version_counter;
    return c as unknown as TensorImpl;
  }

  /** Address of the first element, as data_ptr() reports it: storage address + offset * itemsize. */
  data_ptr(): number {
    const base = this.storage.address();
    return base === 0 ? 0 : base + this.storageOffset_ * this.itemsize();
  }
}
