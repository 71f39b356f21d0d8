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
  if (v && typeof v === "object" && Object.keys(v).length === 1 && "dtype" in v) return T[v.dtype]; // a torch.dtype
  return dec(v); // "inf", "-inf", "nan" as numbers
}

/** torch.<op> (the Python-level function where torch/functional.py shadows the binding, as torch.norm), else
 * the generated binding (private ops: _unique2); a dotted name walks from torch ("linalg.vector_norm"), and
 * an operator overload ("ops.aten.norm.Scalar") is called through its .call. */
function resolve(op: string): (...args: unknown[]) => unknown {
  if (!op.includes(".")) return T[op] ?? fns[op];
  const f = op.split(".").reduce((o: any, k) => o?.[k], T);
  return typeof f === "function" ? f : (...args: unknown[]) => f.call(...args);
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
  else value = resolve(c.op)(...args, ...tail);
  return { value, out: kw.out ?? null };
}

function summary(r: any, out: unknown): any {
  if (r === null) return { none: true }; // an undefined tensor in a tuple (a backward op's output_mask)
  if (Array.isArray(r)) return { list: r.map((t) => summary(t, out)) };
  const t = r as Tensor;
  return { sizes: [...t.shape], strides: t.stride(), dtype: t.dtype.name, values: t.tolist(), is_out: t === out };
}

function metaSummary(r: any): any {
  if (r === null) return { none: true };
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
  if ("error" in cpu || "none" in cpu) return cpu;
  if ("list" in cpu) return { list: cpu.list.map(cpuAsMeta) };
  return { sizes: cpu.sizes, strides: cpu.strides, dtype: cpu.dtype };
}

/** A relative tolerance (of max(|PyTorch's value|, 1)) for a case's values on a dtype; 0 means exact. */
export type CaseTolerance = (caseName: string, dtype: string) => number;

/** `got` with each value within `tol` of PyTorch's replaced by PyTorch's, so toEqual reports only real differences. */
function snap(got: any, want: any, tol: number): any {
  if (typeof got === "number" && typeof want === "number") {
    if (Number.isNaN(got) && Number.isNaN(want)) return want;
    return Number.isFinite(want) && Math.abs(got - want) <= tol * Math.max(Math.abs(want), 1) ? want : got;
  }
  if (Array.isArray(got) && Array.isArray(want)) return got.map((g, i) => snap(g, want[i], tol));
  if (got && want && typeof got === "object" && typeof want === "object") {
    return Object.fromEntries(Object.entries(got).map(([k, v]) => [k, k === "values" || k === "list" ? snap(v, want[k], tol) : v]));
  }
  return got;
}

/**
 * The error as compared: "Could not run 'aten::x' with arguments from the 'Meta' backend." is compared up to
 * that first sentence (the rest lists the backends each build registers, which differ).
 */
function errorOf(e: { error?: string; message?: string }, want: { message?: string }): { error?: string; message?: string } {
  const cut = (m?: string) => (m !== undefined && want.message?.startsWith("Could not run '") ? m.split(". ")[0] : m);
  return { error: e.error, message: cut(e.message) };
}

/**
 * One `it` per case and dtype on CPU and one on meta; names in `skip` / `skipMeta` are known differences.
 * Names in `metaLikeCpu` are cases where PyTorch 1.13's own meta path disagrees with its CPU result (a Python
 * meta registration with other texts or a contiguous layout, or no Meta kernel at all): there Glasstorch's meta
 * result is held to the real (CPU) result, as the issue asks.
 */
export function describeOpCases(
  title: string,
  fixture: any,
  known: { skip?: Set<string>; skipMeta?: Set<string>; metaLikeCpu?: Set<string>; tolerance?: CaseTolerance } = {},
): void {
  describe(title, () => {
    for (const c of fixture.cases) {
      for (const r of c.results) {
        (known.skip?.has(c.name) ? it.skip : it)(`${c.name} [${r.dtype}]`, () => {
          const got = outcome(() => {
            const o = call(c, r, "cpu");
            return summary(o.value, o.out);
          });
          const want = decodeValues(r.cpu);
          const tol = known.tolerance?.(c.name, r.dtype) ?? 0;
          if ("error" in r.cpu) expect(errorOf(got, r.cpu)).toEqual(errorOf(r.cpu, r.cpu));
          else expect(got.error ? got : tol ? snap(got.value, want, tol) : got.value).toEqual(want);
        });
        (known.skipMeta?.has(c.name) ? it.skip : it)(`${c.name} [${r.dtype}] on meta`, () => {
          const got = outcome(() => metaSummary(call(c, r, "meta").value));
          const want = known.metaLikeCpu?.has(c.name) ? cpuAsMeta(r.cpu) : r.meta;
          if ("error" in want) expect(errorOf(got, want)).toEqual(errorOf(want, want));
          else expect(got.error ? got : got.value).toEqual(want);
        });
      }
    }
  });
}
