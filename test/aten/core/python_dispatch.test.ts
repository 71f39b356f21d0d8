// TorchDispatchMode: __torch_dispatch__ sees every ATen call at the Python key, below autograd.
import { describe, it, expect } from "vitest";
import * as torch from "../../../engine/index.js";
import { tls_local_dispatch_key_set } from "../../../engine/c10/impl/LocalDispatchKeySet.js";

describe("TorchDispatchMode", () => {
  it("LoggingTensorMode logs each call with its overload, arguments and non-default kwargs", () => {
    const a = torch.ones(2, 3), b = torch.ones(3);
    const mode = new torch.testing.LoggingTensorMode();
    {
      using _m = mode.enter();
      torch.sum(a.add(b, { alpha: 2 }).mul(2));
    }
    expect(mode.logs).toEqual([
      "$2: f32[2, 3] = torch._ops.aten.add.Tensor($0, $1, alpha=2)",
      // the number 2 reached the op as a wrapped 0-dim tensor ($3), as PyTorch's binding makes it
      "$4: f32[2, 3] = torch._ops.aten.mul.Tensor($2, $3)",
      "$5: f32[] = torch._ops.aten.sum.default($4)",
    ]);
  });

  it("a mode can change what an op returns", () => {
    class AddIsMul extends torch.utils.TorchDispatchMode {
      __torch_dispatch__(func: any, _types: readonly unknown[], args: unknown[], kwargs: Record<string, unknown>): unknown {
        if (String(func) === "aten.add.Tensor") return torch.ops.aten.mul.Tensor.call(args[0], args[1]);
        return func.call(...args, kwargs);
      }
    }
    const x = torch.tensor([2, 3], { dtype: torch.float32 });
    using _m = new AddIsMul().enter();
    expect(torch.add(x, x).tolist()).toEqual([4, 9]);
  });

  it("the Python keys are in the TLS include set exactly while a mode is active", () => {
    const has = () => tls_local_dispatch_key_set().included_.toString();
    expect(has()).not.toContain("Python");
    const m = new torch.testing.LoggingTensorMode().enter();
    expect(has()).toContain("Python");
    expect(has()).toContain("PythonTLSSnapshot");
    m.exit();
    expect(has()).not.toContain("Python");
  });

  it("the trace shows PythonTLSSnapshot, autograd, then the Python key and the mode's own call", () => {
    const a = torch.ones(2, { requires_grad: true });
    const { events } = torch.trace.record(() => {
      using _m = new torch.testing.LoggingTensorMode().enter();
      return a.add(a);
    });
    const keys = events.filter((e: any) => e.type === "dispatch").map((e: any) => e.key);
    // the mode's own call runs inside the autograd kernel's AutoDispatchBelowADInplaceOrView: straight to CPU
    expect(keys).toEqual(["PythonTLSSnapshot", "AutogradCPU", "Python", "CPU"]);
  });
});
