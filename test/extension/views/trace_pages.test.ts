// Long child lists of the Dispatch Trace shown as pages of rows (trace_pages.ts), and stepping and
// reveal across page boundaries on a trace recorded from the engine host, repeated to ~10,000 rows.

import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import type { TraceEvent } from "../../../engine/trace/events.js";
import { buildRunTree, flattenSteps, RunTreeBuilder, stepFrom, type TraceNode } from "../../../extension/src/views/trace/trace_model.js";
import { PAGE_SIZE, TracePager } from "../../../extension/src/views/trace/trace_pages.js";
import { repeatedTrace } from "./repeated_trace.js";

const fixture = JSON.parse(readFileSync(resolve(import.meta.dirname, "fixtures/trace_mul_sum_backward.json"), "utf8")) as { events: TraceEvent[] };
const run = { key: "r1", title: "Cell 1", cellUri: "vscode-notebook-cell:/work/scratch.nb.ts#W0" };

const call = (i: number): TraceNode => ({ id: `r/${i}`, kind: "call", label: `op${i}`, children: [] });
const runOf = (n: number): TraceNode => ({ id: "r", kind: "run", label: "Cell 1", children: Array.from({ length: n }, (_, i) => call(i)) });

/** The model rows under `node` as the tree shows them, pages opened; checks every level's size on the way. */
function shownRows(pager: TracePager, node: TraceNode, limit: number): TraceNode[] {
  const kids = pager.children(node);
  expect(kids.length).toBeLessThanOrEqual(limit);
  return kids.flatMap((k) => (pager.isPage(k) ? shownRows(pager, k, limit) : [k]));
}

const repeated = (times: number) => repeatedTrace(fixture.events, times);

describe("pages of rows", () => {
  it("leaves a row with up to PAGE_SIZE children as it is", () => {
    const pager = new TracePager();
    const r = runOf(PAGE_SIZE);
    expect(pager.children(r)).toEqual(r.children);
    expect(pager.children(r).some((c) => pager.isPage(c))).toBe(false);
  });

  it("groups 10,013 calls into pages of 200, in order", () => {
    const pager = new TracePager();
    const r = runOf(10_013);
    const pages = pager.children(r);
    expect(pages).toHaveLength(51);
    expect(pages.every((p) => p.kind === "page" && pager.isPage(p))).toBe(true);
    expect(pages[0].label).toBe("calls 1–200");
    expect(pages[1].label).toBe("calls 201–400");
    expect(pages[50].label).toBe("calls 10001–10013");
    expect(pages[0].description).toBe("op0 … op199");
    expect(pager.children(pages[50]).map((c) => c.label)).toEqual(["op10000", "op10001", "op10002", "op10003", "op10004", "op10005", "op10006", "op10007", "op10008", "op10009", "op10010", "op10011", "op10012"]);
    expect(shownRows(pager, r, PAGE_SIZE)).toEqual(r.children);
  });

  it("nests pages when there are more than PAGE_SIZE of them", () => {
    const pager = new TracePager(3);
    const r = runOf(20);
    const top = pager.children(r);
    // 20 rows > 3 * 3: groups of 9 (3 pages of 3 each), then the remaining 2 rows.
    expect(top.map((p) => p.label)).toEqual(["calls 1–9", "calls 10–18", "calls 19–20"]);
    expect(pager.children(top[0]).map((p) => p.label)).toEqual(["calls 1–3", "calls 4–6", "calls 7–9"]);
    expect(pager.children(top[2]).map((c) => c.label)).toEqual(["op18", "op19"]);
    expect(shownRows(pager, r, 3)).toEqual(r.children);
    const big = runOf(100_000);
    expect(shownRows(new TracePager(), big, PAGE_SIZE)).toEqual(big.children);
  });

  it("names a page of mixed rows 'rows'", () => {
    const pager = new TracePager(2);
    const r = runOf(4);
    r.children[3] = { id: "r/x", kind: "autograd.exec", label: "backward: MulBackward0", children: [] };
    expect(pager.children(r).map((p) => p.label)).toEqual(["calls 1–2", "rows 3–4"]);
  });

  it("keeps each page (object and id) while the list grows, moving only the last page's end", () => {
    const pager = new TracePager();
    const r = runOf(350);
    const [first, last] = pager.children(r);
    expect(last.label).toBe("calls 201–350");
    for (let i = 350; i < 450; i++) r.children.push(call(i));
    const after = pager.children(r);
    expect(after).toHaveLength(3);
    expect(after[0]).toBe(first);
    expect(after[1]).toBe(last);
    expect(last.id).toBe("r/page200:200");
    expect(last.label).toBe("calls 201–400");
    expect(after[2].label).toBe("calls 401–450");
    expect(pager.children(last).map((c) => c.label).at(-1)).toBe("op399");
  });

  it("gives each row the row it is shown under (reveal), pages included", () => {
    const pager = new TracePager(3);
    const r = runOf(20);
    r.children[13].children = Array.from({ length: 5 }, (_, i): TraceNode => ({ id: `r/13.${i}`, kind: "step", label: `step${i}`, children: [] }));
    pager.setRoots([r]);
    const check = (node: TraceNode, depth: number) => {
      for (const c of pager.children(node)) {
        expect(pager.parent(c)).toBe(node);
        check(c, depth + 1);
      }
    };
    check(r, 0);
    expect(pager.parent(r)).toBeUndefined();
    const step4 = r.children[13].children[4];
    const chain: string[] = [];
    for (let n: TraceNode | undefined = step4; n; n = pager.parent(n)) chain.unshift(n.label);
    expect(chain).toEqual(["Cell 1", "calls 10–18", "calls 13–15", "op13", "rows 4–5", "step4"]);
  });
});

