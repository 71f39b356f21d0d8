// The native random kernels (native/cpu/Random.cc, registered by cpu_native/NativeRandom.ts) against the
// TypeScript ones: the same values bit for bit AND the same generator state afterwards, so that native and
// TypeScript draws interleave into one stream and get_rng_state / set_rng_state see every draw. The
// PyTorch streams themselves are checked by test/aten/Distributions.test.ts, which vitest.config.ts runs
// on both paths.
import { describe, it, expect, afterEach } from "vitest";
import * as torch from "../../../engine/index.js";
import { set_cpu_capability } from "../../../engine/aten/native/DispatchStub.js";
import { nativeAddon, _set_native_isa } from "../../../engine/aten/native/cpu_native/NativeBackend.js";
import { uniform_fill_stub, normal_fill_stub, random_from_to_fill_stub, randperm_fill_stub } from "../../../engine/aten/native/random/RandomStubs.js";
import { CPUGeneratorImpl } from "../../../engine/aten/core/CPUGeneratorImpl.js";
import * as K from "../../../engine/aten/cpu/DistributionKernels.js";

const status = torch._C._native_status();
const native = status.loaded ? it : it.skip;

afterEach(() => {
  set_cpu_capability(null);
  if (status.loaded) _set_native_isa(status.addon!.best_capability as any);
});

type Impl = "ts" | "native";

function under<T>(impl: Impl, f: () => T): T {
  set_cpu_capability(impl);
  try {
    return f();
  } finally {
    set_cpu_capability(null);
  }
}

/** The raw bytes of a tensor's elements, base64 (so -0, NaN and float rounding all count, and compare fast). */
function raw(t: torch.Tensor): string {
  const c = t.contiguous();
  const impl = c._impl;
  const bytes = new Uint8Array(impl.storage.buffer(), impl.storage_offset() * impl.dtype.itemsize, c.numel() * impl.dtype.itemsize);
  return `${c.dtype.name}[${c.numel()}]:` + Buffer.from(bytes).toString("base64");
}

function rngBytes(): number[] {
  return torch.get_rng_state().tolist() as number[];
}

/** Runs f after manual_seed(seed) on one implementation: the values and the generator state afterwards. */
function sample(impl: Impl, seed: number, f: () => torch.Tensor): { values: string; rng: number[] } {
  return under(impl, () => {
    torch.manual_seed(seed);
    const t = f();
    return { values: raw(t), rng: rngBytes() };
  });
}

function sameOnBoth(f: () => torch.Tensor, seed = 7): string {
  const a = sample("native", seed, f);
  const b = sample("ts", seed, f);
  expect(a.values).toEqual(b.values);
  expect(a.rng).toEqual(b.rng);
  return a.values;
}

describe("registration", () => {
  native("the addon provides every bulk random kernel", () => {
    for (const s of [uniform_fill_stub, normal_fill_stub, random_from_to_fill_stub, randperm_fill_stub]) expect(s.has("native")).toBe(true);
  });
});

