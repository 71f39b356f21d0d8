// The engine host's answers to the views: trace events of a run, the backward graph, the tensor
// inspector, the dispatch table of aten::add.Tensor, the op list and the generated code of
// aten::mul.Tensor.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as torch from "../../../engine/index.js";
import {
  DispatchTable,
  GeneratedCode,
  GraphGet,
  OpList,
  TensorInspect,
  UpdateSettings,
  type TensorOutput,
} from "../../../extension/host/protocol.js";
import type { TraceEvent } from "../../../engine/trace/events.js";
import { cellUri, defaultSettings, HostClient, until } from "../../support/host_client.js";

let host: HostClient;
beforeAll(async () => {
  host = HostClient.start();
  await host.initialize({ tracing: true, traceLimit: 10_000 });
}, 30_000);
afterAll(() => host?.dispose());

const handleOf = (v: unknown) => (v as TensorOutput).handle;

describe("engine host: tracing", () => {
  it("streams the trace events of (a*b).sum().backward(), with call sites in the cell", async () => {
    const code = 'import * as torch from "glasstorch";\nconst a = torch.tensor([1, 2, 3], { dtype: torch.float32, requires_grad: true });\nconst b = torch.tensor([4, 5, 6], { dtype: torch.float32, requires_grad: true });\nconst c = a.mul(b);\nc.sum().backward();';
    const r = host.run(code, 0);
    const result = await r;
    expect(result.status).toBe("ok");
    await until(() => host.traces.filter((t) => t.runId === r.runId).reduce((n, t) => n + t.events.length, 0) === result.traceEvents, 2000, "trace events");
    const events: TraceEvent[] = host.traces.filter((t) => t.runId === r.runId).flatMap((t) => t.events);
    expect(result.traceEvents).toBeGreaterThan(10);
    const calls = events.filter((e) => e.type === "call" && e.depth === 0) as Extract<TraceEvent, { type: "call" }>[];
    const mul = calls.find((e) => e.op === "aten::mul");
    expect(mul?.callSite).toEqual({ file: cellUri(0), line: 4, column: expect.any(Number) });
    expect(calls.map((c) => c.op)).toEqual(expect.arrayContaining(["aten::mul", "aten::sum"]));
    const autograd = events.filter((e) => e.type.startsWith("autograd."));
    expect(autograd.some((e) => e.type === "autograd.exec" && (e as { node: { name: string } }).node.name === "MulBackward0")).toBe(true);
    expect(autograd.filter((e) => e.type === "autograd.accumulate").length).toBe(2);
  });

  it("keeps at most traceLimit events per run and says how many it dropped", async () => {
    void host.connection.sendNotification(UpdateSettings, { ...defaultSettings, tracing: true, traceLimit: 5 });
    const r = host.run("for (let i = 0; i < 20; i++) a.add(1);", 1);
    const result = await r;
    expect(result.traceEvents).toBe(5);
    await until(() => host.traces.some((t) => t.runId === r.runId && t.dropped > 0), 2000, "dropped count");
    const batches = host.traces.filter((t) => t.runId === r.runId);
    expect(batches.flatMap((b) => b.events).length).toBe(5);
    expect(batches[batches.length - 1].dropped).toBeGreaterThan(20);
    void host.connection.sendNotification(UpdateSettings, { ...defaultSettings, tracing: false });
    const off = await host.run("a.add(1);", 2);
    expect(off.traceEvents).toBe(0);
  });
});

