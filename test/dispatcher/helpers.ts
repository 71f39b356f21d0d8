// Shared pieces for the dispatcher tests: hand-built schemas, fake tensors (anything with _impl.key_set),
// PyTorch 1.13's own backend fallbacks, and the text normalization used to compare dumps with PyTorch.
import { BackendComponent, DispatchKey } from "../../engine/c10/DispatchKey.js";
import { DispatchKeySet, tensorKeySetFor } from "../../engine/c10/DispatchKeySet.js";
import { Dispatcher, KernelFunction, type OperatorSchema } from "../../engine/dispatcher/index.js";

/** A schema object from its text, e.g. 'mytest::foo.out(Tensor x, *, int a=1) -> Tensor'. Types and names only. */
export function schema(text: string): OperatorSchema {
  const open = text.indexOf("(");
  const full = text.slice(0, open);
  const dot = full.indexOf(".", full.indexOf("::") + 2);
  const inner = text.slice(open + 1, text.lastIndexOf(") ->"));
  const args = inner
    .split(", ")
    .filter((a) => a !== "" && a !== "*")
    .map((a) => {
      const [type, nameAndDefault] = a.split(" ");
      return { name: nameAndDefault.split("=")[0], type: { toString: () => type } };
    });
  return {
    name: dot < 0 ? full : full.slice(0, dot),
    overload_name: dot < 0 ? "" : full.slice(dot + 1),
    arguments: args,
    toString: () => text,
  };
}

/** A tensor as far as the dispatcher cares. */
export function tensorWith(ks: DispatchKeySet): { _impl: { key_set: DispatchKeySet } } {
  return { _impl: { key_set: ks } };
}
export const cpuTensor = () => tensorWith(tensorKeySetFor(BackendComponent.CPUBit));
export const cudaTensor = () => tensorWith(tensorKeySetFor(BackendComponent.CUDABit));
export const metaTensor = () => tensorWith(tensorKeySetFor(BackendComponent.MetaBit));
export const fpgaTensor = () => tensorWith(DispatchKeySet.of(DispatchKey.FPGA, DispatchKey.ADInplaceOrView, DispatchKey.AutogradOther));

/** Keys PyTorch names that Glasstorch models. */
export function isOurKey(name: string): boolean {
  return name === "Undefined" || typeof (DispatchKey as unknown as Record<string, unknown>)[name] === "number";
}

/**
 * Registers, on `d`, the backend fallbacks PyTorch 1.13 has for our keys (as read by gen_dispatch.py):
 * fallthroughs stay fallthroughs, real fallbacks become boxed kernels that throw if they run.
 */
export function installPyTorchFallbacks(d: Dispatcher, fallbacks: { key: string; fallthrough: boolean }[]): void {
  for (const { key, fallthrough } of fallbacks) {
    if (!isOurKey(key)) continue;
    const kernel = fallthrough
      ? KernelFunction.makeFallthrough()
      : KernelFunction.makeFromBoxedFunction((op) => {
          throw new Error(`${key} fallback ran for ${op.operator_name()}`);
        });
    d.registerFallback(key, kernel, "pytorch:0");
  }
}

/** The fallthrough fallbacks PyTorch 1.13 registers for our keys (the layers a plain custom op passes through). */
export function installStandardFallthroughs(d: Dispatcher): void {
  const keys = ["BackendSelect", "ADInplaceOrView", "AutogradOther", "AutogradCPU", "AutogradCUDA", "AutocastCPU", "AutocastCUDA"];
  for (const key of keys) d.registerFallback(key, KernelFunction.makeFallthrough(), "pytorch:0");
}

/** Keeps only lines for our keys, list items for our keys, and hides 'registered at <place>'. */
export function normalizeDump(text: string): string {
  return text
    .split("\n")
    .filter((line) => {
      const m = /^(\w+)(\[alias\])?( \(inactive\))?: /.exec(line);
      return !m || ["name", "schema", "debug"].includes(m[1]) || isOurKey(m[1]);
    })
    .join("\n")
    .replace(/\[([A-Za-z0-9]+(?:, [A-Za-z0-9]+)*)\]/g, (whole, list: string) => {
      const items = list.split(", ");
      return items.every(isOurKey) || !items.some(isOurKey) ? whole : `[${items.filter(isOurKey).join(", ")}]`;
    })
    .replace(/DispatchKeySet\(([^)]*)\)/g, (_w, list: string) => `DispatchKeySet(${list.split(", ").filter(isOurKey).join(", ")})`)
    .replace(/registered at \S+?(?=[.,]?(?:\s|$))/g, "registered at <place>");
}

/** A dispatcher of its own for one test, so registrations never leak between tests. */
export function freshDispatcher(): Dispatcher {
  const d = new Dispatcher();
  d.warn = () => {};
  return d;
}
