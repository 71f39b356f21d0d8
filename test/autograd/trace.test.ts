// Autograd in the trace (DESIGN §3): Nodes created by Autograd kernels with their saved tensors and next
// edges, and during backward each Node run, in PyTorch's order, with the gradients in and out.
import { describe, it, expect } from "vitest";
import * as torch from "../../engine/index.js";

const t = (v: number[]) => torch.tensor(v, { dtype: torch.float32, requires_grad: true });

describe("the backward trace of (a * b).sum().backward()", () => {
  const a = t([1, 2, 3]), b = t([4, 5, 6]);
  const { events } = torch.trace.record(() => a.mul(b).sum().backward());
  const auto = events.filter((e) => e.type.startsWith("autograd.")) as any[];

  it("records each Node as its Autograd kernel creates it, with saved tensors and next edges", () => {
    const created = auto.filter((e) => e.type === "autograd.node");
    expect(created.map((e) => e.node.name)).toEqual(["MulBackward0", "SumBackward0"]);
    expect(created[0].saved.filter((s: any) => s.value.kind === "tensor").map((s: any) => s.name)).toEqual(["self", "other"]);
    expect(created[0].nextEdges.map((e: any) => e.node?.name)).toEqual(["AccumulateGrad", "AccumulateGrad"]);
    expect(created[1].nextEdges.map((e: any) => e.node?.id)).toEqual([created[0].node.id]);
    const call = events.find((e: any) => e.type === "call" && e.id === created[0].call) as any;
    expect(call.name).toBe("aten::mul.Tensor");
  });
  it("runs SumBackward0, MulBackward0, then the AccumulateGrads of a and b, in PyTorch's order", () => {
    const ran = auto.filter((e) => e.type === "autograd.exec");
    expect(ran.map((e) => e.node.name)).toEqual(["SumBackward0", "MulBackward0", "AccumulateGrad", "AccumulateGrad"]);
    expect(ran[1].gradsIn.map((g: any) => g.shape)).toEqual([[3]]);
    expect(ran[1].gradsOut.map((g: any) => g.shape)).toEqual([[3], [3]]);
    const acc = auto.filter((e) => e.type === "autograd.accumulate");
    const tid = (x: any) => x.variable.tid;
    expect(acc.map((e) => e.accumulated)).toEqual([false, false]);
    expect(new Set(acc.map(tid)).size).toBe(2);
  });
  it("shows the backward's own ops (sum's expand, mul's muls) between the Node events", () => {
    const ops = events.filter((e: any) => e.type === "call" && e.depth === 0).map((e: any) => e.name);
    expect(ops.slice(0, 2)).toEqual(["aten::mul.Tensor", "aten::sum"]);
    expect(ops).toContain("aten::expand");
  });
  it("prints in the text trace at level 2", () => {
    const text = torch.trace.formatTrace(events, 2).join("\n");
    expect(text).toMatch(/\[autograd\] created MulBackward0#\d+, sequence_nr=\d+, next=\[AccumulateGrad#\d+, AccumulateGrad#\d+\]/);
    expect(text).toMatch(/\[autograd\] ran SumBackward0#\d+/);
  });
});
