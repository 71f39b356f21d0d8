// LoggingTensorMode (torch/testing/_internal/logging_tensor.py): a TorchDispatchMode that records
// every ATen call it sees, as `$2: f32[2, 3] = torch._ops.aten.add.Tensor($0, $1)`, and runs it.
// A ready example of __torch_dispatch__: what autograd and composite ops turn your code into.

import { TorchDispatchMode } from "./python_dispatch.js";
import type { OpOverload } from "./ops_namespace.js";
import { Tensor } from "./Tensor.js";

const shortDtype: Record<string, string> = {
  float32: "f32", float64: "f64", float16: "f16", bfloat16: "bf16", int8: "i8", uint8: "u8", int16: "i16", int32: "i32", int64: "i64", bool: "b8",
};

export class LoggingTensorMode extends TorchDispatchMode {
  readonly logs: string[] = [];
  private ids = new WeakMap<Tensor, number>();
  private next = 0;

  private name(t: Tensor): string {
    let id = this.ids.get(t);
    if (id === undefined) this.ids.set(t, (id = this.next++));
    return `$${id}`;
  }

  private fmt(v: unknown): string {
    if (v instanceof Tensor) return this.name(v);
    if (Array.isArray(v)) return `[${v.map((x) => this.fmt(x)).join(", ")}]`;
    if (v === null || v === undefined) return "None";
    if (typeof v === "boolean") return v ? "True" : "False";
    return String(v);
  }

  __torch_dispatch__(func: OpOverload, _types: readonly unknown[], args: unknown[], kwargs: Record<string, unknown>): unknown {
    for (const a of args) if (a instanceof Tensor) this.name(a); // inputs get their numbers first
    const out = func.call(...args, kwargs);
    const argText = [...args.map((a) => this.fmt(a)), ...Object.entries(kwargs).map(([k, v]) => `${k}=${this.fmt(v)}`)].join(", ");
    const lhs = out instanceof Tensor ? `${this.name(out)}: ${shortDtype[out.dtype.name]}[${out.shape.join(", ")}] = ` : "";
    this.logs.push(`${lhs}torch._ops.${func}(${argText})`);
    return out;
  }
}
