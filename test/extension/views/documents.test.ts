// The Generated Code document, the Dispatch Table / coverage HTML and the trace exports, from the
// engine host's answers for aten::mul.Tensor (fixtures/*.json, recorded by record_fixtures.ts).

import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import type { DispatchTableResult, GeneratedCodeResult, OpListResult } from "../../../extension/host/protocol.js";
import type { TraceEvent } from "../../../engine/trace/events.js";
import { opToPath, pathToOp, renderGenerated } from "../../../extension/src/views/generated/gen_document.js";
import { coverageBody, dispatchTableBody } from "../../../extension/src/views/table/table_html.js";
import { toChromeTrace, toJsonLines, toMarkdown } from "../../../extension/src/views/trace/trace_export.js";
import { buildRunTree } from "../../../extension/src/views/trace/trace_model.js";

const load = <T>(name: string) => JSON.parse(readFileSync(resolve(import.meta.dirname, "fixtures", name), "utf8")) as T;
const gen = load<GeneratedCodeResult>("generated_mul.json");
const table = load<DispatchTableResult>("dispatch_table_mul.json");
const trace = load<{ events: TraceEvent[] }>("trace_mul_sum_backward.json");

describe("glasstorch-gen: documents", () => {
  it("maps operator names to URI paths and back", () => {
    expect(opToPath("aten::mul.Tensor")).toBe("/aten/mul.Tensor");
    expect(pathToOp("/aten/mul.Tensor")).toBe("aten::mul.Tensor");
    expect(pathToOp("/aten/sum")).toBe("aten::sum");
    expect(opToPath("mul.Tensor")).toBeUndefined();
    expect(pathToOp("/../etc/passwd")).toBeUndefined();
  });

  it("renders every section with a link back to where it came from and on to the kernels", () => {
    const doc = renderGenerated(gen);
    const lines = doc.text.split("\n");
    expect(doc.sections.map((s) => s.title)).toEqual(gen.sections.map((s) => s.title));
    for (const s of doc.sections) {
      const section = gen.sections.find((g) => g.title === s.title)!;
      expect(lines.slice(s.line, s.line + section.text.split("\n").length).join("\n")).toBe(section.text.replace(/\n$/, ""));
    }
    const yaml = doc.links.find((l) => l.target.kind === "engine" && l.target.file === "engine/ops/native_functions.yaml")!;
    expect(lines[yaml.line].slice(yaml.start, yaml.end)).toBe("engine/ops/native_functions.yaml:45-48");
    expect(yaml.target).toEqual({ kind: "engine", file: "engine/ops/native_functions.yaml", line: 45, endLine: 48 });
    const kernel = doc.links.find((l) => l.tooltip === "Open CPU, Meta kernel mul_out")!;
    expect(lines[kernel.line].slice(kernel.start, kernel.end)).toBe("engine/aten/native/BinaryOps.ts:72");
    const files = new Set(doc.links.map((l) => (l.target.kind === "engine" ? l.target.file : "")));
    expect(files).toEqual(new Set(["engine/ops/native_functions.yaml", "engine/aten/native/BinaryOps.ts", "engine/generated/mul.ts", "engine/generated/VariableType.ts", "engine/generated/Functions.ts", "engine/ops/derivatives.yaml", "engine/autograd/FunctionsManual.ts"]));
  });
});