describe("a big run, paged", () => {
  // 167 repeats of the recorded run: ~10,000 events, over 1,000 top-level rows (calls and backward Nodes).
  const events = repeated(167);
  const tree = buildRunTree(run, events);
  const pager = new TracePager();
  pager.setRoots([tree]);

  it("shows the run's top level as pages of rows, holding every row in order", () => {
    expect(events.length).toBe(10_020);
    const rows = tree.children.length;
    expect(rows).toBeGreaterThan(1000);
    const pages = pager.children(tree);
    expect(pages).toHaveLength(Math.ceil(rows / PAGE_SIZE));
    expect(pages.at(-1)!.label).toBe(`rows 1001–${rows}`);
    expect(pages[0].label).toBe("rows 1–200");
    expect(pages[0].description).toBe("aten::mul.Tensor … aten::sum");
    expect(shownRows(pager, tree, PAGE_SIZE)).toEqual(tree.children);
  });

  it("steps across a page boundary both ways, each step revealed under its own page", () => {
    const order = flattenSteps([tree]);
    const lastOfFirstPage = tree.children[199];
    const firstOfSecondPage = tree.children[200];
    // The last step under row 200 (a backward Node's rows, or the call's own rows).
    const rowsOf200 = flattenSteps([lastOfFirstPage]);
    const lastStep = [...rowsOf200].reverse().find((n) => n.source !== undefined || n.kind === "binding") ?? lastOfFirstPage;
    const next = stepFrom(order, lastStep.id, 1)!;
    const nextIndex = order.indexOf(next);
    expect(nextIndex).toBeGreaterThanOrEqual(order.indexOf(firstOfSecondPage));
    const top = (n: TraceNode) => {
      let page: TraceNode | undefined;
      for (let p = pager.parent(n); p; p = pager.parent(p)) if (pager.isPage(p)) page = p;
      return page?.label;
    };
    expect(top(lastStep)).toBe("rows 1–200");
    expect(top(next)).toBe("rows 201–400");
    expect(stepFrom(order, next.id, -1)).toBe(lastStep);
    // The same through the pager, from rows and from the id of the current one.
    expect(pager.step(order, lastStep, 1)).toBe(next);
    expect(pager.step(order, next.id, -1)).toBe(lastStep);
  });

  it("steps from a selected page into it (forward) or to the step before it (back)", () => {
    const order = flattenSteps([tree]);
    const second = pager.children(tree)[1];
    const first = tree.children[200];
    expect(first.kind).toBe("call");
    expect(first.source).toBeDefined();
    expect(pager.step(order, second, 1)).toBe(first);
    const back = pager.step(order, second, -1)!;
    expect(order.indexOf(back)).toBeLessThan(order.indexOf(first));
    expect(stepFrom(order, back.id, 1)).toBe(first);
    // A page whose first row opens nothing: forward goes to the first step after that row.
    const small = new TracePager(2);
    const r = runOf(4);
    const plain = r.children[2];
    plain.children = [{ id: "r/2.line", kind: "line", label: "line 3", source: { kind: "cell", uri: "c", line: 3, column: 1 }, children: [] }];
    small.setRoots([r]);
    const smallOrder = flattenSteps([r]);
    expect(small.step(smallOrder, small.children(r)[1], 1)).toBe(plain.children[0]);
    expect(small.step(smallOrder, small.children(r)[1], -1)).toBeUndefined();
  });

  it("pages a run as its batches stream in, keeping the pages shown so far", () => {
    const builder = new RunTreeBuilder(run);
    const streamPager = new TracePager();
    builder.add(events.slice(0, 3000));
    const early = streamPager.children(builder.tree());
    builder.add(events.slice(3000));
    const root = builder.tree();
    const late = streamPager.children(root);
    expect(late.slice(0, early.length - 1)).toEqual(early.slice(0, -1));
    expect(late[0]).toBe(early[0]);
    expect(shownRows(streamPager, root, PAGE_SIZE).map((n) => n.id)).toEqual(tree.children.map((n) => n.id));
  });
});
