import { describe, it, expect } from "vitest";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { DispatchKey as K } from "../../engine/c10/DispatchKey.js";
import { DispatchKeySet } from "../../engine/c10/DispatchKeySet.js";
import {
  TraceRecorder,
  TRACE_SCHEMA_VERSION,
  formatTrace,
  parseJSONL,
  toChromeTrace,
  toChromeTraceJSON,
  toJSONL,
  jsonlListener,
  type ChromeTraceEvent,
} from "../../engine/trace/index.js";
import { addOp, autogradKernel, cpuKernel, dispatchAdd, dispatchMatmul, step, tensor } from "./fakes.js";

function sample(): TraceRecorder {
  const rec = new TraceRecorder({ callSites: false });
  rec.noteApiBinding("torch.add");
  dispatchAdd(rec, tensor([2, 3], { requiresGrad: true }), tensor([2, 3]), tensor([2, 3]));
  dispatchMatmul(rec, tensor([2, 3]), tensor([3, 4]), tensor([2, 4]));
  return rec;
}

describe("JSONL sink", () => {
  it("round-trips a trace: header first, one event per line", () => {
    const rec = sample();
    const text = toJSONL(rec.events(), rec.header());
    const lines = text.split("\n");
    expect(lines.length).toBe(rec.events().length + 2); // header + events + trailing ""
    expect(lines.at(-1)).toBe("");
    expect(JSON.parse(lines[0])).toMatchObject({ type: "header", schemaVersion: TRACE_SCHEMA_VERSION, engine: "glasstorch" });
    const back = parseJSONL(text);
    expect(back.events).toEqual(rec.events());
    expect(back.header).toEqual(JSON.parse(lines[0]));
  });

  it("refuses another schema version and reports a bad line by number", () => {
    expect(() => parseJSONL(`{"type":"header","schemaVersion":99}\n`)).toThrow("trace schema version 99 is not supported");
    expect(() => parseJSONL(`{"type":"call"}\n{oops\n`)).toThrow(/trace line 2 is not JSON/);
  });

  it("streams as a listener, producing the same text", () => {
    const rec = new TraceRecorder({ callSites: false });
    let out = "";
    rec.subscribe(jsonlListener((s) => (out += s)));
    dispatchAdd(rec, null, null, null);
    expect(out).toBe(toJSONL(rec.events()));
  });
});

describe("Chrome trace sink", () => {
  it("is valid JSON of 'X' slices with monotonic ts, and nested slices sit inside their parents", () => {
    const rec = sample();
    rec.emitKernel({ stub: "add_stub", impl: "native", capability: "AVX2", forced: false, dur: 0.5 });
    const parsed = JSON.parse(toChromeTraceJSON(rec.events(), rec.header())) as { traceEvents: ChromeTraceEvent[]; otherData: { schemaVersion: number } };
    expect(parsed.otherData.schemaVersion).toBe(1);
    const xs = parsed.traceEvents.filter((e) => e.ph !== "M");
    expect(xs.every((e) => e.ph === "X" && typeof e.ts === "number" && typeof e.dur === "number" && e.dur >= 0)).toBe(true);
    for (let i = 1; i < xs.length; i++) expect(xs[i].ts!).toBeGreaterThanOrEqual(xs[i - 1].ts!);
    // 2 calls + 1 nested call = 3 call slices; 2 + 1 + 2 = 5 step slices; 1 kernel slice
    expect(xs.filter((e) => e.cat === "call").map((e) => e.name)).toEqual(["aten::add.Tensor", "aten::matmul", "aten::mm"]);
    expect(xs.filter((e) => e.cat === "dispatch" || e.cat === "redispatch").length).toBe(5);
    expect(xs.filter((e) => e.cat === "kernel").map((e) => e.name)).toEqual(["add_stub (native:AVX2)"]);
    // well-formed nesting on the one track: every slice ends before or inside the enclosing one
    const open: ChromeTraceEvent[] = [];
    for (const e of xs) {
      while (open.length && e.ts! >= open.at(-1)!.ts! + open.at(-1)!.dur!) open.pop();
      if (open.length) expect(e.ts! + e.dur!).toBeLessThanOrEqual(open.at(-1)!.ts! + open.at(-1)!.dur! + 1e-9);
      open.push(e);
    }
    const mm = xs.find((e) => e.name === "aten::mm")!;
    const matmul = xs.find((e) => e.name === "aten::matmul")!;
    expect(mm.ts!).toBeGreaterThanOrEqual(matmul.ts!);
    expect(mm.ts! + mm.dur!).toBeLessThanOrEqual(matmul.ts! + matmul.dur!);
    expect(mm.args).toMatchObject({ parent: matmul.args!.id });
    const cpuStep = xs.find((e) => e.name === "CPU: add_Tensor_cpu")!;
    expect(cpuStep.args).toMatchObject({ key: "CPU", redispatch: true, kernel: { provenance: "kernel" } });
  });

  it("a call still open when the trace was taken ends at the trace's last timestamp", () => {
    const rec = new TraceRecorder({ callSites: false });
    rec.onDispatch(step(addOp, [], K.AutogradCPU, DispatchKeySet.of(K.CPU, K.AutogradCPU), autogradKernel));
    dispatchAdd(rec, null, null, null);
    const { traceEvents } = toChromeTrace(rec.events());
    const open = traceEvents.find((e) => e.cat === "call" && e.args?.unfinished)!;
    const last = Math.max(...traceEvents.filter((e) => e.ph === "X").map((e) => e.ts! + e.dur!));
    expect(open.ts! + open.dur!).toBeCloseTo(last, 2);
  });
});

