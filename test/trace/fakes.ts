// Synthetic dispatcher traffic for the trace tests: fake operator handles, real c10 key sets and
// tensors (a real TensorImpl inside a fake Tensor handle, as aten's Tensor holds one).

import { DispatchKey } from "../../engine/c10/DispatchKey.js";
import { DispatchKeySet } from "../../engine/c10/DispatchKeySet.js";
import { TensorImpl } from "../../engine/c10/TensorImpl.js";
import { Storage } from "../../engine/c10/Storage.js";
import { GetAllocator } from "../../engine/c10/Allocator.js";
import { device } from "../../engine/c10/Device.js";
import { float32, type dtype } from "../../engine/c10/ScalarType.js";
import type { DispatchEvent, DispatchObserver, KernelDebugInfo, OperatorHandleLike } from "../../engine/trace/index.js";

const K = DispatchKey;

export function fakeOp(name: string, overload: string, schema: string, argNames?: string[]): OperatorHandleLike {
  return {
    schema: {
      name,
      overload_name: overload,
      arguments: argNames?.map((n) => ({ name: n })),
      toString: () => schema,
    },
  };
}

export const addOp = fakeOp("aten::add", "Tensor", "aten::add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor", ["self", "other", "alpha"]);
export const matmulOp = fakeOp("aten::matmul", "", "aten::matmul(Tensor self, Tensor other) -> Tensor", ["self", "other"]);
export const mmOp = fakeOp("aten::mm", "", "aten::mm(Tensor self, Tensor mat2) -> Tensor", ["self", "mat2"]);

export const tlsIncluded = DispatchKeySet.of(K.BackendSelect, K.ADInplaceOrView);
export const tlsExcluded = DispatchKeySet.of(K.AutocastCPU, K.AutocastCUDA);
/** after_autograd_keyset, as far as the keys Glasstorch has go: everything below AutogradOther. */
export const afterAutograd = DispatchKeySet.of(K.CPU, K.CUDA, K.Meta, K.BackendSelect, K.Python, K.ADInplaceOrView);

export interface FakeTensor {
  _impl: TensorImpl;
}

export function tensor(sizes: number[], opts: { dtype?: dtype; requiresGrad?: boolean } = {}): FakeTensor {
  const dt = opts.dtype ?? float32;
  const n = sizes.reduce((a, b) => a * b, 1);
  const impl = new TensorImpl(new Storage(n * dt.itemsize, GetAllocator("cpu"), new device("cpu")), dt, sizes);
  if (opts.requiresGrad) impl.set_requires_grad(true);
  return { _impl: impl };
}

export const autogradKernel: KernelDebugInfo = {
  name: "add_Tensor",
  provenance: "autograd kernel",
  registeredAt: "engine/generated/VariableType.ts:10",
  kind: "kernel",
};
export const cpuKernel: KernelDebugInfo = {
  name: "add_Tensor_cpu",
  provenance: "kernel",
  registeredAt: "engine/aten/cpu/BinaryOps.ts:20",
  kind: "kernel",
};

export function step(op: OperatorHandleLike, args: unknown[], key: DispatchKey, keySet: DispatchKeySet, kernel: KernelDebugInfo, redispatch = false, mask?: DispatchKeySet): DispatchEvent {
  const e: DispatchEvent = { op, args, keySet, tlsIncluded, tlsExcluded, key, kernel, redispatch };
  if (mask) e.mask = mask;
  return e;
}

/** `a + b` as the dispatcher will run it: AutogradCPU, then a redispatch to CPU. */
export function dispatchAdd(obs: DispatchObserver, a: unknown, b: unknown, out: unknown): void {
  const args = [a, b, 1];
  const id = obs.onDispatch(step(addOp, args, K.AutogradCPU, DispatchKeySet.of(K.CPU, K.AutogradCPU), autogradKernel));
  const id2 = obs.onDispatch(step(addOp, args, K.CPU, DispatchKeySet.of(K.CPU), cpuKernel, true, afterAutograd));
  obs.onReturn(id2, out);
  obs.onReturn(id, out);
}

/** matmul: a CompositeImplicitAutograd kernel on AutogradCPU that calls mm (a nested call). */
export function dispatchMatmul(obs: DispatchObserver, a: unknown, b: unknown, out: unknown): void {
  const ks = DispatchKeySet.of(K.CPU, K.AutogradCPU);
  const m = obs.onDispatch(
    step(matmulOp, [a, b], K.AutogradCPU, ks, { name: "matmul", provenance: "math kernel", registeredAt: "engine/aten/composite/LinearAlgebra.ts:5", kind: "kernel" }),
  );
  const mm = obs.onDispatch(
    step(mmOp, [a, b], K.AutogradCPU, ks, { name: "mm", provenance: "autograd kernel", registeredAt: "engine/generated/VariableType.ts:40", kind: "kernel" }),
  );
  const mm2 = obs.onDispatch(
    step(mmOp, [a, b], K.CPU, DispatchKeySet.of(K.CPU), { name: "mm_cpu", provenance: "kernel", registeredAt: "engine/aten/cpu/LinearAlgebra.ts:9", kind: "kernel" }, true, afterAutograd),
  );
  obs.onReturn(mm2, out);
  obs.onReturn(mm, out);
  obs.onReturn(m, out);
}

/** Runs fn under `n` extra frames of this file (a deep engine stack, when fakes.ts is skipped). */
export function deep<T>(n: number, fn: () => T): T {
  return n === 0 ? fn() : deep(n - 1, fn);
}

/** dispatchAdd under `n` extra frames of this file, between the caller and the recorder. */
export function dispatchAddDeep(n: number, obs: DispatchObserver): void {
  deep(n, () => dispatchAdd(obs, null, null, null));
}
