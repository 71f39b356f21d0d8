// Binding a JavaScript call to a Python function's parameters (a `def` in torch/nn/functional.py or a
// module's __init__): positional arguments first, keyword arguments as a final plain options object,
// defaults filled in, with Python's TypeError texts for an unknown keyword, a repeated argument or a
// missing one. The one binder torch.nn.functional and torch.nn's modules share.

import { TypeError_ } from "../c10/Errors.js";
import { isOptionsObject } from "../aten/core/TensorOptions.js";

export type Params = readonly (readonly [name: string, default_: unknown] | readonly [name: string])[];

/** The arguments by parameter name; `params` in order, [name] alone for a required one. */
export function bindArgs(fn: string, callArgs: readonly unknown[], params: Params): Record<string, any> {
  const last = callArgs[callArgs.length - 1];
  const hasKw = callArgs.length > 0 && isOptionsObject(last);
  const args = hasKw ? callArgs.slice(0, -1) : [...callArgs];
  const kwargs = (hasKw ? last : {}) as Record<string, unknown>;
  const required = params.filter((p) => p.length === 1).length;
  if (args.length > params.length) {
    const range = required === params.length ? `${params.length}` : `from ${required} to ${params.length}`;
    throw new TypeError_(`${fn}() takes ${range} positional arguments but ${args.length} were given`);
  }
  const out: Record<string, any> = {};
  params.forEach((p, i) => {
    if (i < args.length) out[p[0]] = args[i];
  });
  for (const [k, v] of Object.entries(kwargs)) {
    if (v === undefined) continue;
    if (!params.some((p) => p[0] === k)) throw new TypeError_(`${fn}() got an unexpected keyword argument '${k}'`);
    if (k in out) throw new TypeError_(`${fn}() got multiple values for argument '${k}'`);
    out[k] = v;
  }
  const missing = params.filter((p) => p.length === 1 && !(p[0] in out)).map((p) => `'${p[0]}'`);
  if (missing.length) {
    const names = missing.length === 1 ? missing[0] : `${missing.slice(0, -1).join(", ")} and ${missing[missing.length - 1]}`;
    throw new TypeError_(`${fn}() missing ${missing.length} required positional argument${missing.length > 1 ? "s" : ""}: ${names}`);
  }
  for (const p of params) if (!(p[0] in out) && p.length === 2) out[p[0]] = p[1];
  return out;
}
