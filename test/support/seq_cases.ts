// Helpers for the sequence-layer fixtures (test/fixtures/gen_nn_seq.py -> nn_seq.json): tensors stored by
// value ({shape, dtype, values}), and a float comparison with an absolute + relative tolerance.
import { expect, it } from "vitest";
import * as torch from "../../engine/index.js";
import type { Tensor } from "../../engine/aten/core/Tensor.js";
import { dec } from "./fixtures.js";

const nn = (torch as any).nn;

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

// ---- module replay (test/nn/seq_*.test.ts) ----
// After torch.manual_seed(0) the constructed module has PyTorch's parameter names, shapes and exact
// values and the same printed text; forward (after torch.manual_seed(2), so dropout draws match) gives
// PyTorch's outputs and, for the stored upstream gradients, PyTorch's parameter and input gradients.

/** The fixture's constructor call (gen_nn_seq.py's enc2/dec2 wrap an encoder/decoder stack). */
export function construct(c: any): any {
  const kwargs = (kw: any) => (Object.keys(kw).length ? [kw] : []);
  if (c.name === "Encoder 2 layers final norm") {
    const layer = new nn.TransformerEncoderLayer(c.args[0], c.args[1], { dim_feedforward: 16, dropout: 0.0 });
    return new nn.TransformerEncoder(layer, 2, { norm: new nn.LayerNorm(c.args[0]) });
  }
  if (c.name === "Decoder 2 layers norm_first") {
    const layer = new nn.TransformerDecoderLayer(c.args[0], c.args[1], { dim_feedforward: 16, dropout: 0.0, norm_first: true });
    return new nn.TransformerDecoder(layer, 2);
  }
  return new nn[c.ctor](...c.args, ...kwargs(c.kwargs));
}

export function replay(c: any): void {
  torch.manual_seed(0);
  const m = construct(c);
  m.train(c.train);
  const named = [...m.named_parameters()];
  expect(named.map(([n]: [string]) => n)).toEqual(c.params.map((p: any) => p.name));
  named.forEach(([n, p]: [string, any], i: number) => expectExact(p, c.params[i], `parameter ${n}`));
  expect(String(m)).toBe(c.repr);

  const leaves: any[] = [];
  const inputs = c.inputs.map((v: any, i: number) => {
    if (v === null) return c.self_attention ? leaves[0] : null;
    const t = Array.isArray(v) ? v.map((x: any) => fromVal(x, true)) : fromVal(v, true);
    leaves[i] = t;
    return t;
  });
  const kw: any = {};
  for (const [k, v] of Object.entries<any>(c.call_kwargs)) kw[k] = v && typeof v === "object" && "values" in v ? fromVal(v) : v;
  const callArgs = [...inputs];
  while (callArgs.length && callArgs[callArgs.length - 1] === null && !c.self_attention) callArgs.pop();
  torch.manual_seed(2);
  const out = m(...callArgs, ...(Object.keys(kw).length ? [kw] : []));
  const flat: any[] = [];
  const flatten = (o: any) => (Array.isArray(o) ? o.forEach(flatten) : flat.push(o));
  flatten(out);
  expect(flat.map((o) => o === null)).toEqual(c.outputs.map((o: any) => o === null));
  let loss: any = null;
  flat.forEach((o, i) => {
    if (o === null) return;
    expectClose(o, c.outputs[i], `output ${i}`);
    const term = o.mul(fromVal(c.upstream[i])).sum();
    loss = loss === null ? term : loss.add(term);
  });
  loss.backward();
  named.forEach(([n, p]: [string, any], i: number) => {
    if (c.param_grads[i] === null) expect(p.grad, `grad of ${n}`).toBeNull();
    else expectClose(p.grad, c.param_grads[i], `grad of ${n}`);
  });
  c.input_grads.forEach((g: any, i: number) => {
    if (g === null) return;
    if (Array.isArray(g)) g.forEach((gi: any, j: number) => expectClose(leaves[i][j].grad, gi, `input ${i}[${j}] grad`));
    else expectClose(leaves[i].grad, g, `input ${i} grad`);
  });
}

/** Each case's call, from `setup` (run inside the test, after torch.manual_seed(0)). */
export function replayErrors(cases: any[], setup: () => Record<string, () => unknown>): void {
  for (const c of cases) {
    it(`error: ${c.name}`, () => {
      torch.manual_seed(0);
      const f = setup()[c.name];
      expect(f, `a call for ${c.name}`).toBeDefined();
      let caught: any = null;
      try {
        f();
      } catch (e) {
        caught = e;
      }
      expect(caught, "raises").not.toBeNull();
      expect({ error: caught.name, message: caught.message }).toEqual({ error: c.error, message: c.message });
    });
  }
}


export const z = (...s: number[]) => torch.zeros(...s);
