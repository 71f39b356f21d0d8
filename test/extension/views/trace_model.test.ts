// The Dispatch Trace view's tree, built from a trace the engine host recorded
// (fixtures/trace_mul_sum_backward.json: (a.mul(b)).sum() then y.backward(); record_fixtures.ts).

import { readdirSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import type { TraceEvent } from "../../../engine/trace/events.js";
import { repeatedTrace } from "./repeated_trace.js";
import { buildRunTree, flattenSteps, pathTo, RunTreeBuilder, stepFrom, type TraceNode } from "../../../extension/src/views/trace/trace_model.js";

const fixture = JSON.parse(readFileSync(resolve(import.meta.dirname, "fixtures/trace_mul_sum_backward.json"), "utf8")) as { events: TraceEvent[] };
const run = { key: "r1", title: "Cell 1", cellUri: "vscode-notebook-cell:/work/scratch.nb.ts#W0" };

const labels = (n: TraceNode) => n.children.map((c) => c.label);
const find = (root: TraceNode, pred: (n: TraceNode) => boolean) => flattenSteps([root]).filter(pred);

describe("trace -> tree", () => {
  const tree = buildRunTree(run, fixture.events);

  it("lists the top-level calls and backward Nodes in the order they ran", () => {
    expect(tree.kind).toBe("run");
    expect(labels(tree)).toEqual([
      "aten::mul.Tensor",
      "aten::sum",
      "aten::ones_like",
      "backward: SumBackward0",
      "backward: MulBackward0",
      "backward: AccumulateGrad",
      "backward: AccumulateGrad",
    ]);
    expect(tree.description).toBe("11 calls, 60 events");
  });

  it("gives a call the user's line, the binding, the key set computation and each dispatch step", () => {
    const mul = tree.children[0];
    expect(mul.source).toEqual({ kind: "cell", uri: run.cellUri, line: 4, column: 14 });
    expect(labels(mul)).toEqual([
      "line 4, column 14",
      "binding Tensor.mul",
      "key set -> AutogradCPU",
      "AutogradCPU -> VariableType::mul_Tensor",
      "CPU -> native.mul_out",
      "returned float32[3] MulBackward0",
    ]);
    const keys = mul.children[2];
    expect(labels(keys)).toEqual([
      "self: CPU, ADInplaceOrView, AutogradCPU, AutocastCPU",
      "other: CPU, ADInplaceOrView, AutogradCPU, AutocastCPU",
      "TLS include: BackendSelect, ADInplaceOrView",
      "TLS exclude: AutocastCPU, AutocastCUDA",
      "key set: CPU, AutogradCPU",
    ]);
    const autograd = mul.children[3];
    expect(autograd.key).toBe("AutogradCPU");
    expect(autograd.source).toEqual({ kind: "engine", file: "engine/generated/VariableType.ts", line: 72 });
    expect(autograd.description).toBe("autograd kernel · VariableType_*.cpp");
    expect(labels(autograd)).toEqual(["created MulBackward0"]);
    const cpu = mul.children[4];
    expect(cpu.description).toBe("redispatch · kernel · BinaryOps.cpp");
    expect(labels(cpu)).toEqual(["key set: CPU", "mul_stub -> ts DEFAULT"]);
    expect(cpu.children[1].pytorchRef).toBe("aten/src/ATen/native/cpu/BinaryOpsKernel.cpp");
    // The stub's row opens the kernel the engine registered for it.
    expect(cpu.children[1].source).toEqual({ kind: "search", dir: "engine/aten/native", needle: 'mul_stub.register("ts"', line: 1 });
  });

  it("points every DispatchStub row at a registration that exists in the engine's kernels", () => {
    const files = readdirSync(resolve(import.meta.dirname, "../../../engine/aten/native"), { recursive: true, encoding: "utf8" }).filter((f) => f.endsWith(".ts"));
    const sources = files.map((f) => readFileSync(resolve(import.meta.dirname, "../../../engine/aten/native", f), "utf8")).join("\n");
    const stubs = find(tree, (n) => n.kind === "stub");
    expect(stubs.length).toBe(3);
    for (const s of stubs) expect(sources).toContain((s.source as { needle: string }).needle);
  });

  it("nests a composite's calls under the step whose kernel made them", () => {
    const sum = tree.children[1];
    const cpuStep = sum.children.find((c) => c.label === "CPU -> native.sum")!;
    expect(labels(cpuStep)).toEqual(["key set: CPU", "aten::sum.dim_IntList"]);
    const onesLike = tree.children[2];
    const inner = onesLike.children.find((c) => c.kind === "step" && c.key === "CPU")!;
    expect(labels(inner)).toEqual(["key set: CPU", "aten::empty_like", "aten::fill_.Scalar"]);
    // y is 0-d, so is ones_like(y) for backward's root gradient.
    expect(labels(inner.children[1]).at(-1)).toBe("returned float32[]");
    // A nested call has no "line" row of its own: the user's line is its top-level ancestor's.
    expect(inner.children[1].children.some((c) => c.kind === "line")).toBe(false);
  });

  it("puts the calls a backward formula made, and AccumulateGrad's writes, under the Node that ran", () => {
    // SumBackward0's formula grad.expand(self_sym_sizes); MulBackward0's two mul_tensor_backward products.
    expect(labels(tree.children[3])).toEqual(["aten::expand"]);
    expect(labels(tree.children[4])).toEqual(["aten::mul.Tensor", "aten::mul.Tensor"]);
    expect(tree.children[4].children[0].children.some((c) => c.kind === "line")).toBe(true);
    const acc = tree.children[5];
    expect(labels(acc)).toEqual(["set .grad"]);
    expect(acc.children[0].description).toContain("float32[3]");
  });

  it("names PyTorch's file for every dispatch step", () => {
    const steps = find(tree, (n) => n.kind === "step");
    expect(steps.length).toBe(fixture.events.filter((e) => e.type === "dispatch").length);
    for (const s of steps) expect(s.pytorchRef, s.label).toBeTruthy();
  });

  it("reports dropped events and keeps ids unique", () => {
    const cut = buildRunTree({ ...run, dropped: 12 }, fixture.events.slice(12));
    expect(cut.children[0].label).toBe("12 earlier events dropped (trace limit)");
    const ids = flattenSteps([cut]).map((n) => n.id);
    expect(new Set(ids).size).toBe(ids.length);
  });
});

describe("a tree built as batches arrive", () => {
  it("is the one-shot tree once every batch is in, however often it was redrawn in between", () => {
    const shape = (n: TraceNode): unknown => [n.id, n.label, n.description, n.children.map(shape)];
    const builder = new RunTreeBuilder(run);
    const partial: number[] = [];
    for (let i = 0; i < fixture.events.length; i += 7) {
      builder.add(fixture.events.slice(i, i + 7));
      partial.push(builder.tree().children.length); // a redraw mid-run
    }
    expect(shape(builder.tree())).toEqual(shape(buildRunTree(run, fixture.events)));
    expect(partial.at(-1)).toBe(7);
  });
});

describe("big traces", () => {
  const repeated = (times: number) => repeatedTrace(fixture.events, times);

  // The time is printed for reading, not asserted: speed belongs in bench/, not in a timed test.
  for (const times of [160, 1600]) {
    it(`builds the tree of a ${times * 60}-event run`, () => {
      const events = repeated(times);
      const t0 = performance.now();
      const tree = buildRunTree(run, events);
      const ms = performance.now() - t0;
      console.log(`trace timing: ${events.length} events -> ${flattenSteps([tree]).length} rows in ${ms.toFixed(0)} ms`);
      expect(tree.children.filter((c) => c.kind === "autograd.exec")).toHaveLength(4 * times);
      expect(tree.children.filter((c) => c.label === "backward: MulBackward0").every((c) => c.children.length === 2)).toBe(true);
    }, 60_000);
  }
});

describe("stepping", () => {
  const tree = buildRunTree(run, fixture.events);
  const order = flattenSteps([tree]);

  it("walks rows that open a source, in display order, both ways", () => {
    const first = stepFrom(order, undefined, 1)!;
    expect(first.id).toBe("r1");
    const a = stepFrom(order, first.id, 1)!;
    expect(a.label).toBe("aten::mul.Tensor");
    const b = stepFrom(order, a.id, 1)!;
    expect(b.label).toBe("line 4, column 14");
    const c = stepFrom(order, b.id, 1)!;
    expect(c.label).toBe("binding Tensor.mul");
    const d = stepFrom(order, c.id, 1)!;
    expect(d.label).toBe("key set -> AutogradCPU");
    expect(stepFrom(order, d.id, -1)!.id).toBe(c.id);
    expect(stepFrom(order, first.id, -1)).toBeUndefined();
    const last = stepFrom(order, undefined, -1)!;
    expect(stepFrom(order, last.id, 1)).toBeUndefined();
  });

  it("finds the path to a row for reveal", () => {
    const stub = order.find((n) => n.kind === "stub")!;
    expect(pathTo([tree], stub.id).map((n) => n.label)).toEqual(["Cell 1", "aten::mul.Tensor", "CPU -> native.mul_out", "mul_stub -> ts DEFAULT"]);
  });
});