describe("native and TypeScript draw the same values and leave the same state", { timeout: 60_000 }, () => {
  // sizes: empty, 1, below and above normal's 16-element vector path, not multiples of 16,
  // and past the 624-word block boundaries
  const sizes = [0, 1, 15, 16, 17, 31, 32, 33, 623, 624, 625, 1000, 4097, 70001];

  native("rand float32 and float64, torch.rand and uniform_(from, to)", () => {
    for (const n of sizes) {
      for (const dtype of [torch.float32, torch.float64]) {
        sameOnBoth(() => torch.rand(n, { dtype }));
        sameOnBoth(() => torch.empty(n, { dtype }).uniform_(-2.5, 3.25));
        sameOnBoth(() => torch.empty(n, { dtype }).uniform_(1e-3, 1e-3)); // an empty range
      }
    }
  });

  native("randn float32 (normal_fill_AVX2 for n >= 16, per-element Box-Muller below), with mean and std", () => {
    for (const n of sizes) {
      sameOnBoth(() => torch.randn(n));
      sameOnBoth(() => torch.empty(n).normal_(3.5, 0.25));
      sameOnBoth(() => torch.normal(-1, 2, [n]));
    }
  });

  native("randn of other dtypes, and the cached Box-Muller sample, stay on one stream", () => {
    for (const n of [1, 3, 16, 33]) {
      for (const dtype of [torch.float64, torch.float16, torch.bfloat16]) {
        // an odd per-element normal leaves a cached sample; the next float32 fill must not consume it
        sameOnBoth(() => {
          torch.randn(3, { dtype });
          return torch.cat([torch.randn(n).to(torch.float64), torch.randn(5, { dtype }).to(torch.float64)]);
        });
      }
    }
  });

  native("randint into every dtype (32-bit draws; 64-bit draws for ranges >= 2^32 stay in TypeScript)", () => {
    const dtypes = [torch.int64, torch.int32, torch.int16, torch.int8, torch.uint8, torch.float32, torch.float64, torch.float16, torch.bfloat16];
    for (const dtype of dtypes) {
      for (const n of [0, 1, 17, 1000, 5000]) {
        sameOnBoth(() => torch.randint(0, 100, [n], { dtype }));
        sameOnBoth(() => (dtype === torch.uint8 ? torch.randint(7, 29, [n], { dtype }) : torch.randint(-7, 9, [n], { dtype })));
        sameOnBoth(() => torch.randint(3, [n], { dtype }));
      }
    }
    for (const n of [1, 1000]) {
      // large ranges and bases: exact int64 values, float rounding, int32 wrap
      sameOnBoth(() => torch.randint(-(2 ** 40), -(2 ** 40) + 2 ** 32 - 1, [n]));
      sameOnBoth(() => torch.randint(2 ** 50, 2 ** 50 + 12345, [n], { dtype: torch.float64 }));
      sameOnBoth(() => torch.randint(2 ** 30, 2 ** 31 - 1, [n], { dtype: torch.int32 }));
      sameOnBoth(() => torch.randint(0, 2 ** 24 + 3, [n], { dtype: torch.float32 }));
      sameOnBoth(() => torch.randint(0, 2 ** 33, [n])); // 64-bit draws: TypeScript on both sides
      sameOnBoth(() => torch.empty(n, { dtype: torch.int64 }).random_(-5, 5));
      sameOnBoth(() => torch.empty(n, { dtype: torch.int32 }).random_(1000));
    }
  });

  native("randperm", () => {
    for (const n of [0, 1, 2, 3, 100, 625, 1000, 70000]) {
      const v = sameOnBoth(() => torch.randperm(n));
      if (n > 0) {
        const t = torch.randperm(n);
        expect([...(t.sort().values.tolist() as number[])]).toEqual(Array.from({ length: n }, (_, i) => i));
      }
      expect(v.startsWith(`int64[${n}]:`)).toBe(true);
    }
    sameOnBoth(() => torch.randperm(50, { dtype: torch.float32 })); // other dtypes: TypeScript
  });

  native("bernoulli_(p) into every dtype it takes natively, and dropout's mask; strided selves stay in TypeScript", () => {
    for (const n of sizes) {
      for (const dtype of [torch.float32, torch.float64, torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64, torch.bool]) {
        for (const p of [0, 0.3, 1]) sameOnBoth(() => torch.empty(n, { dtype }).bernoulli_(p));
      }
    }
    sameOnBoth(() => torch.nn.functional.dropout(torch.ones(5000), 0.25, true));
    sameOnBoth(() => torch.bernoulli(torch.ones(3, 700), 0.6));
    sameOnBoth(() => torch.zeros(30, 40).t().bernoulli_(0.5)); // (non-contiguous: the TS kernel)
    // the native kernel ran for the contiguous case
    const ran = torch.trace.record(() => torch.empty(100).bernoulli_(0.5)).events.filter((e: any) => e.type === "kernel").map((e: any) => `${e.stub}:${e.impl}`);
    expect(ran).toEqual(["bernoulli_scalar_stub:native"]);
  });

  native("torch.bernoulli(probs) and bernoulli_(p_tensor): float32, float64, bfloat16 probabilities into every dtype it takes natively", () => {
    for (const n of sizes) {
      for (const pdtype of [torch.float32, torch.float64, torch.bfloat16]) {
        const probs = () => torch.rand(n).to(pdtype); // (drawn after the seed: part of the stream both sides replay)
        sameOnBoth(() => torch.bernoulli(probs()));
        sameOnBoth(() => torch.cat([torch.bernoulli(probs()), torch.rand(5).to(pdtype)])); // the stream continues in TypeScript
        for (const dtype of [torch.float64, torch.uint8, torch.int32, torch.int64, torch.bool]) {
          sameOnBoth(() => torch.empty(n, { dtype }).bernoulli_(probs()));
        }
      }
    }
    const p = torch.rand(40, 30);
    sameOnBoth(() => torch.bernoulli(p.t())); // (non-contiguous probabilities: the TS kernel)
    sameOnBoth(() => torch.empty(40, 30).bernoulli_(torch.rand(30))); // (expanded probabilities: the TS kernel)
    const ran = torch.trace.record(() => torch.bernoulli(p)).events.filter((e: any) => e.type === "kernel").map((e: any) => `${e.stub}:${e.impl}`);
    expect(ran).toContain("bernoulli_tensor_stub:native");
    // a probability outside [0, 1] declines before any draw: PyTorch's error, the state as the TS kernel leaves it
    for (const impl of ["native", "ts"] as const) {
      expect(() => under(impl, () => torch.bernoulli(torch.tensor([0.5, 1.5])))).toThrow("Expected p_in >= 0 && p_in <= 1 to be true");
    }
    sameOnBoth(() => {
      try {
        torch.bernoulli(torch.tensor([0.25, NaN, 0.5]));
      } catch {
        /* both sides raise here; the draws after it must match */
      }
      return torch.rand(10);
    });
  });

  native("multinomial with replacement: float32 and float64 rows, zero weights, the stream after it; rejected rows raise after the same draws", () => {
    for (const dtype of [torch.float32, torch.float64]) {
      for (const [rows, cats, n] of [[1, 1000, 1000], [3, 7, 50], [2, 1, 5], [4, 300, 17], [1, 2, 700]]) {
        // weights drawn after the seed (part of the replayed stream), a third of them zero
        const probs = () => torch.rand(rows, cats, { dtype }).mul(torch.rand(rows, cats).gt(0.3)).add(torch.eye(rows, cats, { dtype }));
        sameOnBoth(() => torch.cat([torch.multinomial(probs(), n, { replacement: true }).flatten().to(torch.float64), torch.rand(5, { dtype: torch.float64 })]));
        sameOnBoth(() => torch.multinomial(probs().select(0, 0), n, true));
      }
    }
    sameOnBoth(() => torch.multinomial(torch.rand(6, 5).t(), 40, true)); // (non-contiguous probabilities: the TS kernel)
    sameOnBoth(() => torch.multinomial(torch.rand(3, 5).to(torch.bfloat16), 40, true)); // (bfloat16: the TS kernel)
    const ran = torch.trace.record(() => torch.multinomial(torch.rand(10), 4, { replacement: true })).events.filter((e: any) => e.type === "kernel").map((e: any) => `${e.stub}:${e.impl}`);
    expect(ran).toContain("multinomial_with_replacement_stub:native");
    const bad: [number[][], string][] = [
      [[[0.5, 0.5], [0, 0]], "invalid multinomial distribution (sum of probabilities <= 0)"],
      [[[0.5, 0.5], [1, -1]], "invalid multinomial distribution (encountering probability entry < 0)"],
      [[[0.5, 0.5], [1, Infinity]], "invalid multinomial distribution (encountering probability entry = infinity or NaN)"],
    ];
    for (const [p, msg] of bad) {
      for (const impl of ["native", "ts"] as const) expect(() => under(impl, () => torch.multinomial(torch.tensor(p), 3, true))).toThrow(msg);
      sameOnBoth(() => {
        try {
          torch.multinomial(torch.tensor(p), 3, true);
        } catch {
          /* both sides raise after drawing the first row; the draws after it must match */
        }
        return torch.rand(10);
      });
    }
  });

  native("non-contiguous and offset outputs", () => {
    // a transposed tensor takes the element-by-element path; a contiguous narrow() writes at its storage offset
    sameOnBoth(() => torch.empty(40, 30).t().uniform_());
    sameOnBoth(() => torch.empty(40, 30).t().normal_(1, 2));
    sameOnBoth(() => torch.empty(40, 30, { dtype: torch.int64 }).t().random_(0, 10));
    for (const n of [5, 16, 37]) {
      sameOnBoth(() => {
        const base = torch.zeros(n + 20);
        base.narrow(0, 11, n).normal_();
        return base; // the 11 elements before and 9 after must stay 0
      });
      sameOnBoth(() => {
        const base = torch.zeros(n + 20, { dtype: torch.float64 });
        base.narrow(0, 3, n).uniform_(2, 4);
        return base;
      });
      sameOnBoth(() => {
        const base = torch.zeros(n + 20, { dtype: torch.int64 });
        base.narrow(0, 7, n).random_(-3, 3);
        return base;
      });
    }
    const base = torch.zeros(60);
    base.narrow(0, 11, 37).normal_();
    expect((base.narrow(0, 0, 11).tolist() as number[]).every((x) => x === 0)).toBe(true);
    expect((base.narrow(0, 48, 12).tolist() as number[]).every((x) => x === 0)).toBe(true);
  });
});

