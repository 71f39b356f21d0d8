// The native logical and bitwise ops (pointwise_kernels.inc): logical_and/or/xor/not give bool from
// every real dtype and bool (nonzero is true: NaN too, -0 is not), bitwise_and/or/xor/not the integer
// types and bool; each against the TypeScript kernels (exact), on every unit, contiguous, strided and
// broadcast; logical_and/or/xor of mixed dtypes read each operand in its own dtype (float16 and bfloat16
// too); same-dtype float16/bfloat16 and floats for bitwise stay with the TS kernels.
import { describe, expect, afterEach } from "vitest";
import * as torch from "../../../engine/index.js";
import { _set_native_isa, nativeSizePolicy } from "../../../engine/aten/native/cpu_native/NativeBackend.js";
import { bestIsa, kernelsRan, nativeIt, runnableIsas, underTs } from "../../support/native_paths.js";

nativeSizePolicy.minNumel = 0;
const ISAS = runnableIsas();

afterEach(() => {
  if (ISAS.length > 0) _set_native_isa(bestIsa as any);
});

const asText = (t: torch.Tensor) => JSON.stringify(t.tolist(), (_k, v) => (typeof v === "bigint" ? String(v) : v));

function operand(dtype: torch.dtype, seed: number): torch.Tensor {
  torch.manual_seed(seed);
  const x = torch.randint(-3, 4, [40, 37]).to(dtype);
  if (dtype.is_floating_point) {
    x.view(-1).get(3).fill_(NaN);
    x.view(-1).get(4).fill_(-0);
  }
  return x;
}

const REAL = [torch.bool, torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64, torch.float32, torch.float64];

describe("native logical and bitwise ops", () => {
  nativeIt("the TS kernels' results, on every unit and layout", () => {
    for (const isa of ISAS) {
      _set_native_isa(isa);
      for (const dtype of REAL) {
        const a = operand(dtype, 1), b = operand(dtype, 2);
        const cases: [string, () => torch.Tensor, string][] = [
          ["logical_and", () => torch.logical_and(a, b), "logical_and_stub"],
          ["logical_or transposed", () => torch.logical_or(a.t(), b.t()), "logical_or_stub"],
          ["logical_xor broadcast", () => torch.logical_xor(a, b.get(":", 0).unsqueeze(1)), "logical_xor_stub"],
          ["logical_not", () => torch.logical_not(a), "logical_not_stub"],
          ["logical_not strided", () => torch.logical_not(a.get(":", "::2")), "logical_not_stub"],
        ];
        if (!dtype.is_floating_point) {
          cases.push(
            ["bitwise_and", () => torch.bitwise_and(a, b), "bitwise_and_stub"],
            ["bitwise_or strided", () => torch.bitwise_or(a.get("::2"), b.get("1::2")), "bitwise_or_stub"],
            ["bitwise_xor", () => torch.bitwise_xor(a, b), "bitwise_xor_stub"],
            ["bitwise_not", () => torch.bitwise_not(a), "bitwise_not_stub"],
          );
        }
        for (const [name, f, stub] of cases) {
          const what = `${name} ${dtype} [${isa}]`;
          expect(kernelsRan(f), what).toContain(`${stub}:native`);
          const got = f(), want = underTs(f);
          expect(got.dtype, what).toBe(want.dtype);
          expect(asText(got), what).toBe(asText(want));
        }
      }
    }
  });

  nativeIt("mixed dtypes: each operand read in its own dtype, 0-d ones converted to the common dtype", () => {
    const MIXED = [...REAL, torch.float16, torch.bfloat16];
    for (const isa of ISAS) {
      _set_native_isa(isa);
      for (const [i, da] of MIXED.entries()) {
        const a = operand(da, 10 + i);
        for (const db of [torch.bool, torch.int64, torch.float32, torch.float16, torch.bfloat16]) {
          if (db === da) continue;
          const b = operand(db, 30 + i);
          const cases: [string, () => torch.Tensor, string][] = [
            ["logical_and", () => torch.logical_and(a, b), "logical_and_stub"],
            ["logical_or transposed", () => torch.logical_or(a.t(), b.t()), "logical_or_stub"],
            ["logical_xor broadcast", () => torch.logical_xor(a.get("::3"), b.get(0)), "logical_xor_stub"],
            ["logical_and strided, broadcast row", () => torch.logical_and(b.get(":", "::2"), a.get(":", 0).unsqueeze(1)), "logical_and_stub"],
          ];
          for (const [name, f, stub] of cases) {
            const what = `${name} ${da} ${db} [${isa}]`;
            expect(kernelsRan(f), what).toContain(`${stub}:native`);
            expect(asText(f()), what).toBe(asText(underTs(f)));
          }
        }
      }
    }
    // a 0-d float64 operand converts to the common dtype first: 1e-50 is zero in float32, 0.5 is not
    const x = operand(torch.float32, 7), tiny = torch.tensor(1e-50, { dtype: torch.float64 }), half = torch.tensor(0.5, { dtype: torch.float64 });
    const n = operand(torch.int64, 8);
    for (const f of [() => torch.logical_or(x, tiny), () => torch.logical_and(n, tiny), () => torch.logical_xor(n, half), () => torch.logical_and(tiny, n)]) {
      expect(asText(f())).toBe(asText(underTs(f)));
    }
    // (PyTorch 1.13: float32 zeros or 1e-50 is false, int64 zeros or 1e-50 true: the common dtype is float64 there)
    expect(torch.logical_or(torch.zeros(40, 37), tiny).any().item()).toBe(false);
    expect(torch.logical_or(n.mul(0), tiny).all().item()).toBe(true);
    expect(torch.logical_xor(torch.zeros(40, 37), half).all().item()).toBe(true);
  });

  nativeIt("in place, out= of another dtype, and the dtypes the TS kernels keep", () => {
    const a = operand(torch.int32, 3), b = operand(torch.int32, 4);
    const x = a.clone();
    x.bitwise_xor_(b);
    expect(asText(x)).toBe(asText(underTs(() => torch.bitwise_xor(a, b))));
    const f = operand(torch.float32, 5);
    const out = torch.empty(0, { dtype: torch.float32 }); // 1.0/0.0 in a float out=: the TS kernel's
    torch.logical_and(f, f, { out });
    expect(asText(out)).toBe(asText(underTs(() => torch.logical_and(f, f, { out: torch.empty(0) }))));
    expect(() => torch.bitwise_and(f, f)).toThrow(`"bitwise_and_cpu" not implemented for 'Float'`);
    const h = operand(torch.float16, 6);
    expect(asText(torch.logical_not(h))).toBe(asText(underTs(() => torch.logical_not(h))));
  });
});
