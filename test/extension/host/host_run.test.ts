// The engine host as the extension sees it: a child process (extension/dist/host.js) speaking
// JSON-RPC. Running cells: shared declarations, re-runs, top-level await, captured output, tensor
// outputs, errors with the cell's line and op, errors left behind by timers, progress.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as torch from "../../../engine/index.js";
import type { TensorOutput } from "../../../extension/host/protocol.js";
import { cellUri, HostClient, until } from "../../support/host_client.js";

let host: HostClient;

beforeAll(async () => {
  host = HostClient.start();
  const init = await host.initialize();
  // "auto": the native kernels where the addon loads here (as it does in this process), else TypeScript with the reason.
  const native = torch._C._native_status();
  expect(init).toMatchObject({ protocolVersion: 1, pid: host.child.pid, backend: { cpuKernels: native.loaded ? "native" : "typescript", devices: ["cpu", "meta"] } });
  if (native.loaded) expect(init.backend.capability).toBe(native.addon!.capability);
  else expect(init.backend.nativeUnavailableReason).toBe(native.reason);
  expect(init.traceHeader).toMatchObject({ type: "header", engine: "glasstorch" });
}, 30_000);
afterAll(() => host?.dispose());

describe("engine host: cells", () => {
  it("shares top-level declarations between cells; the last expression is the value", async () => {
    expect(await host.run('import * as torch from "glasstorch";\nconst a = 20;\nlet b = 1;\nfunction add(x: number) { return x + a + b }', 0)).toMatchObject({ status: "ok" });
    const r = await host.run("b = 2;\nadd(20)", 1);
    expect(r).toMatchObject({ status: "ok", value: { kind: "value", text: "42" } });
    expect(r.value).toBeDefined();
    expect((await host.run("const unused = 1;", 2)).value).toBeUndefined();
  });

  it("runs a cell that declares const again, and refuses to assign the const", async () => {
    const cell = "const k = Math.max(1, 2);\nk";
    expect((await host.run(cell, 3)).status).toBe("ok");
    const again = await host.run(cell, 3);
    expect(again).toMatchObject({ status: "ok", value: { text: "2" } });
    const assign = await host.run("k = 3", 4);
    expect(assign.error).toMatchObject({ name: "TypeError", message: "Assignment to constant variable.", location: { cellUri: cellUri(4), line: 1 } });
  });

  it("awaits at top level", async () => {
    const r = await host.run("const later = await new Promise<number>((r) => setTimeout(() => r(7), 20));\nlater * 6", 5);
    expect(r).toMatchObject({ status: "ok", value: { kind: "value", text: "42" } });
  });

  it("captures console and process.stdout/stderr writes as Output notifications", async () => {
    const r = host.run('console.log("hello", { a: 1 });\nconsole.error("oops");\nprocess.stdout.write("raw\\n");\nconsole.log(torch.tensor([1.5, 2]))', 6);
    await r;
    await until(() => host.text(r.runId).includes("tensor"), 2000, "output");
    expect(host.text(r.runId)).toBe("hello { a: 1 }\nraw\ntensor([1.5000, 2.0000])\n");
    expect(host.text(r.runId, "stderr")).toBe("oops\n");
  });

  it("shows a tensor value as PyTorch prints it, with a heat map for small 2-D and a histogram otherwise", async () => {
    const r = await host.run("const m = torch.arange(6, { dtype: torch.float64 }).reshape(1, 2, 3).requires_grad_();\nm.mul(2)", 7);
    const v = r.value as TensorOutput;
    const expected = torch.arange(6, { dtype: torch.float64 }).reshape(1, 2, 3).requires_grad_().mul(2);
    expect(v).toMatchObject({ kind: "tensor", repr: String(expected), shape: [1, 2, 3], dtype: "torch.float64", device: "cpu", requires_grad: true, grad_fn: "MulBackward0" });
    expect(v.repr).toBe("tensor([[[ 0.,  2.,  4.],\n         [ 6.,  8., 10.]]], dtype=torch.float64, grad_fn=<MulBackward0>)");
    expect(v.rich).toEqual({ view: "heatmap", rows: 2, cols: 3, values: [0, 2, 4, 6, 8, 10], min: 0, max: 10 });

    const big = (await host.run("torch.tensor([0, 1, 1, 2, 3, 3, 3, Infinity]).reshape(2, 2, 2)", 8)).value as TensorOutput;
    expect(big.repr).toBe(String(torch.tensor([0, 1, 1, 2, 3, 3, 3, Infinity]).reshape(2, 2, 2)));
    expect(big.rich).toMatchObject({ view: "histogram", min: 0, max: 3, nonFinite: 1 });
    const h = big.rich as { counts: number[]; edges: number[] };
    expect(h.counts.reduce((a, b) => a + b, 0)).toBe(7);
    expect([h.counts[0], h.counts[h.counts.length - 1]]).toEqual([1, 3]);
    expect(h.edges.length).toBe(h.counts.length + 1);

    const meta = (await host.run('torch.empty(3, 4, { device: "meta" })', 9)).value as TensorOutput;
    expect(meta).toMatchObject({ repr: "tensor(..., device='meta', size=(3, 4))", device: "meta" });
    expect(meta.rich).toBeUndefined();
  });

  it("display() sends values as outputs while the cell runs", async () => {
    const r = host.run('display(torch.eye(2), "two");\n3', 15);
    expect(await r).toMatchObject({ status: "ok", value: { text: "3" } });
    await until(() => host.outputs.filter((o) => o.runId === r.runId).length === 2, 2000, "displayed values");
    const shown = host.outputs.filter((o) => o.runId === r.runId).map((o) => o.output);
    expect(shown[0]).toMatchObject({ kind: "tensor", repr: String(torch.eye(2)), rich: { view: "heatmap", rows: 2, cols: 2, values: [1, 0, 0, 1] } });
    expect(shown[1]).toEqual({ kind: "value", text: "'two'" });
  });

  it("reports an engine error with PyTorch's text, its class and op, and the cell line it came from", async () => {
    const r = await host.run("const p = torch.ones(2, 3);\n\nconst q = torch.mm(p, p);", 10);
    expect(r.status).toBe("error");
    expect(r.error).toMatchObject({
      name: "RuntimeError",
      message: "mat1 and mat2 shapes cannot be multiplied (2x3 and 2x3)",
      op: "aten::mm",
      location: { cellUri: cellUri(10), line: 3 },
    });
    expect(r.error!.stack).toContain(`${cellUri(10)}:3:`);
    expect(r.error!.stack).toMatch(/engine\/aten\/native\/linalg\/Blas\.ts:\d+/); // engine frames named by their source
  });

  it("reports a syntax error with its cell line", async () => {
    const r = await host.run("const ok = 1;\nconst = 2;", 11);
    expect(r).toMatchObject({ status: "error", error: { name: "SyntaxError", location: { cellUri: cellUri(11), line: 2, column: 7 } } });
  });

  it("survives errors thrown later by timers and unawaited promises, reporting them as output", async () => {
    const r = host.run('setTimeout(() => { throw new Error("from a timer") }, 10);\nPromise.reject(new RangeError("nobody awaits me"));\n1', 12);
    expect((await r).status).toBe("ok");
    await until(() => host.text(r.runId, "stderr").includes("from a timer") && host.text(r.runId, "stderr").includes("nobody awaits me"), 3000, "uncaught errors");
    expect(host.text(r.runId, "stderr")).toMatch(/Uncaught exception: Error: from a timer\n\s+at .*#W12:1:/);
    expect((await host.run("a + 1", 13)).value).toMatchObject({ text: "21" }); // still alive, state kept
  });

  it("sends progress bars of torch.utils.progress and tqdm, throttled", async () => {
    const r = host.run('let steps = 0;\nfor (const i of torch.utils.progress(30, { desc: "epochs" })) { await new Promise((r) => setTimeout(r, 10)); steps++ }\nconst bar = torch.utils.tqdm({ total: 2 }); bar.update(2); bar.close();\nsteps', 14);
    expect(await r).toMatchObject({ status: "ok", value: { text: "30" } });
    await until(() => host.progress.filter((p) => p.runId === r.runId && p.done).length === 2, 2000, "progress done");
    const bars = host.progress.filter((p) => p.runId === r.runId);
    const epochs = bars.filter((p) => p.label === "epochs");
    expect(epochs[0]).toMatchObject({ current: 0, total: 30, done: false });
    expect(epochs[epochs.length - 1]).toMatchObject({ current: 30, total: 30, done: true });
    // ~300 ms of loop at most ten updates a second (plus first and last), not one per step
    expect(epochs.length).toBeLessThan(10);
    const other = bars.filter((p) => p.barId !== epochs[0].barId);
    expect(other[other.length - 1]).toMatchObject({ current: 2, total: 2, done: true });
  });
});
