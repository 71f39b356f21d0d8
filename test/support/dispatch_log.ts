// The TypeScript twin of test/fixtures/_common.py's DispatchLog: a TorchDispatchMode that records the aten
// ops a call reaches at the Python key, in order, with tensors as {t: sizes} and int lists as they are —
// the shape in which the fixtures store PyTorch's own log.
import * as torch from "../../engine/index.js";

export class DispatchLog extends torch.utils.TorchDispatchMode {
  calls: { op: string; args: unknown[] }[] = [];
  __torch_dispatch__(func: any, _types: readonly unknown[], args: unknown[], kwargs: Record<string, unknown>): unknown {
    const summary = (a: any): any => {
      if (a instanceof torch.Tensor) return { t: [...a.shape] };
      // Python's isinstance(x, int): integers and bools (output_mask), not floats (scale_factors)
      if (Array.isArray(a) && a.every((x) => (typeof x === "number" && Number.isInteger(x)) || typeof x === "boolean")) return [...a];
      if (Array.isArray(a) && a.length && a.every((x) => x instanceof torch.Tensor)) return a.map(summary);
      return null;
    };
    // "aten.mm.default" -> "aten::mm", "aten.transpose.int" -> "aten::transpose.int"
    const name = String(func).replace(/^aten\./, "aten::").replace(/\.default$/, "");
    this.calls.push({ op: name, args: args.map(summary).filter((x) => x !== null) });
    return func.call(...args, kwargs);
  }
}
