// Thread-local include/exclude sets and their guards (c10/core/impl/LocalDispatchKeySet), and how they
// change which kernel a fresh call reaches.
import { describe, it, expect, afterEach } from "vitest";
import { DispatchKey } from "../../engine/c10/DispatchKey.js";
import { DispatchKeySet } from "../../engine/c10/DispatchKeySet.js";
import {
  AutoDispatchBelowADInplaceOrView,
  AutoDispatchBelowAutograd,
  ExcludeDispatchKeyGuard,
  IncludeDispatchKeyGuard,
  LocalDispatchKeySet,
  _force_tls_local_dispatch_key_set,
  raw_local_dispatch_key_set,
  tls_is_dispatch_key_excluded,
  tls_is_dispatch_key_included,
  tls_local_dispatch_key_set,
  tls_set_dispatch_key_excluded,
  withExcluded,
  withIncluded,
} from "../../engine/c10/impl/LocalDispatchKeySet.js";
import { KernelFunction } from "../../engine/dispatcher/index.js";
import { loadFixture } from "../support/fixtures.js";
import { cpuTensor, freshDispatcher, installStandardFallthroughs, normalizeDump, schema } from "./helpers.js";

const K = DispatchKey;
const fx = loadFixture<{ tls: { included: string; excluded: string }; lingering_backend_bit: string[] }>("dispatch.json");
const inc = () => String(tls_local_dispatch_key_set().included_);
const exc = () => String(tls_local_dispatch_key_set().excluded_);

afterEach(() => {
  // Every test must leave the defaults behind (all-zero raw state).
  expect(raw_local_dispatch_key_set).toEqual({ included_: 0, excluded_: 0 });
});

/** An op with a kernel on Python, AutogradCPU and CPU, each returning its key's name. */
function layeredOp() {
  const d = freshDispatcher();
  installStandardFallthroughs(d);
  d.registerDef(schema("t::layers(Tensor x) -> Tensor"));
  for (const key of ["Python", "AutogradCPU", "CPU", "AutocastCPU"]) {
    d.registerImpl("t::layers", key, KernelFunction.makeFromBoxedFunction(() => key));
  }
  const op = d.findOp("t::layers")!;
  return () => d.call(op, cpuTensor());
}

describe("TLS defaults", () => {
  it("include {BackendSelect, ADInplaceOrView}, exclude the autocast keys, as PyTorch 1.13", () => {
    expect(inc()).toBe(normalizeDump(fx.tls.included));
    expect(exc()).toBe(normalizeDump(fx.tls.excluded));
    expect(exc()).toBe("DispatchKeySet(AutocastCPU, AutocastCUDA)");
  });
  it("are stored XOR-ed with the defaults, so the raw state starts at zero", () => {
    expect(raw_local_dispatch_key_set).toEqual({ included_: 0, excluded_: 0 });
    using _g = new IncludeDispatchKeyGuard(K.Python);
    expect(raw_local_dispatch_key_set.included_).toBe(DispatchKeySet.of(K.Python).repr);
  });
});

