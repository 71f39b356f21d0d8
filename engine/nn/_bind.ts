// Binding a JavaScript call to a Python function's parameters (a `def` in torch/nn/functional.py or a
// module's __init__): positional arguments first, keyword arguments as a final plain options object,
// defaults filled in, with Python's TypeError texts for an unknown keyword, a repeated argument or a
// missing one. The one binder torch.nn.functional and torch.nn's modules share.

import { TypeError_ } from "../c10/Errors.js";
import { isOptionsObject } from "../aten/core/TensorOptions.js";

export type Params = readonly (readonly [name: string, default_: unknown] | readonly [name: string])[];

/** The arguments by parameter name; `params` in order, [name] alone for a required one. */
export function bindArgs(fn: string, callArgs: readonly unknown[], params: Params): Record<string, any> {
  // plain loops, no intermediate arrays: every module forward and functional call binds its arguments here
  const n = callArgs.length;
  const hasKw = n > 0 && isOptionsObject(callArgs[n - 1]);
  const npos = hasKw ? n - 1 : n;
  if (npos > params.length) {
    let required = 0;
    for (const p of params) if (p.length === 1) required++;
    // CPython's words: "takes 1 positional argument", "but 1 was given"
    const range = required === params.length ? `${params.length} positional argument${params.length === 1 ? "" : "s"}` : `from ${required} to ${params.length} positional arguments`;
    throw new TypeError_(`${fn}() takes ${range} but ${npos} ${npos === 1 ? "was" : "were"} given`);
  }
  const out: Record<string, any> = {};
  for (let i = 0; i < npos; i++) out[params[i][0]] = callArgs[i];
  if (hasKw) {
    const kwargs = callArgs[n - 1] as Record<string, unknown>;
    for (const k of Object.keys(kwargs)) {
      const v = kwargs[k];
      if (v === undefined) continue;
      let known = false;
      for (const p of params) if (p[0] === k) { known = true; break; }
      if (!known) throw new TypeError_(`${fn}() got an unexpected keyword argument '${k}'`);
      if (k in out) throw new TypeError_(`${fn}() got multiple values for argument '${k}'`);
      out[k] = v;
    }
  }
  let missing: string[] | null = null;
  for (const p of params) {
    if (p[0] in out) continue;
    if (p.length === 2) out[p[0]] = p[1];
    else (missing ??= []).push(`'${p[0]}'`);
  }
  if (missing !== null) {
    const names = missing.length === 1 ? missing[0] : `${missing.slice(0, -1).join(", ")} and ${missing[missing.length - 1]}`;
    throw new TypeError_(`${fn}() missing ${missing.length} required positional argument${missing.length > 1 ? "s" : ""}: ${names}`);
  }
  return out;
}
