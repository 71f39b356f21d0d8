// torch.rand / randn / randint / randperm / Generator through the public API, against PyTorch 1.13's
// streams (test/fixtures/random.json). The kernels are tested value by value in cpu/DistributionKernels.test.ts;
// this checks the torch-level wiring: seeding, dtypes, sizes, generators and state round trips.
import { describe, it, expect } from "vitest";
import * as torch from "../../engine/index.js";
import { loadFixture, outcome } from "../support/fixtures.js";

const R = loadFixture("random.json");
const dt = (name: string) => (torch as any)[name] as torch.dtype;


function checkAgainst(rec: any, t: torch.Tensor) {
  const got = t.tolist() as number[];
  expect(got.length).toBe(rec.n);
  if (rec.values) return expect(got).toEqual(rec.values);
  expect(got.slice(0, rec.head.length)).toEqual(rec.head);
  expect(got.slice(-rec.tail.length)).toEqual(rec.tail);
  expect(got.filter((_, i) => i % rec.stride === 0).slice(0, rec.strided.length)).toEqual(rec.strided);
}

function run(rec: any, generator?: torch.Generator): torch.Tensor {
  const o = { dtype: dt(rec.dtype), generator };
  switch (rec.op) {
    case "rand": return torch.rand(rec.n, o);
    case "randn": return torch.randn(rec.n, o);
    case "randint": return torch.randint(rec.params.low, rec.params.high, [rec.n], o);
    case "randperm": return torch.randperm(rec.n, { generator });
    default: throw new Error(rec.op);
  }
}

// float32 randn and every rand/randint/randperm reproduce exactly (float64 normals are 1-ulp bounded: see the kernel tests)
const exact = R.cases.filter((c: any) => ["rand", "randint", "randperm"].includes(c.op) || (c.op === "randn" && c.dtype === "float32"));

describe("torch-level random functions reproduce PyTorch's streams", () => {
  const bySeed = new Map<string, any[]>();
  for (const c of exact) bySeed.set(`${c.op} ${c.dtype} seed ${c.seed}`, [...(bySeed.get(`${c.op} ${c.dtype} seed ${c.seed}`) ?? []), c]);
  for (const [name, recs] of bySeed) {
    it(name, () => {
      for (const rec of recs) {
        torch.manual_seed(rec.seed);
        checkAgainst(rec, run(rec));
      }
    });
  }

  it("a torch.Generator gives the same stream as the default generator for the same seed", () => {
    const rec = exact.find((c: any) => c.op === "randn" && c.n === 1000);
    checkAgainst(rec, run(rec, new torch.Generator().manual_seed(rec.seed)));
  });

  it("a fresh torch.Generator starts at PyTorch's default seed", () => {
    const g = new torch.Generator();
    expect(String(g.initial_seed())).toBe(R.fresh_generator.initial_seed);
    expect(torch.rand(5, { generator: g }).tolist()).toEqual(R.fresh_generator.rand5);
  });

  for (const seq of R.sequences.filter((s: any) => s.name === "mt_blocks")) {
    it(`a sequence of calls after manual_seed(${seq.seed}) continues the stream`, () => {
      torch.manual_seed(seq.seed);
      for (const step of seq.steps) {
        const t = run({ ...step, seed: seq.seed });
        checkAgainst(step, t);
      }
    });
  }

  it("get_rng_state is byte-identical to PyTorch's and set_rng_state restores it", () => {
    const s = R.states[0];
    torch.manual_seed(s.seed);
    const state = torch.get_rng_state();
    expect(state.dtype).toBe(torch.uint8);
    expect(Buffer.from(state.tolist() as number[]).toString("hex")).toBe(s.after_seed);
    const a = torch.rand(10).tolist();
    torch.set_rng_state(state);
    expect(torch.rand(10).tolist()).toEqual(a);
  });

  it("multinomial takes replacement as a keyword (Python's replacement=True) and rejects it twice", () => {
    const p = torch.tensor([0.1, 0.0, 0.6, 0.3]);
    const draw = (f: (g: torch.Generator) => torch.Tensor) => f(new torch.Generator().manual_seed(3)).tolist();
    const positional = draw((g) => torch.multinomial(p, 50, true, { generator: g }));
    expect(draw((g) => torch.multinomial(p, 50, { replacement: true, generator: g }))).toEqual(positional);
    expect(draw((g) => p.multinomial(50, { replacement: true, generator: g }))).toEqual(positional);
    expect((positional as number[]).includes(1)).toBe(false); // a zero weight is never drawn
    // 50 > 4 categories: only possible with replacement
    expect(() => torch.multinomial(p, 50, { replacement: false })).toThrow("cannot sample n_sample > prob_dist.size(-1) samples without replacement");
    expect(() => torch.multinomial(p, 2, true, { replacement: true })).toThrow("multinomial() got multiple values for argument 'replacement'");
  });

  it("randint errors are PyTorch's", () => {
    expect(outcome(() => torch.randint(5, 5, [3]))).toEqual(R.errors.randint_equal);
    expect(outcome(() => torch.rand(2, { dtype: torch.int64 }))).toEqual({ error: "RuntimeError", message: `"check_uniform_bounds" not implemented for 'Long'` });
  });

  it("sizes, dtype and requires_grad options apply", () => {
    torch.manual_seed(0);
    const t = torch.randn(2, 3, { dtype: torch.float64, requires_grad: true });
    expect([...t.shape]).toEqual([2, 3]);
    expect(t.dtype).toBe(torch.float64);
    expect(t.requires_grad).toBe(true);
    expect(torch.randint(10, [4]).dtype).toBe(torch.int64);
    expect(torch.rand_like(t).shape).toEqual(t.shape);
    expect(torch.randint_like(t, 3).dtype).toBe(torch.float64);
  });

  it("in-place random methods bump the version counter", () => {
    const t = torch.empty(4);
    const v = t._version;
    t.normal_();
    t.uniform_(-1, 1);
    expect(t._version).toBe(v + 2);
  });
});

