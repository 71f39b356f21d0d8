// The torch._utils._rebuild_* functions a checkpoint's pickle calls, building Glasstorch tensors over the loaded
// storages. Every size, stride and offset is checked against the storage before a tensor points into it.

import { RuntimeError } from "../c10/Errors.js";
import { TensorImpl } from "../c10/TensorImpl.js";
import { Storage } from "../c10/Storage.js";
import { GetAllocator } from "../c10/Allocator.js";
import { computeNumel, contiguousStrides } from "../c10/Contiguity.js";
import type { dtype } from "../c10/ScalarType.js";
import { device } from "../c10/Device.js";
import { Tensor } from "../aten/core/Tensor.js";
import { Parameter } from "../nn/parameter.js";
import { PyDict, UnpicklingError, pyTypeName } from "./unpickler.js";
import { TypedStorageRef } from "./storage_types.js";

function intTuple(v: unknown, what: string): number[] {
  if (!Array.isArray(v) || !v.every((x) => typeof x === "number" && Number.isInteger(x))) {
    throw new UnpicklingError(`${what} must be a tuple of ints, not ${pyTypeName(v)}`);
  }
  return v as number[];
}

function checkSizesStrides(size: number[], stride: number[]): void {
  if (size.length !== stride.length) throw new RuntimeError(`mismatch in length of strides and shape`);
  for (const s of size) {
    if (s < 0) throw new RuntimeError(`Trying to create tensor with negative dimension ${s}: [${size.join(", ")}]`);
  }
  for (const s of stride) {
    if (s < 0) throw new RuntimeError(`Storage size calculation overflowed with sizes=[${size.join(", ")}] and strides=[${stride.join(", ")}]`);
  }
  if (!Number.isSafeInteger(computeNumel(size))) throw new RuntimeError("numel: integer multiplication overflow");
}

function setRequiresGrad(t: Tensor, requiresGrad: unknown): void {
  if (typeof requiresGrad !== "boolean") throw new UnpicklingError(`requires_grad must be bool, not ${pyTypeName(requiresGrad)}`);
  if (requiresGrad) t.requires_grad_(true);
}

function checkNoHooks(hooks: unknown): void {
  // torch.save writes an empty OrderedDict (hooks are never serialized); anything else is not a weights file
  if (hooks !== null && hooks !== undefined && !(hooks instanceof PyDict && hooks.entries.size === 0)) {
    throw new UnpicklingError("backward_hooks must be an empty OrderedDict in a weights-only checkpoint");
  }
}

/** _rebuild_tensor: an empty tensor .set_(storage, storage_offset, size, stride). */
export function _rebuild_tensor(storage: unknown, storage_offset: unknown, size: unknown, stride: unknown): Tensor {
  if (!(storage instanceof TypedStorageRef)) throw new UnpicklingError(`_rebuild_tensor expects a storage, got ${pyTypeName(storage)}`);
  if (typeof storage_offset !== "number" || !Number.isInteger(storage_offset) || storage_offset < 0) {
    throw new RuntimeError(`Tensor: invalid storage offset ${String(storage_offset)}`);
  }
  const sizes = intTuple(size, "size");
  const strides = intTuple(stride, "stride");
  checkSizesStrides(sizes, strides);
  const impl = new TensorImpl(storage.storage, storage.dtype, [0], [1], 0);
  // the same bounds check (and text) as TensorImpl::set_storage_and_dtype / set_()
  impl.set_sizes_and_strides(sizes, strides, storage_offset);
  return new Tensor(impl);
}

/** _rebuild_tensor_v2(storage, storage_offset, size, stride, requires_grad, backward_hooks, metadata=None). */
export function _rebuild_tensor_v2(args: unknown[]): Tensor {
  if (args.length < 6 || args.length > 7) throw new UnpicklingError(`_rebuild_tensor_v2() takes 6 or 7 arguments (${args.length} given)`);
  const [storage, offset, size, stride, requiresGrad, hooks, metadata] = args;
  const t = _rebuild_tensor(storage, offset, size, stride);
  setRequiresGrad(t, requiresGrad);
  checkNoHooks(hooks);
  checkNoMetadata(metadata);
  return t;
}

/** _rebuild_tensor_v3(storage, storage_offset, size, stride, requires_grad, backward_hooks, dtype, metadata=None). */
export function _rebuild_tensor_v3(args: unknown[], asDtype: (v: unknown) => dtype): Tensor {
  if (args.length < 7 || args.length > 8) throw new UnpicklingError(`_rebuild_tensor_v3() takes 7 or 8 arguments (${args.length} given)`);
  const [storage, offset, size, stride, requiresGrad, hooks, dt, metadata] = args;
  if (!(storage instanceof TypedStorageRef)) throw new UnpicklingError(`_rebuild_tensor_v3 expects a storage, got ${pyTypeName(storage)}`);
  const t = _rebuild_tensor(new TypedStorageRef(storage.storage, asDtype(dt)), offset, size, stride);
  setRequiresGrad(t, requiresGrad);
  checkNoHooks(hooks);
  checkNoMetadata(metadata);
  return t;
}

