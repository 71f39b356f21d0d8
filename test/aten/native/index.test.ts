// The index family (index, index_put, index_select, take, gather, scatter*, index_add, index_fill,
// masked_fill, masked_select, nonzero, argwhere, embedding, one_hot) against PyTorch 1.13
// (fixtures/index.json, written by fixtures/gen_index.py): sizes, strides, dtype, values, out=,
// meta results and error texts.
import { describe, it, expect } from "vitest";
import * as torch from "../../../engine/index.js";
import { loadFixture } from "../../support/fixtures.js";
import { describeOpCases } from "../../support/op_cases.js";

const F = loadFixture("index.json");

/**
 * PyTorch's "Could not run 'aten::nonzero' with arguments from the 'Meta' backend" lists the keys its
 * build registers; Glasstorch's lists its own. Those meta cases are compared on the first sentence
 * below instead of the whole text.
 */
const couldNotRun = (r: any) => r.meta?.error === "NotImplementedError" && String(r.meta.message).startsWith("Could not run");
const NO_META_KERNEL = new Set<string>(F.cases.filter((c: any) => c.results.some(couldNotRun)).map((c: any) => c.name));

/**
 * Known differences on meta: PyTorch 1.13 runs index_select, index_fill_, masked_fill_ and index_put_
 * on meta through Python meta registrations (torch/_meta_registrations.py) that skip the CPU kernel's
 * checks (and index_select.out's resizes out to self's shape); Glasstorch's meta kernels are the CPU
 * kernels minus the data loop, so they check dtypes and shapes as CPU does.
 */
const LOOSER_PYTORCH_META = [
  "err_index_fill_2d_index", "err_index_fill_int32", "err_index_fill_value_dim", "err_index_select_2d", "err_index_select_float",
  "err_masked_fill__grow", "err_masked_fill_value_dim", "index_select_out",
];
/**
 * Known difference on CPU: PyTorch 1.13's Python binding of torch.index_put refuses None inside the
 * indices list ("expected Tensor as element 0 ..."); Glasstorch's Tensor?[] parsing accepts it (the
 * same call through torch.ops.aten.index_put matches: index_put_aten_noncontig).
 */
const KNOWN = new Set(["index_put_noncontig"]);
const KNOWN_META = new Set([...NO_META_KERNEL, ...LOOSER_PYTORCH_META, ...KNOWN]);

describeOpCases("index ops match PyTorch (sizes, strides, dtype, values, out=, errors)", F, { skip: KNOWN, skipMeta: KNOWN_META });

describe("ops PyTorch 1.13 has no Meta kernel for are refused on meta, as there", () => {
  for (const c of F.cases.filter((c: any) => NO_META_KERNEL.has(c.name))) {
    const r = c.results[0];
    if (!couldNotRun(r)) continue;
    it(c.name, () => {
      const first = (m: string) => m.split(". ")[0];
      let err: any = null;
      try {
        const meta = (x: any): any =>
          x && typeof x === "object" && "tensor" in x ? torch.empty(x.tensor.sizes, { dtype: (torch as any)[x.tensor.dtype], device: "meta" })
          : x && typeof x === "object" && "list" in x ? x.list.map(meta) : x;
        const args = r.args.map(meta);
        const kw = Object.fromEntries(Object.entries(r.kwargs).map(([k, v]) => [k, meta(v)]));
        const tail = Object.keys(kw).length ? [kw] : [];
        if (c.variant === "method") args[0][c.op](...args.slice(1), ...tail);
        else if (c.variant === "aten") { const [n, o] = c.op.split("."); (torch as any).ops.aten[n][o].call(...args, ...tail); }
        else (torch as any)[c.op](...args, ...tail);
      } catch (e: any) {
        err = e;
      }
      expect(err?.name).toBe("NotImplementedError");
      expect(first(err.message)).toBe(first(r.meta.message));
    });
  }
});
