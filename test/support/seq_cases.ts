// Helpers for the sequence-layer fixtures (test/fixtures/gen_nn_seq.py -> nn_seq.json): tensors stored by
// value ({shape, dtype, values}), and a float comparison with an absolute + relative tolerance.
import { expect } from "vitest";
import * as torch from "../../engine/index.js";
import type { Tensor } from "../../engine/aten/core/Tensor.js";
import { dec } from "./fixtures.js";

export interface TVal {
  shape: number[];
  dtype: string;
  values: (number | boolean | string)[];
}

/** The stored tensor, rebuilt with torch.tensor(...).reshape(shape). */
export function fromVal(v: TVal, requires_grad = false): Tensor {
  const t = (torch.tensor(dec(v.values), { dtype: (torch as any)[v.dtype] }) as any).reshape(v.shape) as Tensor;
  return requires_grad ? (t as any).detach().requires_grad_(true) : t;
}

/** Flat values of a tensor as numbers (booleans as 0/1). */
export function valuesOf(t: Tensor): number[] {
  return ((t as any).detach().flatten().tolist() as (number | boolean)[]).map(Number);
}

/** |a - e| <= atol + rtol*|e| elementwise, same shape; the first mismatch is reported. */
export function expectClose(actual: Tensor, expected: TVal, what: string, atol = 1e-5, rtol = 1e-5): void {
  expect(actual.shape, `${what}: shape`).toEqual(expected.shape);
  const a = valuesOf(actual);
  const e = (dec(expected.values) as (number | boolean)[]).map(Number);
  for (let i = 0; i < e.length; i++) {
    const ok = Object.is(a[i], e[i]) || Math.abs(a[i] - e[i]) <= atol + rtol * Math.abs(e[i]);
    if (!ok) expect(a[i], `${what}[${i}] (atol ${atol}, rtol ${rtol})`).toBe(e[i]);
  }
}

/** Exactly equal values (seeded initialisation). */
export function expectExact(actual: Tensor, expected: TVal, what: string): void {
  expect(actual.shape, `${what}: shape`).toEqual(expected.shape);
  expect(valuesOf(actual), what).toEqual((dec(expected.values) as number[]).map(Number));
}
