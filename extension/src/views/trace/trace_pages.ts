// Pages of a long list of rows for the Dispatch Trace view: VS Code's tree fetches, sends and draws every
// child of a row it expands, so a run of 10,000 calls would cost seconds per redraw. A row with more than
// PAGE_SIZE children shows group rows instead ("calls 1–200", "calls 201–400", …), nested when there are
// more than PAGE_SIZE groups, so no row has more than PAGE_SIZE children. Pure (no vscode): unit-tested.
//
// The model (trace_model.ts) keeps its full child lists; pages are a view over them. A page object is
// kept for the life of its owner's list (VS Code keys rows by id, and reveal walks getParent), and only
// its end moves while a run streams.

import { stepFrom, type TraceNode } from "./trace_model.js";

export const PAGE_SIZE = 200;

interface PageInfo {
  /** The model row whose children this page groups. */
  owner: TraceNode;
  /** The row shown above this page: the owner or a larger page of it. */
  parent: TraceNode;
  /** Index range in owner.children, end exclusive. */
  start: number;
  end: number;
}

export class TracePager {
  private readonly info = new WeakMap<TraceNode, PageInfo>();
  /** Pages made for each owner, by span and start ("200:400"). */
  private readonly pagesOf = new WeakMap<TraceNode, Map<string, TraceNode>>();
  /** Each model row's parent and index in its children; rebuilt on demand after setRoots. */
  private modelParents?: Map<TraceNode, { parent: TraceNode; index: number }>;
  private roots: readonly TraceNode[] = [];

  constructor(private readonly pageSize = PAGE_SIZE) {}

  /** The runs shown; their trees may have changed (parents are found again when next needed). */
  setRoots(roots: readonly TraceNode[]): void {
    this.roots = roots;
    this.modelParents = undefined;
  }

  isPage(node: TraceNode): boolean {
    return this.info.has(node);
  }

  /** What the tree shows under `node` (a model row or a page): at most pageSize rows. */
  children(node: TraceNode): TraceNode[] {
    const page = this.info.get(node);
    if (page) return this.range(page.owner, node, page.start, page.end);
    return this.range(node, node, 0, node.children.length);
  }

  /** The row shown above `node`: a page when its parent's children are paged; undefined for a root. */
  parent(node: TraceNode): TraceNode | undefined {
    const page = this.info.get(node);
    if (page) return page.parent;
    const at = this.parents().get(node);
    if (!at) return undefined;
    // Down from the model parent through the pages whose range holds the row's index.
    let shown = at.parent;
    for (;;) {
      const inner = this.children(shown).find((c) => {
        const p = this.info.get(c);
        return p !== undefined && p.start <= at.index && at.index < p.end;
      });
      if (!inner) return shown;
      shown = inner;
    }
  }

  /**
   * Step Forward (1) / Back (-1) from the selected row (or the id of the current one) through `order`
   * (flattenSteps of the roots). From a selected page: forward to its first row when that is a step,
   * else the step after it; back to the step before its first row.
   */
  step(order: readonly TraceNode[], selected: TraceNode | string | undefined, delta: 1 | -1): TraceNode | undefined {
    const page = typeof selected === "object" ? this.info.get(selected) : undefined;
    if (!page) return stepFrom(order, typeof selected === "object" ? selected.id : selected, delta);
    const first = page.owner.children[page.start];
    if (delta > 0 && stepFrom([first], undefined, 1) === first) return first;
    return stepFrom(order, first.id, delta);
  }

  private range(owner: TraceNode, shownUnder: TraceNode, start: number, end: number): TraceNode[] {
    const count = end - start;
    if (count <= this.pageSize) return owner.children.slice(start, end);
    // Each group holds `span` rows: the smallest power of pageSize that leaves at most pageSize groups.
    let span = this.pageSize;
    while (count > span * this.pageSize) span *= this.pageSize;
    const groups: TraceNode[] = [];
    for (let s = start; s < end; s += span) groups.push(this.page(owner, shownUnder, s, Math.min(s + span, end), span));
    return groups;
  }

  private page(owner: TraceNode, parent: TraceNode, start: number, end: number, span: number): TraceNode {
    let pages = this.pagesOf.get(owner);
    if (!pages) this.pagesOf.set(owner, (pages = new Map()));
    const key = `${span}:${start}`;
    let page = pages.get(key);
    if (!page) {
      page = { id: `${owner.id}/page${key}`, kind: "page", label: "", children: [] };
      pages.set(key, page);
    }
    const info = this.info.get(page);
    if (!info || info.end !== end || info.parent !== parent) {
      this.info.set(page, { owner, parent, start, end });
      const rows = owner.children.slice(start, end);
      // "calls" when every row is a call (a run's top level, mostly), else "rows" (backward Nodes, steps …).
      const noun = rows.every((r) => r.kind === "call") ? "calls" : "rows";
      page.label = `${noun} ${start + 1}–${end}`;
      page.description = `${rows[0].label} … ${rows[rows.length - 1].label}`;
      page.tooltip = `${noun} ${start + 1} to ${end} under ${owner.label}`;
    }
    return page;
  }

  private parents(): Map<TraceNode, { parent: TraceNode; index: number }> {
    if (this.modelParents) return this.modelParents;
    const parents = new Map<TraceNode, { parent: TraceNode; index: number }>();
    const stack = [...this.roots];
    while (stack.length) {
      const n = stack.pop()!;
      n.children.forEach((c, index) => {
        parents.set(c, { parent: n, index });
        stack.push(c);
      });
    }
    return (this.modelParents = parents);
  }
}
