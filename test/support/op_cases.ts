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
  const value = c.variant === "method" ? args[0][c.op](...args.slice(1), ...tail) : (fns[c.op] ?? T[c.op])(...args, ...tail);
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

/** The CPU result as a meta result: sizes, strides and dtype (or the same error). */
function cpuAsMeta(cpu: any): any {
  if ("error" in cpu) return cpu;
  if ("list" in cpu) return { list: cpu.list.map(cpuAsMeta) };
  return { sizes: cpu.sizes, strides: cpu.strides, dtype: cpu.dtype };
}

/**
 * One `it` per case and dtype on CPU and one on meta; names in `skip` / `skipMeta` are known differences.
 * Names in `metaLikeCpu` are cases where PyTorch 1.13's own meta path disagrees with its CPU result (a Python
 * meta registration with other texts or a contiguous layout, or no Meta kernel at all): there Glasstorch's meta
 * result is held to the real (CPU) result, as the issue asks.
 */
export function describeOpCases(title: string, fixture: any, known: { skip?: Set<string>; skipMeta?: Set<string>; metaLikeCpu?: Set<string> } = {}): void {
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
          const want = known.metaLikeCpu?.has(c.name) ? cpuAsMeta(r.cpu) : r.meta;
          if ("error" in want) expect({ error: got.error, message: got.message }).toEqual(want);
          else expect(got.error ? got : got.value).toEqual(want);
        });
      }
    }
  });
}