describe("text sink (TORCH_SHOW_DISPATCH_TRACE style)", () => {
  it("level 1: calls and keys, one space of indent per open dispatch", () => {
    expect(formatTrace(sample().events(), 1)).toEqual([
      "[call] op=[aten::add.Tensor], key=[AutogradCPU]",
      " [redispatch] op=[aten::add.Tensor], key=[CPU]",
      "[call] op=[aten::matmul], key=[AutogradCPU]",
      " [call] op=[aten::mm], key=[AutogradCPU]",
      "  [redispatch] op=[aten::mm], key=[CPU]",
    ]);
  });

  it("level 2: + arguments, key sets and TLS", () => {
    const rec = new TraceRecorder({ callSites: false });
    dispatchAdd(rec, tensor([2, 3], { requiresGrad: true }), tensor([3]), tensor([2, 3]));
    expect(formatTrace(rec.events(), 2)).toEqual([
      "[call] op=[aten::add.Tensor], key=[AutogradCPU]",
      "  args=(self=Tensor[2, 3] float32 cpu requires_grad, other=Tensor[3] float32 cpu, alpha=1)",
      "  keyset=[CPU, AutogradCPU], tls_included=[BackendSelect, ADInplaceOrView], tls_excluded=[AutocastCPU, AutocastCUDA]",
      " [redispatch] op=[aten::add.Tensor], key=[CPU]",
      "   keyset=[CPU], mask=[CPU, CUDA, Meta, BackendSelect, Python, ADInplaceOrView]",
    ]);
  });

  it("level 3: + kernels, provenance, PyTorch files, call site and API", () => {
    const rec = new TraceRecorder();
    rec.noteApiBinding("torch.add");
    const id = rec.onDispatch(step(addOp, [], K.CPU, DispatchKeySet.of(K.CPU), cpuKernel)); // MARK-TEXT
    rec.emitKernel({ stub: "add_stub", impl: "ts", capability: "DEFAULT", forced: true, dur: 2 });
    rec.onReturn(id, null);
    const src = fileURLToPath(import.meta.url);
    const markLine = readFileSync(src, "utf8").split("\n").findIndex((l) => l.includes("MARK-TEXT") && l.includes("rec.onDispatch")) + 1;
    expect(formatTrace(rec.events(), 3)).toEqual([
      "[call] op=[aten::add.Tensor], key=[CPU]",
      "  args=()",
      "  keyset=[CPU], tls_included=[BackendSelect, ADInplaceOrView], tls_excluded=[AutocastCPU, AutocastCUDA]",
      "  kernel=add_Tensor_cpu [kernel] registered at engine/aten/cpu/BinaryOps.ts:20",
      "  pytorch=aten/src/ATen/native/BinaryOps.cpp",
      `  at=${src}:${markLine}:${"    const id = rec.".length + 1}, api=torch.add`,
      " [kernel] stub=add_stub, impl=ts, capability=DEFAULT, forced",
    ]);
  });

  it("level 4: + timings of every step and call, and errors at any level", () => {
    const rec = new TraceRecorder({ callSites: false });
    dispatchAdd(rec, null, null, null);
    const id = rec.onDispatch(step(addOp, [], K.CPU, DispatchKeySet.of(K.CPU), cpuKernel));
    rec.onReturn(id, undefined, new RangeError("bad size\nsecond line"));
    const l4 = formatTrace(rec.events(), 4).filter((l) => !l.startsWith("  ") || l.startsWith(" ["));
    expect(l4.filter((l) => /^\s*\[/.test(l)).map((l) => l.replace(/\d+\.\d{3}us/, "Tus"))).toEqual([
      "[call] op=[aten::add.Tensor], key=[AutogradCPU]",
      " [redispatch] op=[aten::add.Tensor], key=[CPU]",
      " [return] op=[aten::add.Tensor], key=[CPU], dur=Tus",
      "[return] op=[aten::add.Tensor], dur=Tus",
      "[call] op=[aten::add.Tensor], key=[CPU]",
      "[error] op=[aten::add.Tensor]: RangeError: bad size",
    ]);
    expect(formatTrace(rec.events(), 1).at(-1)).toBe("[error] op=[aten::add.Tensor]: RangeError: bad size");
  });
});
