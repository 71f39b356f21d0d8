// The native prod, all and any (native/cpu/Reductions.cc prod_impl / allany_impl behind prod_stub,
// and_stub and or_stub) against the TypeScript kernels (engine/aten/native/reduce/ReduceOps.ts) and
// PyTorch's fixtures (fixtures/reduce.json, with the native size threshold at 0 so every fixture case
// takes the native kernel). prod multiplies in the TS kernel's order (laneReduce's lanes and blocks over
// the row-major reduced elements, in double, rounded once; int64 exact and wrapping): the same bits. all/any are exact, NaN nonzero,
// -0.0 zero; the blocks of one output may go to both threads. Every dtype, strided inputs, several
// dims, keepdim, out=, 1 and 2 threads.
import { describe, expect, afterEach } from "vitest";
import * as torch from "../../../engine/index.js";
import { nativeSizePolicy } from "../../../engine/aten/native/cpu_native/NativeBackend.js";
import { kernelsRan, nativeIt as native, restoreNativeDefaults, underTs } from "../../support/native_paths.js";
import { reductionFixture } from "../../support/reduce_fixture.js";

afterEach(restoreNativeDefaults);

const bits = (t: torch.Tensor) => ({ dtype: String(t.dtype), shape: [...t.shape], values: t.flatten().tolist() });

function sameAsTs(what: string, f: () => torch.Tensor, stub: string): void {
  const want = underTs(f);
  for (const threads of [1, 2]) {
    torch.set_num_threads(threads);
    expect(kernelsRan(f), what).toContain(`${stub}:native`);
    // toEqual compares numbers with Object.is: NaN matches NaN, -0 does not match 0
    expect(bits(f()), `${what} (${threads} threads)`).toEqual(bits(want));
  }
}

describe("prod", () => {
  native("float32/float64/float16/bfloat16 and integer inputs, dims, strides, keepdim, dtype=: the TS kernel's bits", () => {
    torch.manual_seed(5);
    for (const dtype of [torch.float32, torch.float64, torch.float16, torch.bfloat16]) {
      // factors near 1 keep the products finite over 1000-element rows; a NaN, an inf and a zero row
      const x = torch.rand(40, 1000, { dtype: torch.float64 }).mul(0.2).add(0.9).to(dtype);
      x.set(3, 7, NaN);
      x.set(4, 9, Infinity);
      x.set(5, 11, 0);
      // a float16/bfloat16 result stays the TS kernel's (one rounding from double to 16 bits); their
      // products into float32/float64 are native
      const dt = dtype === torch.float16 || dtype === torch.bfloat16 ? { dtype: torch.float32 } : {};
      sameAsTs(`${dtype} last dim`, () => torch.prod(x, 1, dt), "prod_stub");
      sameAsTs(`${dtype} first dim keepdim`, () => torch.prod(x, 0, true, dt), "prod_stub");
      sameAsTs(`${dtype} transposed`, () => torch.prod(x.t(), 0, dt), "prod_stub");
      sameAsTs(`${dtype} every element`, () => torch.prod(x.get(":", "::3"), dt), "prod_stub");
      if (dtype !== torch.float64) sameAsTs(`${dtype} into float64`, () => torch.prod(x, 1, { dtype: torch.float64 }), "prod_stub");
    }
    for (const dtype of [torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64, torch.bool]) {
      // products of 1..3 over 300 elements wrap int64 many times over
      const x = dtype === torch.bool ? torch.rand(50, 300).gt(0.01) : torch.randint(1, 4, [50, 300], { dtype });
      sameAsTs(`${dtype} into int64 (wrapping)`, () => torch.prod(x, 1), "prod_stub");
      sameAsTs(`${dtype} every element`, () => torch.prod(x), "prod_stub");
      sameAsTs(`${dtype} into float32`, () => torch.prod(x, 0, { dtype: torch.float32 }), "prod_stub");
    }
    const big = torch.randint(1, 4, [64, 64], { dtype: torch.int64 });
    expect(torch.prod(big).item()).toBe(underTs(() => torch.prod(big)).item());
  });

  native("out= of another strided tensor", () => {
    const x = torch.rand(30, 40).add(0.5);
    const run = () => {
      const out = torch.zeros(40, 2).get(":", 0);
      torch.prod(x, 0, { out });
      return out;
    };
    sameAsTs("strided out=", run, "prod_stub");
  });
});

describe("all and any", () => {
  native("every dtype, NaN nonzero, -0.0 zero, dims, strides, keepdim, uint8 results", () => {
    torch.manual_seed(6);
    const dtypes = [torch.float32, torch.float64, torch.float16, torch.bfloat16, torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64, torch.bool];
    for (const dtype of dtypes) {
      // mostly nonzero: row 2 all nonzero, row 3 one zero at the end, row 4 all zero but one
      const x = torch.randint(1, 3, [20, 70000 / 20]).to(dtype);
      x.set(3, -1, 0);
      x.set(4, ":", 0);
      x.set(4, 100, 1);
      if (dtype.is_floating_point) {
        x.set(5, ":", -0);
        x.set(6, ":", 0);
        x.set(6, 5, NaN);
      }
      for (const [name, stub, f] of [["all", "and_stub", torch.all], ["any", "or_stub", torch.any]] as const) {
        sameAsTs(`${dtype} ${name} rows`, () => (f as any)(x, 1), stub);
        sameAsTs(`${dtype} ${name} columns keepdim`, () => (f as any)(x, 0, true), stub);
        sameAsTs(`${dtype} ${name} every element`, () => (f as any)(x), stub);
        sameAsTs(`${dtype} ${name} strided`, () => (f as any)(x.t().get("::2"), 0), stub);
      }
    }
    // one output over many blocks: the deciding element in the last block, and in none
    const ones = torch.ones(1 << 20);
    expect(torch.all(ones).item()).toBe(true);
    ones.set(-1, 0);
    expect(torch.all(ones).item()).toBe(false);
    expect(torch.any(torch.zeros(1 << 20)).item()).toBe(false);
  });
});

describe("prod, all and any on PyTorch's fixtures, native kernels", () => {
  const tolerance = (op: string, dtype: string) =>
    op !== "prod" ? 0 : (({ float32: 1e-6, float64: 1e-12, float16: 1e-3, bfloat16: 1e-2 } as Record<string, number>)[dtype] ?? 0);
  const { F, invoke, expectOutcome, describeCall } = reductionFixture("reduce.json", tolerance, { namedPairs: true });
  const cases = F.cases.filter((c) => c.group === "prod" || c.group === "all" || c.group === "any");
  native(`${cases.length} fixture cases`, () => {
    expect(cases.length).toBeGreaterThan(20);
    const threshold = nativeSizePolicy.minNumel;
    nativeSizePolicy.minNumel = 0;
    let ranNative = 0;
    try {
      for (const c of cases) {
        const f = invoke(c.call);
        if (c.result.error === undefined && kernelsRan(f).some((k) => k.endsWith(":native"))) ranNative++;
        expectOutcome(describeCall(c.call), f, c.result, c.call.name);
      }
    } finally {
      nativeSizePolicy.minNumel = threshold;
    }
    expect(ranNative).toBeGreaterThan(cases.length / 2);
  });
});
