// Replays the op-family fixtures written through test/fixtures/_op_cases.py (join.json, select.json):
// every case per dtype on CPU (sizes, strides, dtype, values, whether out= was returned) and on meta
// (sizes, strides, dtype), or PyTorch's error (type and text).
import { describe, it, expect } from "vitest";
import * as torch from "../../engine/index.js";
import * as G from "../../engine/generated/index.js";
import type { Tensor } from "../../engine/aten/core/Tensor.js";
import { dec, outcome } from "./fixtures.js";
import { buildWindow } from "./windows.js";

const T = torch as any;
const fns = G as any;

function decodeArg(v: any, device: string): any {
  if (v && typeof v === "object" && "tensor" in v) return buildWindow(v.tensor, device);
  if (v && typeof v === "object" && "list" in v) return v.list.map((x: any) => decodeArg(x, device));
  return v;
}

/** The call a result records, as torch.<op>(...) or a Tensor method, keyword arguments last. */
function call(c: any, r: any, device: string): { value: unknown; out: unknown } {
  const args = r.args.map((a: any) => decodeArg(a, device));
  const kw = Object.fromEntries(Object.entries(r.kwargs).map(([k, v]) => [k, decodeArg(v, device)]));
  const tail = Object.keys(kw).length ? [kw] : [];
  let value: unknown;
  if (c.variant === "method") value = args[0][c.op](...args.slice(1), ...tail);
  else if (c.variant === "aten") {
    // an op with no Python binding: torch.ops.aten.<name>.<overload>
    const [name, overload] = c.op.split(".");
    value = T.ops.aten[name][overload].call(...args, ...tail);
  } else if (c.variant === "nn") value = T.nn.functional[c.op](...args, ...tail);
  else value = (fns[c.op] ?? T[c.op])(...args, ...tail);
  return { value, out: kw.out ?? null };
}

function summary(r: any, out: unknown): any {
  if (Array.isArray(r)) return { list: r.map((t) => summary(t, out)) };
  const t = r as Tensor;
  return { sizes: [...t.shape], strides: t.stride(), dtype: t.dtype.name, values: t.tolist(), is_out: t === out };
}

function metaSummary(r: any): any {
  if (Array.isArray(r)) return { list: r.map(metaSummary) };
  const t = r as Tensor;
  return { sizes: [...t.shape], strides: t.stride(), dtype: t.dtype.name };
}

function decodeValues(e: any): any {
  if (e && typeof e === "object" && "list" in e) return { list: e.list.map(decodeValues) };
  return e && "values" in e ? { ...e, values: dec(e.values) } : e;
}

/** One `it` per case and dtype on CPU and one on meta; names in `skip` / `skipMeta` are known differences. */
export function describeOpCases(title: string, fixture: any, known: { skip?: Set<string>; skipMeta?: Set<string> } = {}): void {
  describe(title, () => {
    for (const c of fixture.cases) {
      for (const r of c.results) {
        (known.skip?.has(c.name) ? it.skip : it)(`${c.name} [${r.dtype}]`, () => {
          const got = outcome(() => {
            const o = call(c, r, "cpu");
            return summary(o.value, o.out);
          });
          if ("error" in r.cpu) expect({ error: got.error, message: got.message }).toEqual(r.cpu);
          else expect(got.error ? got : got.value).toEqual(decodeValues(r.cpu));
        });
        (known.skipMeta?.has(c.name) ? it.skip : it)(`${c.name} [${r.dtype}] on meta`, () => {
          const got = outcome(() => metaSummary(call(c, r, "meta").value));
          if ("error" in r.meta) expect({ error: got.error, message: got.message }).toEqual(r.meta);
          else expect(got.error ? got : got.value).toEqual(r.meta);
        });
      }
    }
  });
}
