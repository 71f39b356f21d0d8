// The Dispatch Table view's data: for one operator, each dispatch key with the kernel registered
// directly to it and the kernel the runtime table computed for it (with provenance), plus
// torch._C._dispatch_dump_table's text; and the ops x backends coverage list.

import { DispatchKey, dispatchKeyName, EndOfAliasKeys, isAliasDispatchKey } from "../../../engine/c10/DispatchKey.js";
import { DispatchKeySet } from "../../../engine/c10/DispatchKeySet.js";
import { Dispatcher, parseOperatorName, type OperatorHandle } from "../../../engine/dispatcher/index.js";
import type { AnnotatedKernel } from "../../../engine/dispatcher/index.js";
import type { DispatchTableResult, DispatchTableRow, OpListResult } from "../protocol.js";
import { parseOpName } from "./op_names.js";

/** Undefined, then every runtime key lowest priority first (the dumps' order), then the alias keys. */
function keysInOrder(): DispatchKey[] {
  const keys: DispatchKey[] = [DispatchKey.Undefined, ...DispatchKeySet.full()];
  for (let k = 0; k <= EndOfAliasKeys; k++) if (isAliasDispatchKey(k)) keys.push(k);
  return keys;
}

function kernelInfo(k: AnnotatedKernel, provenance: string): { name: string; provenance: string; location?: string } {
  const fallthrough = k.kernel.isFallthrough();
  return {
    name: k.name,
    provenance: fallthrough ? `fallthrough (${provenance})` : provenance,
    ...(k.registeredAt ? { location: k.registeredAt } : {}),
  };
}

export function findOperator(op: string): OperatorHandle {
  const name = parseOpName(op);
  const handle = Dispatcher.singleton().findOp(parseOperatorName(name.full));
  if (!handle) throw new Error(`unknown operator ${name.full}`);
  return handle;
}

export function dispatchTable(op: string): DispatchTableResult {
  const handle = findOperator(op);
  const entry = handle.entry;
  const rows: DispatchTableRow[] = [];
  for (const k of keysInOrder()) {
    const row: DispatchTableRow = { key: dispatchKeyName(k) };
    const direct = entry.getKernelForDispatchKey(k);
    if (direct) row.registered = kernelInfo(direct, "kernel");
    if (!isAliasDispatchKey(k)) {
      const [computed, provenance] = entry.computeDispatchTableEntryWithDebug(k);
      if (computed.kernel.isValid()) row.computed = kernelInfo(computed, provenance);
    }
    if (row.registered || row.computed) rows.push(row);
  }
  const name = handle.operator_name();
  return {
    op: name,
    schema: handle.hasSchema() ? handle.schema().toString() : "(none)",
    rows,
    dumpTable: Dispatcher.singleton()._dispatch_dump_table(name),
  };
}

/** The coverage columns: the backends, and the alias keys a kernel can be registered to for all of them. */
const COLUMNS: [string, DispatchKey][] = [
  ["CPU", DispatchKey.CPU],
  ["CUDA", DispatchKey.CUDA],
  ["Meta", DispatchKey.Meta],
  ["CompositeExplicitAutograd", DispatchKey.CompositeExplicitAutograd],
  ["CompositeExplicitAutogradNonFunctional", DispatchKey.CompositeExplicitAutogradNonFunctional],
  ["CompositeImplicitAutograd", DispatchKey.CompositeImplicitAutograd],
];

/** Every operator with the columns it has a kernel registered to, and whether autograd has a kernel for it. */
export function opList(): OpListResult {
  const ops = Dispatcher.singleton()
    .allOperators()
    .map((h) => {
      const e = h.entry;
      const backends = COLUMNS.filter(([, k]) => e.hasKernelForDispatchKey(k)).map(([n]) => n);
      // A derivative formula (the Autograd kernel) or a decomposition autograd goes through: not the fallback.
      const [ag, agProv] = e.computeDispatchTableEntryWithDebug(DispatchKey.AutogradCPU);
      const hasAutograd = ag.kernel.isValid() && !ag.kernel.isFallthrough() && agProv !== "backend fallback";
      return { name: e.name_.name, overload: e.name_.overload_name, backends, hasAutograd };
    })
    .sort((a, b) => (a.name === b.name ? a.overload.localeCompare(b.overload) : a.name.localeCompare(b.name)));
  return { ops, backends: COLUMNS.map(([n]) => n) };
}
