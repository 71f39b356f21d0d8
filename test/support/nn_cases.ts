// Replays fixtures written through test/fixtures/_nn_cases.py (activation.json, loss.json): each case
// per dtype calls torch.* / torch._C._nn / torch.nn.functional / a Tensor method, on CPU (sizes, strides,
// dtype, values within the case's tolerance in ulps, whether the result is the first argument itself,
// the UserWarnings raised) and on meta (sizes, strides, dtype), or checks PyTorch's error.
import { describe, it, expect, vi } from "vitest";
import * as torch from "../../engine/index.js";
import type { Tensor } from "../../engine/aten/core/Tensor.js";
import { dec, outcome } from "./fixtures.js";
import { buildWindow, dtypeNamed } from "./windows.js";

const T = torch as any;

function decodeArg(v: any, device: string): any {
  if (v && typeof v === "object" && "tensor" in v) return buildWindow(v.tensor, device);
  if (v && typeof v === "object" && "dtype_name" in v) return dtypeNamed(v.dtype_name);
  if (v && typeof v === "object" && "list" in v) return v.list.map((x: any) => decodeArg(x, device));
  return v;
}

function resolve(fn: string, args: any[]): [(...a: any[]) => any, any[]] {
  const [ns, name, ...more] = fn.split(".");
  if (ns === "method") return [(...a: any[]) => args[0][name](...a), args.slice(1)];
  if (ns === "ops") {
    const overload = more.reduce((o: any, part) => o?.[part], T.ops[name]);
    if (!overload) throw new Error(`no torch.${fn} in Glasstorch`);
    return [(...a: any[]) => overload.call(...a), args];
  }
  const mod = { torch: T, nn: T._C._nn, F: T.nn.functional }[ns] as any;
  if (typeof mod[name] !== "function") throw new Error(`no ${fn} in Glasstorch`);
  return [mod[name], args];
}

function call(c: any, r: any, device: string): { value: any; first: any } {
  const args = r.args.map((a: any) => decodeArg(a, device));
  const kw = Object.fromEntries(Object.entries(r.kwargs).map(([k, v]) => [k, decodeArg(v, device)]));
  const [f, rest] = resolve(c.fn, args);
  if (c.seed !== null) torch.manual_seed(c.seed);
  const value = f(...rest, ...(Object.keys(kw).length ? [kw] : []));
  return { value, first: args[0] };
}

function summary(r: any, first: any, withValues: boolean): any {
  if (Array.isArray(r)) return { list: r.map((t) => summary(t, first, withValues)) };
  const t = r as Tensor;
  const s: any = { sizes: [...t.shape], strides: t.stride(), dtype: t.dtype.name, is_input: t === first };
  if (withValues) s.values = t.tolist();
  return s;
}

/** The spacing of floating-point numbers of `dtype` at x (float64: 2^-52 relative; float32 2^-23; ...). */
function ulp(x: number, dtype: string): number {
  const bits: Record<string, [number, number]> = { float64: [52, -1074], float32: [23, -149], float16: [10, -24], bfloat16: [7, -133] };
  const [mant, tiny] = bits[dtype] ?? [0, 0];
  if (!Number.isFinite(x) || x === 0) return 2 ** tiny;
  return Math.max(2 ** (Math.floor(Math.log2(Math.abs(x))) - mant), 2 ** tiny);
}

function flat(v: any): any[] {
  return Array.isArray(v) ? v.flatMap(flat) : [v];
}

/** Values equal (NaN = NaN, -0 = 0 unless exact), or within `ulps` of PyTorch's at its magnitude. */
function expectClose(got: any, want: any, dtype: string, ulps: number, where: string): void {
  const g = flat(got), w = flat(dec(want));
  expect(g.length, where).toBe(w.length);
  g.forEach((a, i) => {
    const b = w[i];
    if (typeof b !== "number" || ulps === 0) return expect(a, `${where}[${i}]`).toEqual(b);
    if (Number.isNaN(b)) return expect(a, `${where}[${i}]`).toBeNaN();
    if (!Number.isFinite(b)) return expect(a, `${where}[${i}]`).toBe(b);
    expect(Math.abs(a - b), `${where}[${i}]: ${a} vs ${b}`).toBeLessThanOrEqual(ulps * ulp(b, dtype));
  });
}

function compare(got: any, want: any, ulps: number, where: string): void {
  if ("list" in want) {
    expect(got.list?.length, where).toBe(want.list.length);
    want.list.forEach((w: any, i: number) => compare(got.list[i], w, ulps, `${where}.${i}`));
    return;
  }
  const { values, ...meta } = got;
  const { values: wantValues, ...wantMeta } = want;
  expect(meta, where).toEqual(wantMeta);
  if (wantValues !== undefined) expectClose(values, wantValues, want.dtype, ulps, where);
}

/**
 * "Could not run 'aten::x' with arguments from the 'Meta' backend. ... is only available for these
 * backends: [...]" and where each kernel was registered: the list names every dispatch key PyTorch has
 * (functorch's among them) and PyTorch's source lines, so the comparison stops before it.
 */
function backendListCut(message: string | undefined): string | undefined {
  return message?.replace(/is only available for these backends:[\s\S]*$/, "is only available for these backends: [...]");
}

/** TORCH_WARN's " (Triggered internally at  <file>:<line>.)": the C++ source location is not compared. */
const withoutSource = (w: string) => w.replace(/ \(Triggered internally at .*\)$/s, "");

/** Runs fn with process.emitWarning captured: the UserWarning texts it raised (Python's warnings.warn). */
function withWarnings<R>(fn: () => R): { got: R; warnings: string[] } {
  const spy = vi.spyOn(process, "emitWarning").mockImplementation(() => {});
  try {
    const got = fn();
    const warnings = spy.mock.calls.filter((a) => a[1] === "UserWarning").map((a) => withoutSource(String(a[0])));
    return { got, warnings };
  } finally {
    spy.mockRestore();
  }
}

/**
 * One `it` per case and dtype on CPU and one on meta; entries of `skip` / `skipMeta` ("name" or
 * "name [dtype]") are known differences.
 */
export function describeNNCases(title: string, cases: any[], known: { skip?: Set<string>; skipMeta?: Set<string> } = {}): void {
  describe(title, () => {
    for (const c of cases) {
      for (const r of c.results) {
        const skipped = (set?: Set<string>) => !!set && (set.has(c.name) || set.has(`${c.name} [${r.dtype}]`));
        (skipped(known.skip) ? it.skip : it)(`${c.name} [${r.dtype}]`, () => {
          const { got, warnings } = withWarnings(() =>
            outcome(() => {
              const o = call(c, r, "cpu");
              return summary(o.value, o.first, true);
            }),
          );
          if ("error" in r.cpu) return expect({ error: got.error, message: got.message }).toEqual(r.cpu);
          expect(got.error ? got : "ok").toBe("ok");
          compare(got.value, r.cpu, c.ulps, c.name);
          expect(warnings).toEqual(r.warnings.map(withoutSource));
        });
        if (!("meta" in r)) continue;
        (skipped(known.skipMeta) ? it.skip : it)(`${c.name} [${r.dtype}] on meta`, () => {
          const { got } = withWarnings(() =>
            outcome(() => {
              const o = call(c, r, "meta");
              return summary(o.value, o.first, false);
            }),
          );
          if ("error" in r.meta) expect({ error: got.error, message: backendListCut(got.message) }).toEqual({ ...r.meta, message: backendListCut(r.meta.message) });
          else expect(got.error ? got : got.value).toEqual(r.meta);
        });
      }
    }
  });
}