describe("engine host: views", () => {
  it("gives the backward graph of a*b with saved tensors, formulas and the leaves' .grad", async () => {
    const r = await host.run("const x = torch.tensor([1.5, 2], { requires_grad: true });\nconst y = torch.tensor([3, 4], { dtype: torch.float32, requires_grad: true });\nconst z = x.mul(y);\nz", 3);
    const before = await host.connection.sendRequest(GraphGet, { handle: handleOf(r.value), maxNodes: 100 });
    expect(before.nodes.map((n) => n.name)).toEqual(["MulBackward0", "AccumulateGrad", "AccumulateGrad"]);
    const mul = before.nodes[0];
    expect(before.root).toBe(mul.id);
    expect(mul.saved).toEqual([
      { name: "self", shape: [2], dtype: "torch.float32", version: 0 },
      { name: "other", shape: [2], dtype: "torch.float32", version: 0 },
    ]);
    expect(mul.formula).toContain("self: mul_tensor_backward(grad, other, self_scalar_type)");
    expect(before.edges).toEqual([
      { from: mul.id, to: before.nodes[1].id, input_nr: 0 },
      { from: mul.id, to: before.nodes[2].id, input_nr: 0 },
    ]);
    expect(before.nodes[1].variable).toMatchObject({ shape: [2], dtype: "torch.float32" });
    expect(before.nodes[1].variable!.grad).toBeUndefined();

    await host.run("z.sum().backward();", 4);
    const after = await host.connection.sendRequest(GraphGet, { handle: handleOf(r.value), maxNodes: 100 });
    expect(after.nodes[0].id).toBe(mul.id); // ids are stable
    expect(after.nodes[1].variable!.grad!.repr).toBe(String(torch.tensor([3, 4], { dtype: torch.float32 })));
    expect(after.nodes[2].variable!.grad!.repr).toBe("tensor([1.5000, 2.0000])");

    const cut = await host.connection.sendRequest(GraphGet, { handle: handleOf(r.value), maxNodes: 1 });
    expect(cut).toMatchObject({ truncated: true, edges: [] });
    expect(cut.nodes.length).toBe(1);
  });

  it("gives each graph Node the cell line of the forward call that made it (tracing on, or anomaly mode)", async () => {
    void host.connection.sendNotification(UpdateSettings, { ...defaultSettings, tracing: true });
    const code = "const u = torch.ones(3, { requires_grad: true });\nconst v = u.mul(2);\n\nconst w = v.exp().sum();\nw";
    const r = await host.run(code, 20);
    const g = await host.connection.sendRequest(GraphGet, { handle: handleOf(r.value), maxNodes: 100 });
    const site = (name: string) => g.nodes.find((n) => n.name === name)?.callSite;
    expect(site("SumBackward0")).toMatch(new RegExp(`^${cellUri(20).replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}:4:\\d+$`));
    expect(site("ExpBackward0")).toMatch(/:4:\d+$/);
    expect(site("MulBackward0")).toMatch(/:2:\d+$/);
    expect(site("AccumulateGrad")).toBeUndefined(); // a leaf's accumulator is made by backward, not by a call
    // Tracing off: only anomaly mode records where a Node was made.
    void host.connection.sendNotification(UpdateSettings, { ...defaultSettings, tracing: false });
    const off = await host.run("u.mul(3)", 21);
    expect((await host.connection.sendRequest(GraphGet, { handle: handleOf(off.value), maxNodes: 10 })).nodes[0].callSite).toBeUndefined();
    const anomaly = await host.run("torch.autograd.set_detect_anomaly(true);\nconst q = u.mul(4);\ntorch.autograd.set_detect_anomaly(false);\nq", 22);
    const n = (await host.connection.sendRequest(GraphGet, { handle: handleOf(anomaly.value), maxNodes: 10 })).nodes[0];
    expect(n.name).toBe("MulBackward0");
    expect(n.callSite).toMatch(/:2:\d+$/);
  });

  it("inspects a view: strides, offset, shared storage, version and its base", async () => {
    const r = await host.run("const base = torch.zeros(3, 4);\nconst v = base.t().narrow(0, 1, 2);\nbase.add_(1);\nv", 5);
    const info = await host.connection.sendRequest(TensorInspect, { handle: handleOf(r.value) });
    expect(info).toMatchObject({ shape: [2, 3], strides: [1, 4], storage_offset: 1, is_contiguous: false, version: 1, is_leaf: true, requires_grad: false });
    expect(info.storage.nbytes).toBe(48);
    expect(info.base).toBeDefined();
    const base = await host.connection.sendRequest(TensorInspect, { handle: info.base! });
    expect(base).toMatchObject({ shape: [3, 4], strides: [4, 1], storage: info.storage });
    await expect(host.connection.sendRequest(TensorInspect, { handle: 987654 })).rejects.toThrow(/no tensor with handle 987654/);
  });

  it("gives the dispatch table of aten::add.Tensor with provenance, and _dispatch_dump_table's text", async () => {
    const t = await host.connection.sendRequest(DispatchTable, { op: "add.Tensor" });
    expect(t.op).toBe("aten::add.Tensor");
    expect(t.schema).toBe("aten::add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor");
    expect(t.dumpTable).toBe(torch._C._dispatch_dump_table("aten::add.Tensor"));
    const row = (k: string) => t.rows.find((r) => r.key === k);
    expect(row("CPU")).toMatchObject({ registered: { provenance: "kernel" }, computed: { provenance: "kernel" } });
    expect(row("AutogradCPU")?.computed).toMatchObject({ provenance: "autograd kernel" });
    expect(row("Autograd")?.registered).toBeDefined(); // the alias key the Autograd kernel is registered to
    expect(row("ADInplaceOrView")?.computed?.provenance).toMatch(/fallthrough/);
    // Every computed row is a line of the dump, in the same order.
    const dumpKeys = t.dumpTable.trim().split("\n").map((l) => l.slice(0, l.indexOf(":")));
    expect(t.rows.filter((r) => r.computed).map((r) => r.key)).toEqual(dumpKeys);
    await expect(host.connection.sendRequest(DispatchTable, { op: "aten::no_such_op" })).rejects.toThrow(/unknown operator aten::no_such_op/);
  });

  it("lists the operators with the keys they have kernels for", async () => {
    const list = await host.connection.sendRequest(OpList);
    expect(list.backends).toContain("CPU");
    const mm = list.ops.find((o) => o.name === "aten::mm" && o.overload === "");
    expect(mm).toMatchObject({ hasAutograd: true });
    expect(mm!.backends).toEqual(expect.arrayContaining(["CPU", "Meta"]));
    expect(list.ops.length).toBeGreaterThan(300);
  });

  it("gives the generated code of aten::mul.Tensor: yaml, binding, registrations, Autograd kernel, Node class, derivative", async () => {
    const g = await host.connection.sendRequest(GeneratedCode, { op: "aten::mul.Tensor" });
    expect(g.op).toBe("aten::mul.Tensor");
    const titles = g.sections.map((s) => s.title);
    expect(titles[0]).toBe("native_functions.yaml");
    expect(titles).toEqual(expect.arrayContaining(["Binding: torch.mul", "Binding: Tensor.mul", "Registration: def mul.Tensor", "Node class MulBackward0", "derivatives.yaml"]));
    const yaml = g.sections[0];
    expect(yaml.text.split("\n")[0]).toBe("- func: mul.Tensor(Tensor self, Tensor other) -> Tensor");
    expect(yaml.links).toEqual([expect.objectContaining({ file: "engine/aten/native/BinaryOps.ts", label: "CPU, Meta kernel mul_out" })]);
    const node = g.sections.find((s) => s.title === "Node class MulBackward0")!;
    expect(node.source).toMatchObject({ file: "engine/generated/Functions.ts" });
    expect(node.text.split("\n")[0]).toBe("export class MulBackward0 extends Node {");
    expect(node.text.endsWith("}")).toBe(true);
    const autograd = g.sections.find((s) => s.title.startsWith("Autograd kernel"))!;
    expect(autograd.text).toContain("new MulBackward0()");
    // each section's text is exactly the lines its source names
    const { readFileSync } = await import("node:fs");
    for (const s of g.sections) {
      const lines = readFileSync(s.source!.file, "utf8").split("\n");
      expect(s.text).toBe(lines.slice(s.source!.startLine - 1, s.source!.endLine).join("\n"));
    }
  });
});
