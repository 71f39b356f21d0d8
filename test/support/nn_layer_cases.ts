// Replays the torch.nn.functional layer fixtures written through test/fixtures/_nn_layer_cases.py (conv.json,
// pooling.json, normalization.json, vision.json): each case per dtype on CPU (sizes, strides, dtype and
// values within a per-dtype tolerance, arguments mutated in place) and on meta (sizes, strides, dtype),
// or PyTorch's error (type and text).
import { describe, it, expect } from "vitest";
import * as torch from "../../engine/index.js";
import type { Tensor } from "../../engine/aten/core/Tensor.js";
import { dec, outcome } from "./fixtures.js";
import { buildWindow } from "./windows.js";

/** Per-dtype tolerance |got - want| <= atol + rtol * |want|; integers compare exactly. */
export const TOLERANCE: Record<string, { rtol: number; atol: number }> = {
  float64: { rtol: 1e-12, atol: 1e-12 },
  // PyTorch sums float32 products in float32 (blocked, vectorized); Glasstorch sums in double and rounds once
  float32: { rtol: 2e-5, atol: 2e-5 },
  // one bfloat16 ulp (2^-8 relative) either side
  bfloat16: { rtol: 1 / 128, atol: 1e-2 },
  float16: { rtol: 1e-3, atol: 1e-3 },
};

export function resolveFn(path: string): (...args: any[]) => any {
  const parts = path.split(".");
  let obj: any = parts[0] === "F" ? torch.nn.functional : torch;
  for (const p of parts.slice(1)) obj = obj?.[p];
  if (typeof obj !== "function") throw new Error(`no function ${path}`);
  return obj;
}

function decodeArg(v: any, device: string): any {
  if (v && typeof v === "object" && "tensor" in v) return buildWindow(v.tensor, device);
  if (v && typeof v === "object" && "list" in v) return v.list.map((x: any) => decodeArg(x, device));
  if (v && typeof v === "object" && "tuple" in v) return v.tuple.map((x: any) => decodeArg(x, device));
  return v;
}

function summary(r: any): any {
  if (Array.isArray(r)) return { list: r.map(summary) };
  if (typeof r === "number" || typeof r === "boolean") return { scalar: r };
  const t = r as Tensor;
  return { sizes: [...t.shape], strides: t.stride(), dtype: t.dtype.name, values: t.tolist() };
}

function metaSummary(r: any): any {
  if (Array.isArray(r)) return { list: r.map(metaSummary) };
  if (typeof r === "number" || typeof r === "boolean") return { scalar: r };
  const t = r as Tensor;
  return { sizes: [...t.shape], strides: t.stride(), dtype: t.dtype.name };
}

function flat(v: any): any[] {
  return Array.isArray(v) ? v.flatMap(flat) : [v];
}

/** Compares a recorded result with ours: structure exactly, float values within the dtype's tolerance. */
export function expectClose(got: any, want: any, path = "result", tolerance = TOLERANCE): void {
  if (want && "list" in want) {
    expect(got && "list" in got, `${path} is a list`).toBe(true);
    expect(got.list.length, `${path} length`).toBe(want.list.length);
    want.list.forEach((w: any, i: number) => expectClose(got.list[i], w, `${path}[${i}]`, tolerance));
    return;
  }
  if (want && "scalar" in want) {
    expect(got, path).toEqual(want);
    return;
  }
  expect({ sizes: got.sizes, strides: got.strides, dtype: got.dtype }, path).toEqual({ sizes: want.sizes, strides: want.strides, dtype: want.dtype });
  const g = flat(got.values);
  const w = flat(dec(want.values));
  expect(g.length, `${path} numel`).toBe(w.length);
  const tol = tolerance[want.dtype];
  for (let i = 0; i < w.length; i++) {
    const a = g[i], b = w[i];
    if (!tol || typeof b !== "number" || Number.isNaN(b) || !Number.isFinite(b)) {
      if (!Object.is(a, b) && !(a === b)) expect(a, `${path} element ${i}`).toEqual(b);
      continue;
    }
    if (!(Math.abs(a - b) <= tol.atol + tol.rtol * Math.abs(b))) expect(a, `${path} element ${i} (tolerance ${JSON.stringify(tol)})`).toBe(b);
  }
}

function run(c: any, r: any, device: string): { value: unknown; args: any[]; kw: Record<string, any> } {
  const args = r.args.map((a: any) => decodeArg(a, device));
  const kw = Object.fromEntries(Object.entries(r.kwargs).map(([k, v]) => [k, decodeArg(v, device)]));
  const tail = Object.keys(kw).length ? [kw] : [];
  return { value: resolveFn(c.fn)(...args, ...tail), args, kw };
}

/** One recorded call of a case replayed on CPU: its result as the fixture records one (sizes, strides, dtype, values). */
export function replayOnCpu(c: any, r: any): any {
  return summary(run(c, r, "cpu").value);
}

/** One `it` per case and dtype on CPU and one on meta; names in `skip` / `skipMeta` are known differences. */
export function describeNnCases(
  title: string,
  fixture: any,
  known: { skip?: Set<string>; skipMeta?: Set<string>; tolerance?: typeof TOLERANCE; loose?: Set<string> } = {},
): void {
  // `tolerance` tightens (or loosens) the default per dtype; cases in `loose` keep the default
  const strict = { ...TOLERANCE, ...known.tolerance };
  describe(title, () => {
    for (const c of fixture.cases) {
      for (const r of c.results) {
        const tolerance = known.loose?.has(c.name) ? TOLERANCE : strict;
        (known.skip?.has(c.name) ? it.skip : it)(`${c.name} [${r.dtype}]`, () => {
          let mutated: Record<string, any> = {};
          const got = outcome(() => {
            const o = run(c, r, "cpu");
            mutated = Object.fromEntries(c.mutated.map((m: string) => [m, summary(/^\d+$/.test(m) ? o.args[Number(m)] : o.kw[m])]));
            return summary(o.value);
          });
          if ("error" in r.cpu) {
            expect({ error: got.error, message: got.message }).toEqual(r.cpu);
            return;
          }
          if (got.error) expect(got).toEqual(r.cpu); // shows the error
          expectClose(got.value, r.cpu.result, "result", tolerance);
          for (const m of c.mutated) expectClose(mutated[m], r.cpu.after[m], `argument ${m} after the call`, tolerance);
        });
        if (!("meta" in r)) continue;
        (known.skipMeta?.has(c.name) ? it.skip : it)(`${c.name} [${r.dtype}] on meta`, () => {
          const got = outcome(() => metaSummary(run(c, r, "meta").value));
          if ("error" in r.meta) expect({ error: got.error, message: got.message }).toEqual(r.meta);
          else expect(got.error ? got : got.value).toEqual(r.meta);
        });
      }
    }
  });
}
