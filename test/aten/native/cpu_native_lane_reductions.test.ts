// prod and the vector norms over several blocks: native/cpu/Reductions.cc lane_reduce (blocks of 32768
// elements, 64 lanes each, the lanes combined pairwise, the blocks in order) against the TS kernels,
// which take the same order (reduce/ReduceUtils.ts laneReduce): every bit, on every unit and 1 and 2
// threads, for one output over many blocks, strided runs that cross the blocks' edges, NaN, inf and
// zeros in different blocks. Then PyTorch's values (fixtures/lane_reductions.json, whose script builds
// the input from a formula) within a rounding bound: PyTorch multiplies float32 in float32 and sums
// the norms in its own lanes or one chain.
import { readFileSync } from "node:fs";
import { describe, expect, afterEach, it } from "vitest";
import * as torch from "../../../engine/index.js";
import { _set_native_isa } from "../../../engine/aten/native/cpu_native/NativeBackend.js";
import { kernelsRan, nativeIt as native, restoreNativeDefaults, runnableIsas, underTs } from "../../support/native_paths.js";

afterEach(restoreNativeDefaults);

const values = (t: torch.Tensor) => ({ dtype: String(t.dtype), shape: [...t.shape], values: t.flatten().tolist() });

/** f() on the native kernel (every unit, 1 and 2 threads) has the TS kernel's every bit. */
function sameAsTs(what: string, f: () => torch.Tensor, stub: string): void {
  const want = underTs(f);
  expect(kernelsRan(f), what).toContain(`${stub}:native`);
  for (const isa of runnableIsas()) {
    _set_native_isa(isa);
    for (const threads of [1, 2]) {
      torch.set_num_threads(threads);
      // toEqual compares numbers with Object.is: NaN matches NaN, -0 does not match 0
      expect(values(f()), `${what} [${isa}, ${threads} threads]`).toEqual(values(want));
    }
  }
}

/** The fixture's input: x[i] = 1 + ((i * 7919) % 1000 - 500) * scale in double, rounded to dtype, as [rows, cols]. */
function formula(rows: number, cols: number, scale: number, dtype: torch.dtype): torch.Tensor {
  const a = new Float64Array(rows * cols);
  for (let i = 0; i < a.length; i++) a[i] = 1 + (((i * 7919) % 1000) - 500) * scale;
  return torch.tensor(Array.from(a), { dtype: torch.float64 }).to(dtype).reshape(rows, cols);
}

describe("prod over several blocks: native vs TS", () => {
  native("float32/float64, one output over every block, strided runs across the blocks' edges, columns", () => {
    for (const dtype of [torch.float32, torch.float64]) {
      const p = formula(300, 401, 1e-5, dtype);
      sameAsTs(`${dtype} all`, () => torch.prod(p), "prod_stub");
      sameAsTs(`${dtype} runs of 200 every other column`, () => torch.prod(p.get(":", "1::2")), "prod_stub");
      sameAsTs(`${dtype} transposed, dim 1`, () => torch.prod(p.t(), 1), "prod_stub");
      sameAsTs(`${dtype} into float64`, () => torch.prod(p, { dtype: torch.float64 }), "prod_stub");
      // a zero in the first block and an inf in the third: NaN; the zero alone: 0; the inf alone: inf
      const z = p.clone();
      z.set(10, 10, 0);
      sameAsTs(`${dtype} a zero`, () => torch.prod(z), "prod_stub");
      z.set(250, 3, Infinity);
      sameAsTs(`${dtype} a zero and an inf`, () => torch.prod(z), "prod_stub");
      expect(Number.isNaN(torch.prod(z).item())).toBe(true);
      const n = p.clone();
      n.set(299, 400, NaN);
      sameAsTs(`${dtype} NaN in the last block`, () => torch.prod(n), "prod_stub");
    }
    // integers: exact and wrapping, so any order is the TS kernel's
    const k = torch.randint(1, 4, [300, 401], { dtype: torch.int64 });
    sameAsTs("int64 all (wrapping)", () => torch.prod(k), "prod_stub");
    sameAsTs("int32 strided", () => torch.prod(k.to(torch.int32).get(":", "1::2")), "prod_stub");
  });
});

