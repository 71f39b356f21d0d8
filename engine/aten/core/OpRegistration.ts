// What generated operator files call (engine/generated/*.ts): declare an op, register a kernel for a
// dispatch key, and the small runtime pieces PyTorch's generated code uses (the BackendSelect key set,
// version bumps for in-place ops, numbers wrapped as tensors, requires_grad on factories).

import { Dispatcher, type OperatorHandle, type UnboxedKernel } from "../../dispatcher/index.js";
import { parseSchema } from "../../dispatcher/schema/SchemaParser.js";
import { DispatchKey } from "../../c10/DispatchKey.js";
import { DispatchKeySet } from "../../c10/DispatchKeySet.js";
import { tls_local_dispatch_key_set, withExcluded } from "../../c10/impl/LocalDispatchKeySet.js";
import { autograd_dispatch_keyset_with_ADInplaceOrView } from "../../c10/DispatchKeySet.js";
import { toDevice, type DeviceLike } from "../../c10/Device.js";
import { float64, int64, bool } from "../../c10/ScalarType.js";
import { RuntimeError } from "../../c10/Errors.js";
import { hasAllocator } from "../../c10/Allocator.js";
import { Tensor } from "./Tensor.js";
import { empty_impl } from "./empty.js";
import { fill_kernel } from "../cpu/FillKernel.js";

export { after_ADInplaceOrView_keyset, after_autograd_keyset } from "../../c10/DispatchKeySet.js";

/** m.def(schema): declares the operator; returns its handle (at::_ops::<op>, with .call and .redispatch). */
export function defineOp(schemaText: string, where: string): OperatorHandle {
  const schema = parseSchema(schemaText);
  const dispatcher = Dispatcher.singleton();
  dispatcher.registerDef(schema, where);
  return dispatcher.findSchemaOrThrow(schema.name, schema.overload_name);
}

/**
 * m.impl(op, key, kernel): `name` is what the trace shows, `where` the yaml line that asked for it,
 * `generatedAt` the line of the generated file doing the registration.
 */
export function registerKernel(op: OperatorHandle, key: string, kernel: UnboxedKernel, name: string, where: string, generatedAt?: string): void {
  const s = op.schema();
  Dispatcher.singleton().registerImpl({ name: s.name, overload_name: s.overload_name }, key, kernel, { name, registeredAt: where, generatedAt });
}

const backendKeyOf: Record<string, DispatchKey> = { cpu: DispatchKey.CPU, cuda: DispatchKey.CUDA, meta: DispatchKey.Meta };
const afterBackendSelect = DispatchKeySet.fullAfter(DispatchKey.BackendSelect);

/**
 * computeDispatchKey(dtype, layout, device) then computeDispatchKeySet: the backend a factory runs on
 * comes from its device option (CPU when none), seen through the TLS sets, below BackendSelect.
 */
export function backendSelectKeySet(device: DeviceLike | null | undefined): DispatchKeySet {
  const type = device == null ? "cpu" : toDevice(device).type;
  const key = backendKeyOf[type];
  if (key === undefined) throw new RuntimeError(`Glasstorch has no backend for device type '${type}'`);
  const tls = tls_local_dispatch_key_set();
  return DispatchKeySet.of(key).or(tls.included_).minus(tls.excluded_).and(afterBackendSelect);
}

/**
 * at::AutoDispatchBelowADInplaceOrView for the length of fn: what an autograd kernel holds while it runs
 * the op, so nested calls (a composite's inner ops) skip the autograd and ADInplaceOrView keys.
 */
export function below_autograd<T>(fn: () => T): T {
  return withExcluded(autograd_dispatch_keyset_with_ADInplaceOrView, fn);
}

/** In-place ops and out= bump the written tensor's version counter (shared with its views). */
export function increment_version(t: unknown): void {
  if (t instanceof Tensor) t._impl.version_counter.bump();
}

/**
 * scalar_to_tensor + set_wrapped_number: a JS number where the schema says Tensor becomes a 0-dim CPU
 * tensor marked as a wrapped number, so type promotion treats it as a scalar (int64 / float64 / bool).
 */
export function wrapped_scalar_tensor(v: unknown): unknown {
  if (typeof v !== "number" && typeof v !== "boolean") return v;
  const dt = typeof v === "boolean" ? bool : Number.isInteger(v) ? int64 : float64;
  const impl = empty_impl([], dt, toDevice("cpu"));
  fill_kernel(impl, Number(v));
  impl.is_wrapped_number = true;
  return new Tensor(impl);
}

/** torch::utils::maybe_initialize_cuda: a device with no backend loaded is refused before dispatch. */
export function maybe_initialize_device(device: unknown): void {
  if (device == null) return;
  const type = toDevice(device as DeviceLike).type;
  if (type === "cuda" && !hasAllocator("cuda")) throw new RuntimeError("Torch not compiled with CUDA enabled");
}

/** A factory's requires_grad=True, with PyTorch's wording for non-floating results. */
export function apply_requires_grad(result: unknown, requiresGrad: unknown, op: string): unknown {
  if (!requiresGrad || !(result instanceof Tensor)) return result;
  if (!(result.dtype.is_floating_point || result.dtype.is_complex)) {
    throw new RuntimeError("Only Tensors of floating point and complex dtype can require gradients", { op });
  }
  result._impl.set_requires_grad(true);
  return result;
}