describe("one stream across implementations", () => {
  const steps: [string, () => torch.Tensor][] = [
    ["rand 700", () => torch.rand(700)],
    ["randn 37", () => torch.randn(37)],
    ["randint 1000", () => torch.randint(0, 10, [1000])],
    ["randn 5 float64", () => torch.randn(5, { dtype: torch.float64 })],
    ["randperm 300", () => torch.randperm(300)],
    ["rand 13 float64", () => torch.rand(13, { dtype: torch.float64 })],
    ["randn 1000", () => torch.randn(1000)],
    ["randint 3 int32", () => torch.randint(-50, 50, [3], { dtype: torch.int32 })],
  ];

  function runSequence(pick: (i: number) => Impl): string[] {
    torch.manual_seed(2024);
    return steps.map(([, f], i) => under(pick(i), () => raw(f())));
  }

  native("alternating native and TypeScript calls give the all-TypeScript sequence", () => {
    const ts = runSequence(() => "ts");
    expect(runSequence(() => "native")).toEqual(ts);
    expect(runSequence((i) => (i % 2 === 0 ? "native" : "ts"))).toEqual(ts);
    expect(runSequence((i) => (i % 2 === 0 ? "ts" : "native"))).toEqual(ts);
    expect(runSequence((i) => (i % 3 === 0 ? "native" : "ts"))).toEqual(ts);
  });

  native("get_rng_state after native draws restores on either side", () => {
    torch.manual_seed(5);
    under("native", () => torch.rand(1001));
    const saved = torch.get_rng_state();
    const a = under("native", () => raw(torch.randn(333)));
    torch.set_rng_state(saved);
    const b = under("ts", () => raw(torch.randn(333)));
    torch.set_rng_state(saved);
    const c = under("native", () => raw(torch.randn(333)));
    expect(a).toEqual(b);
    expect(c).toEqual(b);
  });

  native("a torch.Generator's state is its own", () => {
    const g = new torch.Generator().manual_seed(11);
    torch.manual_seed(11);
    const a = under("native", () => raw(torch.rand(900, { generator: g })));
    const b = under("ts", () => raw(torch.rand(900)));
    expect(a).toEqual(b);
    expect(Array.from(g.get_state().tolist() as number[])).toEqual(rngBytes());
  });
});

