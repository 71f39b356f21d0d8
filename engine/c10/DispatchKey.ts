// DispatchKey and BackendComponent (c10/core/DispatchKey.h), trimmed to the keys Glasstorch implements,
// in PyTorch 1.13's relative order. Order is priority: a higher value is handled first.

import { RuntimeError } from "./Errors.js";

/** Which device a per-backend functionality applies to. InvalidBit has no bit in a key set. */
export enum BackendComponent {
  InvalidBit = 0,
  CPUBit = 1,
  CUDABit = 2,
  MetaBit = 3, // last, as in PyTorch: a Meta bit wins over real devices
}
export const numBackends = 3;

/**
 * Functionality keys first (each owns one bit of a DispatchKeySet), then the runtime keys of the
 * per-backend functionalities (Dense x backend, AutogradFunctionality x backend), then alias keys.
 */
export enum DispatchKey {
  Undefined = 0,
  // ---- functionality keys, lowest priority first ----
  Dense, // per-backend: CPU, CUDA, Meta
  FPGA, // a backend without its own bit or Autograd key: its autograd is AutogradOther (kept so that rule is visible)
  BackendSelect,
  Python,
  ADInplaceOrView,
  AutogradOther,
  AutogradFunctionality, // per-backend: AutogradCPU, AutogradCUDA, AutogradMeta
  AutocastCPU,
  AutocastCUDA,
  PythonTLSSnapshot,
  PythonDispatcher, // the top key; FULL_AFTER(k) always keeps it
  EndOfFunctionalityKeys,
  // ---- runtime keys of per-backend functionalities ----
  StartOfDenseBackends,
  CPU,
  CUDA,
  Meta,
  StartOfAutogradFunctionalityBackends,
  AutogradCPU,
  AutogradCUDA,
  AutogradMeta,
  // ---- alias keys: never in a key set; registration expands them to runtime keys ----
  Autograd,
  CompositeImplicitAutograd,
  CompositeExplicitAutograd,
  CompositeExplicitAutogradNonFunctional,
}

export const numFunctionalityKeys = DispatchKey.EndOfFunctionalityKeys;
/** Consts, not enum members, so DispatchKey[value] keeps printing 'AutogradMeta', 'Autograd', ... */
export const EndOfRuntimeBackendKeys = DispatchKey.AutogradMeta;
export const StartOfAliasKeys = DispatchKey.Autograd;
export const EndOfAliasKeys = DispatchKey.CompositeExplicitAutogradNonFunctional;

const perBackendStarts = new Map<DispatchKey, DispatchKey>([
  [DispatchKey.Dense, DispatchKey.StartOfDenseBackends],
  [DispatchKey.AutogradFunctionality, DispatchKey.StartOfAutogradFunctionalityBackends],
]);

export function isPerBackendFunctionalityKey(k: DispatchKey): boolean {
  return perBackendStarts.has(k);
}

export function isAliasDispatchKey(k: DispatchKey): boolean {
  return k >= StartOfAliasKeys && k <= EndOfAliasKeys;
}

export function isRuntimePerBackendKey(k: DispatchKey): boolean {
  return k > DispatchKey.EndOfFunctionalityKeys && k <= EndOfRuntimeBackendKeys && !isStartOfBlock(k);
}

function isStartOfBlock(k: DispatchKey): boolean {
  return k === DispatchKey.StartOfDenseBackends || k === DispatchKey.StartOfAutogradFunctionalityBackends;
}

/** AutogradCUDA -> AutogradFunctionality; CPU -> Dense; a functionality key maps to itself. */
export function toFunctionalityKey(k: DispatchKey): DispatchKey {
  if (k <= DispatchKey.EndOfFunctionalityKeys) return k;
  if (k > DispatchKey.StartOfDenseBackends && k < DispatchKey.StartOfAutogradFunctionalityBackends) return DispatchKey.Dense;
  if (k > DispatchKey.StartOfAutogradFunctionalityBackends && k <= EndOfRuntimeBackendKeys) {
    return DispatchKey.AutogradFunctionality;
  }
  return DispatchKey.Undefined;
}

/** AutogradCUDA -> CUDABit; a key without a backend -> InvalidBit. */
export function toBackendComponent(k: DispatchKey): BackendComponent {
  for (const start of perBackendStarts.values()) {
    if (k > start && k <= start + numBackends) return (k - start) as BackendComponent;
  }
  return BackendComponent.InvalidBit;
}

/** (AutogradFunctionality, CUDABit) -> AutogradCUDA */
export function toRuntimePerBackendFunctionalityKey(functionality: DispatchKey, backend: BackendComponent): DispatchKey {
  const start = perBackendStarts.get(functionality);
  if (start === undefined || backend === BackendComponent.InvalidBit) return DispatchKey.Undefined;
  return start + backend;
}

/** CPUBit -> AutogradCPU; a key without a backend bit (FPGA) has AutogradOther. */
export function getAutogradKeyFromBackend(b: BackendComponent): DispatchKey {
  if (b === BackendComponent.InvalidBit) return DispatchKey.AutogradOther;
  return toRuntimePerBackendFunctionalityKey(DispatchKey.AutogradFunctionality, b);
}

export function getAutocastKeyFromBackend(b: BackendComponent): DispatchKey | undefined {
  if (b === BackendComponent.CPUBit) return DispatchKey.AutocastCPU;
  if (b === BackendComponent.CUDABit) return DispatchKey.AutocastCUDA;
  return undefined; // PyTorch has no AutocastMeta
}

/** The name PyTorch prints (toString in c10/core/DispatchKey.cpp). */
export function dispatchKeyName(k: DispatchKey): string {
  if (k === DispatchKey.Undefined) return "Undefined";
  return DispatchKey[k];
}

export function backendComponentName(b: BackendComponent): string {
  return BackendComponent[b];
}

/** 'AutogradCPU' -> DispatchKey.AutogradCPU (parseDispatchKey in c10/core/DispatchKey.cpp). Only names a
 * registration may use: functionality keys, runtime keys and alias keys (not the block markers). */
export function parseDispatchKey(name: string): DispatchKey {
  if (name === "CatchAll") return DispatchKey.Undefined;
  const k = (DispatchKey as unknown as Record<string, number | undefined>)[name];
  if (k === undefined || /^(StartOf|EndOf)/.test(name)) throw new RuntimeError(`could not parse dispatch key: ${name}`);
  return k as DispatchKey;
}
