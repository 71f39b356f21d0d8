// The dumps and error texts, compared with what real PyTorch 1.13 prints for the same registrations
// (test/fixtures/gen_dispatch.py). Only keys Glasstorch has are compared; 'registered at <place>' is hidden.
import { describe, it, expect } from "vitest";
import { BackendComponent } from "../../engine/c10/DispatchKey.js";
import { tensorKeySetFor } from "../../engine/c10/DispatchKeySet.js";
import { KernelFunction } from "../../engine/dispatcher/index.js";
import { loadFixture } from "../support/fixtures.js";
import {
  cpuTensor,
  freshDispatcher,
  installPyTorchFallbacks,
  metaTensor,
  normalizeDump,
  schema,
  tensorWith,
} from "./helpers.js";

interface Fixture {
  spec: Record<string, { schema: string; impls: [string, string][] }>;
  ops: Record<string, { dump: string; table: string }>;
  fallbacks: { key: string; fallthrough: boolean }[];
  errors: Record<string, { error: string; message: string }>;
  duplicate_def: { error: string; message: string };
  duplicate_fallback: { error: string; message: string };
  multi_ran: string[];
  stale_autograd_cpu_ran: string[];
}
const fx = loadFixture<Fixture>("dispatch.json");

/** Repeats gen_dispatch.py's registrations on a fresh dispatcher (Python kernels are boxed there). */
function pytorchLikeDispatcher() {
  const d = freshDispatcher();
  installPyTorchFallbacks(d, fx.fallbacks);
  for (const [name, { schema: text, impls }] of Object.entries(fx.spec)) {
    d.registerDef(schema(text), "/dev/null:16");
    for (const [key, tag] of impls) {
      const kernel = KernelFunction.makeFromBoxedFunction(() => tag);
      d.registerImpl(`mytest::${name}`, key, kernel, "/dev/null:16");
    }
  }
  return d;
}

describe("dumps match PyTorch 1.13", () => {
  const d = pytorchLikeDispatcher();
  for (const name of Object.keys(fx.spec)) {
    it(`_dispatch_dump('mytest::${name}')`, () => {
      expect(normalizeDump(d._dispatch_dump(`mytest::${name}`))).toBe(normalizeDump(fx.ops[name].dump));
    });
    it(`_dispatch_dump_table('mytest::${name}')`, () => {
      expect(normalizeDump(d._dispatch_dump_table(`mytest::${name}`))).toBe(normalizeDump(fx.ops[name].table));
    });
  }

  it("the comparison is not vacuous: the CIA table has rows for every key we model", () => {
    const rows = normalizeDump(fx.ops.cia.table).trim().split("\n");
    expect(rows[0]).toBe("Undefined: registered at <place> [math kernel]");
    expect(rows).toContain("AutogradOther: registered at <place> [math kernel]");
    expect(rows).toContain("FPGA: registered at <place> [math kernel]");
    expect(rows).toContain("PythonDispatcher: registered at <place> [backend fallback]");
    expect(rows.length).toBe(16);
  });

  it("the newest of two kernels on one key runs, as in PyTorch", () => {
    expect(d.call(d.findOp("mytest::multi")!, cpuTensor())).toBe(fx.multi_ran[0]);
  });

  it("deliberate difference: after CIA then CEA, PyTorch's AutogradCPU slot is stale; ours follows the dump", () => {
    expect(fx.stale_autograd_cpu_ran).toEqual(["cia"]); // PyTorch ran the math kernel...
    expect(normalizeDump(fx.ops.cea_cia.table)).toContain("AutogradCPU: fallthrough registered at <place> [backend fallback]"); // ...its dump says otherwise
    expect(d.call(d.findOp("mytest::cea_cia")!, cpuTensor())).toBe("cea");
  });

  it("an unknown operator dumps as ''", () => {
    expect(d._dispatch_dump("mytest::nope")).toBe("");
    expect(d._dispatch_dump_table("mytest::nope")).toBe("");
  });
});

describe("missing-kernel errors match PyTorch 1.13", () => {
  const d = pytorchLikeDispatcher();
  const run = (f: () => unknown) => {
    try {
      f();
    } catch (e) {
      return { error: (e as Error).name, message: normalizeDump((e as Error).message) };
    }
    throw new Error("expected an error");
  };
  const expected = (k: string) => ({ error: fx.errors[k].error, message: normalizeDump(fx.errors[k].message) });

  it("a meta tensor reaches AutogradMeta, which 1.13 leaves without a fallback", () => {
    const op = d.findOp("mytest::cpu_only")!;
    expect(run(() => d.call(op, metaTensor()))).toEqual(expected("autograd_meta"));
  });
  it("an inference-mode meta tensor reaches Meta", () => {
    const op = d.findOp("mytest::cpu_only")!;
    const meta = tensorWith(tensorKeySetFor(BackendComponent.MetaBit, true));
    expect(run(() => d.call(op, meta))).toEqual(expected("meta"));
  });
  it("no tensor arguments reach Undefined", () => {
    const op = d.findOp("mytest::noargs")!;
    expect(run(() => d.call(op, 3))).toEqual(expected("noargs_undefined"));
  });
  it("an empty Tensor[] and null tensors reach Undefined too", () => {
    const op = d.findOp("mytest::ov.Tensor")!;
    expect(run(() => d.call(op, null, null, [], 1))).toEqual(expected("empty_list_undefined"));
  });
  it("the error is a NotImplementedError naming the op", () => {
    const op = d.findOp("mytest::cpu_only")!;
    try {
      d.call(op, metaTensor());
    } catch (e) {
      expect((e as Error).name).toBe("NotImplementedError");
      expect((e as { op?: string }).op).toBe("mytest::cpu_only");
    }
    expect(d.call(op, cpuTensor())).toBe("cpu");
  });

  it("duplicate def and duplicate fallback raise PyTorch's texts", () => {
    expect(run(() => d.registerDef(schema("mytest::cpu_only(Tensor x) -> Tensor"), "/dev/null:0"))).toEqual({
      error: fx.duplicate_def.error,
      message: normalizeDump(fx.duplicate_def.message),
    });
    expect(run(() => d.registerFallback("AutogradCPU", KernelFunction.makeFallthrough(), "/dev/null:0"))).toEqual({
      error: fx.duplicate_fallback.error,
      message: normalizeDump(fx.duplicate_fallback.message),
    });
  });
});