describe("instruction-set units", { timeout: 30_000 }, () => {
  native("every unit's normal transform gives the TypeScript values", () => {
    const ref = sample("ts", 99, () => torch.empty(10007).normal_(0.5, 1.5));
    for (const isa of ["DEFAULT", "AVX2", "AVX512"] as const) {
      if (!_set_native_isa(isa)) continue;
      const got = sample("native", 99, () => torch.empty(10007).normal_(0.5, 1.5));
      expect(got.values).toEqual(ref.values);
      expect(got.rng).toEqual(ref.rng);
    }
  });

  native("thread count does not change the values", () => {
    const n0 = torch.get_num_threads();
    try {
      torch.set_num_threads(1);
      const one = sample("native", 3, () => torch.randn(200003));
      torch.set_num_threads(2);
      const two = sample("native", 3, () => torch.randn(200003));
      expect(two).toEqual(one);
    } finally {
      torch.set_num_threads(n0);
    }
  });
});

describe("the addon's functions", () => {
  native("decline an invalid state or out-of-range arguments, changing nothing", () => {
    const addon = nativeAddon!;
    const g = new CPUGeneratorImpl(1);
    const st = g.engineState();
    const out = new Float32Array(32);
    const bad = st.slice();
    bad[624] = 0; // left_ = 0: not a valid engine
    expect(addon.rng_uniform(bad, out, 0, 32, 0, 1)).toBe(false);
    expect(addon.rng_uniform(st.subarray(0, 600), out, 0, 32, 0, 1)).toBe(false);
    expect(addon.rng_uniform(st, out, 10, 32, 0, 1)).toBe(false); // past the end
    expect(addon.rng_normal(st, out, 0, 15, 0, 1)).toBe(false); // below the vector path
    expect(addon.rng_random_from_to(st, new Int32Array(4), 0, 4, 2 ** 32, 0)).toBe(false);
    expect(addon.rng_randperm(st, new BigInt64Array(4) as any, 0, 4)).toBe(true);
    expect(Array.from(out)).toEqual(new Array(32).fill(0));
  });

  native("advance the generator's own state array (TypeScript fills continue where they stopped)", () => {
    const addon = nativeAddon!;
    const a = new CPUGeneratorImpl(123);
    const b = new CPUGeneratorImpl(123);
    const x = new Float32Array(2000);
    const y = new Float32Array(2000);
    expect(addon.rng_uniform(a.engineState(), x, 0, 1000, 0, 1)).toBe(true);
    K.uniform_fill_float(a, x, 1000, 1000, 0, 1);
    K.uniform_fill_float(b, y, 0, 2000, 0, 1);
    expect(Array.from(x)).toEqual(Array.from(y));
    expect(a.random()).toBe(b.random());
  });
});