describe("vector norms over several blocks: native vs TS", () => {
  native("ord 2, 1, 0, +-inf; float32, float32 into float64, float64; full, strided, columns", () => {
    for (const dtype of [torch.float32, torch.float64]) {
      const x = formula(300, 401, 1e-3, dtype).sub(1).mul(1000);  // integers -500..499: zeros included
      const o = { dtype: torch.float64 };
      for (const ord of [2, 1, 0, Infinity, -Infinity]) {
        sameAsTs(`${dtype} ord ${ord} all`, () => torch.linalg.vector_norm(x, ord), "norm_stub");
        sameAsTs(`${dtype} ord ${ord} runs of 200`, () => torch.linalg.vector_norm(x.get(":", "1::2"), ord), "norm_stub");
        sameAsTs(`${dtype} ord ${ord} dim 0`, () => torch.linalg.vector_norm(x, ord, [0]), "norm_stub");
        if (dtype === torch.float32) sameAsTs(`float32 ord ${ord} into float64`, () => torch.linalg.vector_norm(x, ord, null, false, o), "norm_stub");
      }
      const y = x.add(0.25);  // no zeros: ord -inf is the smallest |x|
      y.set(200, 100, NaN);
      for (const ord of [2, Infinity, -Infinity]) sameAsTs(`${dtype} ord ${ord} NaN`, () => torch.linalg.vector_norm(y, ord), "norm_stub");
      sameAsTs(`${dtype} torch.norm`, () => torch.norm(y.nan_to_num(0)), "norm_stub");
    }
  });
});

describe("prod and vector norms over several blocks against PyTorch", () => {
  const F = JSON.parse(readFileSync(new URL("../../fixtures/lane_reductions.json", import.meta.url), "utf8"));
  // PyTorch's float32 products and sums round in float32 along chains of up to 120300 steps (its float32
  // product of the 120300 factors is 7.7e-4 off the exact one): a relative 2e-3 holds them; the
  // float64 computation of the same elements (`wide`) is nearly exact, and ours keeps within 2e-6 of it
  // (float64: 1e-12 of both)
  const tol = (dtype: string) => (dtype === "float32" ? 2e-3 : 1e-12);
  const tolWide = (dtype: string) => (dtype === "float32" ? 2e-6 : 1e-12);
  it(`${F.cases.length} cases: the native kernel where it runs, else TS`, () => {
    expect(F.cases.length).toBeGreaterThan(40);
    for (const c of F.cases) {
      const dtype = (torch as any)[c.dtype] as torch.dtype;
      const x = formula(F.rows, F.cols, c.op === "prod" ? 1e-7 : 1e-3, dtype);
      const word = c.op === "prod" ? "0" : c.name.split(" ")[1];
      const ord = word === "inf" ? Infinity : word === "-inf" ? -Infinity : Number(word);
      const input = c.name.endsWith("strided") ? x.get(":", "1::2") : x;
      const r = c.op === "prod"
        ? (c.name === "dim0" ? torch.prod(input, 0) : torch.prod(input))
        : c.name.endsWith("dim0") ? torch.linalg.vector_norm(input, ord, [0]) : torch.linalg.vector_norm(input, ord);
      expect([...r.shape], `${c.op} ${c.name} ${c.dtype}`).toEqual(c.shape);
      const got = r.flatten().tolist() as number[];
      got.forEach((v, i) => {
        const want = c.values[i] as number;
        const wide = c.wide[i] as number;
        expect(Math.abs(v - want), `${c.op} ${c.name} ${c.dtype} [${i}]: ${v} vs ${want}`).toBeLessThanOrEqual(tol(c.dtype) * Math.abs(want));
        expect(Math.abs(v - wide), `${c.op} ${c.name} ${c.dtype} [${i}]: ${v} vs ${wide} (float64)`).toBeLessThanOrEqual(tolWide(c.dtype) * Math.abs(wide));
      });
    }
  });
});