describe("guards", () => {
  it("IncludeDispatchKeyGuard adds a key until disposed (explicit dispose form)", () => {
    const g = new IncludeDispatchKeyGuard(K.Python);
    expect(inc()).toBe("DispatchKeySet(BackendSelect, Python, ADInplaceOrView)");
    expect(tls_is_dispatch_key_included(K.Python)).toBe(true);
    g.dispose();
    g.dispose(); // twice is harmless
    expect(tls_is_dispatch_key_included(K.Python)).toBe(false);
  });

  it("`using` restores the set at the end of the block, also when it throws", () => {
    const run = () => {
      using _g = new ExcludeDispatchKeyGuard(DispatchKeySet.of(K.Python, K.AutogradOther));
      expect(tls_is_dispatch_key_excluded(K.Python)).toBe(true);
      throw new Error("boom");
    };
    expect(run).toThrow("boom");
    expect(tls_is_dispatch_key_excluded(K.Python)).toBe(false);
    expect(tls_is_dispatch_key_excluded(K.AutogradOther)).toBe(false);
  });

  it("as in PyTorch, a guard for a per-backend key leaves its backend bit behind (set difference keeps backend bits)", () => {
    const snapshot = tls_local_dispatch_key_set();
    const seen: string[] = [];
    {
      using _g = new AutoDispatchBelowAutograd();
      seen.push(exc());
    }
    {
      using _g = new ExcludeDispatchKeyGuard(K.AutogradCPU);
      seen.push(exc());
    }
    seen.push(exc());
    {
      using _g = new AutoDispatchBelowAutograd();
      seen.push(exc()); // AutogradCPU shows up: the CPU bit stayed in the exclude set
    }
    seen.push(exc());
    expect(seen).toEqual(fx.lingering_backend_bit.map(normalizeDump));
    expect(raw_local_dispatch_key_set.excluded_).not.toBe(0);
    _force_tls_local_dispatch_key_set(snapshot);
  });

  it("nested guards for the same key: only the outer one removes it", () => {
    const outer = new IncludeDispatchKeyGuard(K.Python);
    const inner = new IncludeDispatchKeyGuard(K.Python);
    inner.dispose();
    expect(tls_is_dispatch_key_included(K.Python)).toBe(true);
    outer.dispose();
    expect(tls_is_dispatch_key_included(K.Python)).toBe(false);
  });

  it("a guard never removes a default key it did not add", () => {
    withIncluded(K.ADInplaceOrView, () => expect(tls_is_dispatch_key_included(K.ADInplaceOrView)).toBe(true));
    expect(tls_is_dispatch_key_included(K.ADInplaceOrView)).toBe(true);
    withExcluded(K.AutocastCPU, () => {});
    expect(tls_is_dispatch_key_excluded(K.AutocastCPU)).toBe(true);
  });

  it("callback forms restore on throw and return the callback's value", () => {
    expect(withExcluded(K.Python, () => 7)).toBe(7);
    expect(() =>
      withIncluded(K.Python, () => {
        throw new Error("x");
      }),
    ).toThrow("x");
    expect(tls_is_dispatch_key_included(K.Python)).toBe(false);
  });

  it("AutoDispatchBelowAutograd / AutoDispatchBelowADInplaceOrView exclude the autograd functionality bits", () => {
    {
      using _g = new AutoDispatchBelowAutograd();
      expect(exc()).toBe("DispatchKeySet(AutogradOther, AutocastCPU, AutocastCUDA)"); // no backend bits: AutogradCPU prints only with one
      expect(tls_is_dispatch_key_excluded(K.AutogradOther)).toBe(true);
    }
    using _g2 = new AutoDispatchBelowADInplaceOrView();
    expect(tls_is_dispatch_key_excluded(K.ADInplaceOrView)).toBe(true);
  });

  it("_force_tls_local_dispatch_key_set restores a snapshot", () => {
    const snapshot = tls_local_dispatch_key_set();
    _force_tls_local_dispatch_key_set(new LocalDispatchKeySet(DispatchKeySet.of(K.Python), new DispatchKeySet()));
    expect(inc()).toBe("DispatchKeySet(Python)");
    expect(exc()).toBe("DispatchKeySet()");
    _force_tls_local_dispatch_key_set(snapshot);
  });
});

describe("what a fresh call reaches", () => {
  it("default: autograd first (autocast is excluded)", () => {
    expect(layeredOp()()).toBe("AutogradCPU");
  });
  it("an included key joins every call's set (a dispatch mode)", () => {
    const call = layeredOp();
    using _g = new IncludeDispatchKeyGuard(K.Python);
    expect(call()).toBe("AutogradCPU"); // Python sits below autograd
    using _below = new AutoDispatchBelowAutograd();
    expect(call()).toBe("Python");
  });
  it("exclusion wins over inclusion", () => {
    const call = layeredOp();
    using _a = new AutoDispatchBelowAutograd();
    using _i = new IncludeDispatchKeyGuard(K.Python);
    using _e = new ExcludeDispatchKeyGuard(K.Python);
    expect(call()).toBe("CPU");
  });
  it("un-excluding autocast (what torch.autocast does) makes AutocastCPU run first", () => {
    const call = layeredOp();
    tls_set_dispatch_key_excluded(K.AutocastCPU, false);
    try {
      expect(call()).toBe("AutocastCPU");
    } finally {
      tls_set_dispatch_key_excluded(K.AutocastCPU, true);
    }
  });
});