function checkNoMetadata(metadata: unknown): void {
  // metadata carries conj/neg bits (torch._utils.get_tensor_metadata); Glasstorch has neither, so none may be set
  if (metadata === null || metadata === undefined) return;
  if (metadata instanceof PyDict && [...metadata.entries.values()].every((v) => v === false)) return;
  throw new UnpicklingError("tensor metadata (conj/neg bits) is not supported by Glasstorch");
}

/** _rebuild_meta_tensor_no_storage(dtype, size, stride, requires_grad): a meta tensor, no data saved. */
export function _rebuild_meta_tensor_no_storage(args: unknown[], asDtype: (v: unknown) => dtype): Tensor {
  if (args.length !== 4) throw new UnpicklingError(`_rebuild_meta_tensor_no_storage() takes 4 arguments (${args.length} given)`);
  const dt = asDtype(args[0]);
  const sizes = intTuple(args[1], "size");
  const strides = intTuple(args[2], "stride");
  checkSizesStrides(sizes, strides);
  const meta = new device("meta");
  const impl = new TensorImpl(new Storage(0, GetAllocator("meta"), meta), dt, sizes, strides ?? contiguousStrides(sizes));
  const t = new Tensor(impl);
  setRequiresGrad(t, args[3]);
  return t;
}

/** nn.Parameter(data, requires_grad), as torch._utils._rebuild_parameter makes it: an nn.Parameter over data's storage. */
export function makeParameter(data: unknown, requiresGrad: unknown): Parameter {
  if (!(data instanceof Tensor)) throw new UnpicklingError(`Parameter data must be a Tensor, not ${pyTypeName(data)}`);
  const rg = requiresGrad === undefined ? true : requiresGrad;
  if (typeof rg !== "boolean") throw new UnpicklingError(`requires_grad must be bool, not ${pyTypeName(rg)}`);
  return new Parameter(data, rg);
}

/** _rebuild_parameter(data, requires_grad, backward_hooks). */
export function _rebuild_parameter(args: unknown[]): Tensor {
  if (args.length !== 3) throw new UnpicklingError(`_rebuild_parameter() takes 3 arguments (${args.length} given)`);
  checkNoHooks(args[2]);
  return makeParameter(args[0], args[1]);
}

/** Python attributes (Tensor.__dict__) restored by _rebuild_from_type_v2 / _rebuild_parameter_with_state. */
export function setObjState(t: Tensor, state: unknown): void {
  if (state === null || state === undefined) return;
  let dictState: unknown = state;
  if (Array.isArray(state)) {
    if (state.length !== 2) throw new UnpicklingError("tensor state must be a dict or a (dict, slots) tuple");
    const [d, slots] = state;
    if (slots !== null && !(slots instanceof PyDict)) throw new UnpicklingError("tensor slot state must be a dict");
    if (slots instanceof PyDict) setAttrs(t, slots);
    dictState = d;
  }
  if (dictState === null) return;
  if (!(dictState instanceof PyDict)) throw new UnpicklingError(`tensor state must be a dict, not ${pyTypeName(dictState)}`);
  setAttrs(t, dictState);
}

/** The attribute names setObjState put on each tensor (torch.load converts their values afterwards). */
export const restoredAttrs = new WeakMap<Tensor, string[]>();

function setAttrs(t: Tensor, d: PyDict): void {
  const names = restoredAttrs.get(t) ?? [];
  restoredAttrs.set(t, names);
  for (const [k, v] of d.entries) {
    if (typeof k !== "string") throw new UnpicklingError("attribute name must be string");
    if (k in t) throw new UnpicklingError(`cannot restore the tensor attribute '${k}': Tensor already has a member of that name`);
    Object.defineProperty(t, k, { value: v, enumerable: true, writable: true, configurable: true });
    names.push(k);
  }
}

/** _rebuild_parameter_with_state(data, requires_grad, backward_hooks, state). */
export function _rebuild_parameter_with_state(args: unknown[]): Tensor {
  if (args.length !== 4) throw new UnpicklingError(`_rebuild_parameter_with_state() takes 4 arguments (${args.length} given)`);
  checkNoHooks(args[2]);
  const p = makeParameter(args[0], args[1]);
  setObjState(p, args[3]);
  return p;
}