describe("dispatch table HTML", () => {
  it("lists every runtime key with registered and computed kernels, highlighting the chosen key", () => {
    const html = dispatchTableBody(table, "AutogradCPU");
    expect(html.match(/<tr data-key=/g)).toHaveLength(table.rows.length);
    expect(html).toContain('<tr data-key="AutogradCPU" class="won" aria-current="true"><th scope="row">AutogradCPU <span class="badge">chosen</span></th><td><span class="none">—</span></td><td><code>VariableType::mul_Tensor</code> <span class="prov">[autograd kernel]</span>');
    expect(html.match(/class="won"/g)).toHaveLength(1);
    expect(html).toContain("aten::mul.Tensor(Tensor self, Tensor other) -&gt; Tensor");
    expect(dispatchTableBody(table)).not.toContain('class="won"');
    // The one link: a command URI opening the operator's generated code.
    expect(html.match(/href="/g)).toHaveLength(1);
    expect(html).toContain('<a href="command:glasstorch.openGeneratedCode?%5B%22aten%3A%3Amul.Tensor%22%5D">');
  });

  it("escapes operator data", () => {
    const evil = { ...table, op: "<script>x</script>", rows: [{ key: '"><img>', computed: { name: "<b>", provenance: "&" } }] };
    const html = dispatchTableBody(evil, '"><img>');
    expect(html).not.toMatch(/<script>|<img>|<b>/);
  });

  it("draws the ops x backends matrix", () => {
    const list: OpListResult = {
      backends: ["CPU", "Meta"],
      ops: [
        { name: "aten::mul", overload: "Tensor", backends: ["CPU", "Meta"], hasAutograd: true },
        { name: "aten::_foo", overload: "", backends: ["CPU"], hasAutograd: false },
      ],
    };
    const html = coverageBody(list);
    expect(html).toContain("2 operators; with a kernel — CPU: 2, Meta: 1.");
    expect(html).toContain('<tr><th scope="row"><a href="command:glasstorch.showDispatchTable?%5B%22aten%3A%3Amul.Tensor%22%5D"><code>aten::mul.Tensor</code></a></th><td class="yes" title="aten::mul.Tensor @ CPU">●</td><td class="yes" title="aten::mul.Tensor @ Meta">●</td><td class="yes">●</td></tr>');
    expect(html).toContain('<code>aten::_foo</code></a></th><td class="yes" title="aten::_foo @ CPU">●</td><td class="no"></td><td class="no"></td></tr>');
    expect(coverageBody(list, "mul")).toContain("1 operators matching “mul”");
  });
});

describe("trace exports", () => {
  it("writes JSON lines the engine's trace readers take: a header, then the events unchanged", () => {
    const text = toJsonLines(trace.events, { timeOrigin: 5, createdAt: "2026-01-01T00:00:00.000Z", capacity: 100, dropped: 0 });
    const lines = text.trimEnd().split("\n").map((l) => JSON.parse(l));
    expect(lines[0]).toEqual({ type: "header", schemaVersion: 1, engine: "glasstorch", timeOrigin: 5, createdAt: "2026-01-01T00:00:00.000Z", capacity: 100, dropped: 0 });
    expect(lines.slice(1)).toEqual(trace.events);
  });

  it("writes a Chrome trace: calls, steps, kernels and backward Nodes as complete events nested by time", () => {
    const { traceEvents } = toChromeTrace(trace.events);
    const calls = traceEvents.filter((e) => e.cat === "op");
    expect(calls).toHaveLength(11);
    const mul = calls[0];
    expect(mul.name).toBe("aten::mul.Tensor");
    const ret = trace.events.find((e) => e.type === "return" && e.call === 0) as { dur: number };
    expect(mul.dur).toBe(ret.dur);
    const inside = (x: { ts: number; dur?: number }) => x.ts >= mul.ts && x.ts + (x.dur ?? 0) <= mul.ts + mul.dur!;
    const mulSteps = traceEvents.filter((e) => e.cat === "dispatch" && inside(e)).map((e) => e.name);
    expect(mulSteps).toEqual(["AutogradCPU: VariableType::mul_Tensor", "CPU: native.mul_out"]);
    expect(traceEvents.filter((e) => e.cat === "kernel").map((e) => e.name)).toEqual(["mul_stub (ts DEFAULT)", "mul_stub (ts DEFAULT)", "mul_stub (ts DEFAULT)"]);
    expect(traceEvents.filter((e) => e.cat === "autograd" && e.ph === "X").map((e) => e.name)).toEqual(["SumBackward0", "MulBackward0", "AccumulateGrad", "AccumulateGrad"]);
    for (const e of traceEvents) if (e.ph === "X") expect(e.dur).toBeGreaterThanOrEqual(0);
  });

  it("writes the tree as nested Markdown", () => {
    const tree = buildRunTree({ key: "r", title: "Cell 1" }, trace.events);
    const md = toMarkdown([tree]);
    expect(md).toContain("- **Cell 1** — *11 calls, 60 events*\n  - aten::mul.Tensor — *Tensor.mul · line 4 ·");
    expect(md).toContain("    - AutogradCPU -\\> VariableType::mul\\_Tensor — *autograd kernel · VariableType\\_\\*.cpp*");
  });
});
