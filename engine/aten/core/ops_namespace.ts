// torch.ops (torch/_ops.py): every registered operator by name — torch.ops.aten.add.Tensor is one
// overload (an OpOverload, with _schema), torch.ops.aten.add the packet of all add overloads.
// Calling an overload binds positional arguments and a trailing options object by its schema.

import { Dispatcher, type OperatorHandle } from "../../dispatcher/index.js";
import type { FunctionSchema } from "../../dispatcher/schema/FunctionSchema.js";
import { defaultToJS } from "../../dispatcher/schema/FunctionSchema.js";
import { TypeError_, RuntimeError } from "../../c10/Errors.js";
import { isOptionsObject } from "./TensorOptions.js";
import { wrapped_scalar_tensor } from "./OpRegistration.js";

export class OpOverload {
  constructor(readonly _handle: OperatorHandle) {}

  get _schema(): FunctionSchema {
    return this._handle.schema() as FunctionSchema;
  }

  /** 'aten.add.Tensor', as Python prints an OpOverload. */
  toString(): string {
    const s = this._schema;
    return `${s.name.replace("::", ".")}.${s.overload_name || "default"}`;
  }

  /** Binds (args..., {kwargs}) to the schema, fills defaults, and dispatches. */
  call(...callArgs: unknown[]): unknown {
    const s = this._schema;
    const last = callArgs[callArgs.length - 1];
    const kwargs = callArgs.length && isOptionsObject(last) ? (callArgs.pop() as Record<string, unknown>) : {};
    const positional = s.arguments.filter((a) => !a.kwarg_only);
    if (callArgs.length > positional.length) {
      throw new TypeError_(`${this}() expected at most ${positional.length} argument(s) but received ${callArgs.length} argument(s). Declaration: ${s}`);
    }
    const bound = s.arguments.map((a, i) => {
      let v: unknown = i < callArgs.length && !a.kwarg_only ? callArgs[i] : kwargs[a.name];
      if (v === undefined) {
        if (a.default_value === null) throw new RuntimeError(`${this}() is missing value for argument '${a.name}'. Declaration: ${s}`);
        v = defaultToJS(a.default_value);
      }
      return a.type.toString() === "Tensor" ? wrapped_scalar_tensor(v) : v;
    });
    for (const k of Object.keys(kwargs)) {
      if (!s.arguments.some((a) => a.name === k)) throw new RuntimeError(`Unknown keyword argument '${k}' for operator '${this}'. Schema: ${s}`);
    }
    return Dispatcher.singleton().callBoxed(this._handle, bound);
  }
}

/** torch.ops.aten.add: the overloads of one name, by overload name ('default' for the empty one). */
function packet(ns: string, name: string): Record<string, OpOverload> | undefined {
  const d = Dispatcher.singleton();
  const found: Record<string, OpOverload> = {};
  for (const full of d.getAllOpNames()) {
    const dot = full.indexOf(".", full.indexOf("::") + 2);
    const base = dot < 0 ? full : full.slice(0, dot);
    if (base !== `${ns}::${name}`) continue;
    const handle = d.findOp(full);
    if (handle?.hasSchema()) found[dot < 0 ? "default" : full.slice(dot + 1)] = new OpOverload(handle);
  }
  return Object.keys(found).length ? found : undefined;
}

/** torch.ops.<namespace>.<name>.<overload>, looked up live so user ops appear as soon as they are defined. */
export const ops: Record<string, Record<string, Record<string, OpOverload>>> = new Proxy({} as never, {
  get(_t, ns: string | symbol) {
    if (typeof ns !== "string") return undefined;
    return new Proxy({} as never, {
      get(_t2, name: string | symbol) {
        if (typeof name !== "string") return undefined;
        const p = packet(ns, name);
        if (!p) throw new RuntimeError(`No such operator ${ns}::${name}`);
        return p;
      },
    });
  },
});
