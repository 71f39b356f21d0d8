// torch.kthvalue against PyTorch 1.13 (fixtures/kthvalue.json, written by gen_kthvalue.py): values AND
// indices on lanes full of ties and NaNs (PyTorch's index of a tied k-th element is wherever its
// quick_select_template leaves it, so this pins the selection down), every dim, k and keepdim, a
// transposed input, the 0-d case, out=, PyTorch's errors and the gradient (KthvalueBackward0).
import { describe, it, expect } from "vitest";
import * as torch from "../../../engine/index.js";
import { loadFixture, dec } from "../../support/fixtures.js";
import { quickSelect } from "../../../engine/aten/native/reduce3/Kthvalue.js";
import { nativeSizePolicy } from "../../../engine/aten/native/cpu_native/NativeBackend.js";
import { kernelsRan, nativeIt, underTs } from "../../support/native_paths.js";

nativeSizePolicy.minNumel = 0;

type T = { dtype: string; sizes: number[]; values: unknown[] };
type R = { values: T; indices: T };
const F = loadFixture("kthvalue.json") as {
  cases: { input: T; k: number; dim: number; keepdim: boolean; result: { value: R } }[];
  transposed: { base: T; k: number; dim: number; result: R };
  errors: { label: string; result: { error: string; message: string } }[];
  empty_other: R;
  out: { input: T; k: number; dim: number; keepdim: boolean; result: R };
  grad: { x: T; k: number; dim: number; w: number[]; grad: number[]; node: string };
};

const dtypeOf = (name: string) => (torch as any)[name] as torch.dtype;
const build = (t: T) => torch.tensor(dec(t.values) as number[], { dtype: dtypeOf(t.dtype) }).reshape(t.sizes);
function expectTensor(got: torch.Tensor, want: T): void {
  expect(got.dtype).toBe(dtypeOf(want.dtype));
  expect(got.shape).toEqual(want.sizes);
  expect(got.flatten().tolist()).toEqual(dec(want.values));
}
const expectResult = (got: { values: torch.Tensor; indices: torch.Tensor }, want: R) => {
  expectTensor(got.values, want.values);
  expectTensor(got.indices, want.indices);
};

describe("torch.kthvalue against PyTorch", () => {
  const checkCases = () => {
    for (const c of F.cases) expectResult(torch.kthvalue(build(c.input), c.k, c.dim, c.keepdim), c.result.value);
  };
  it("values and indices (ties, NaN) on every dtype, dim, k and keepdim: TypeScript kernel", () => underTs(checkCases));
  nativeIt("the same on the native kernel (Sorting.cc kthvalue_lanes), which runs", () => {
    checkCases();
    expect(kernelsRan(() => torch.kthvalue(torch.randn(5, 7), 3))).toContain("kthvalue:native");
  });
  it("a transposed input, the method form, an empty non-reduced dim", () => {
    const t = F.transposed;
    expectResult(build(t.base).t().kthvalue(t.k, t.dim), t.result);
    expectResult(torch.kthvalue(torch.ones(0, 3), 1, 1), F.empty_other);
  });
  it("PyTorch's errors", () => {
    const x = torch.randn(3, 4);
    const calls: Record<string, () => unknown> = {
      "k too large": () => torch.kthvalue(x, 5),
      "k zero": () => torch.kthvalue(x, 0),
      dim: () => torch.kthvalue(x, 1, 2),
      "empty dim": () => torch.kthvalue(torch.ones(0, 3), 1, 0),
      float16: () => torch.kthvalue(torch.ones(3, { dtype: torch.float16 }), 1),
      bool: () => torch.kthvalue(torch.ones(3, { dtype: torch.bool }), 1),
      "0-d k": () => torch.kthvalue(torch.tensor(5.0), 2),
      "out values dtype": () => torch.kthvalue(x, 1, -1, false, { out: [torch.empty(0, { dtype: torch.float64 }), torch.empty(0, { dtype: torch.int64 })] }),
      "out indices dtype": () => torch.kthvalue(x, 1, -1, false, { out: [torch.empty(0), torch.empty(0, { dtype: torch.int32 })] }),
    };
    for (const e of F.errors) expect(calls[e.label]!, e.label).toThrow(e.result.message);
  });
  it("out= writes the given tensors", () => {
    const o = F.out;
    const vo = torch.empty(0), io = torch.empty(0, { dtype: torch.int64 });
    const r = torch.kthvalue(build(o.input), o.k, o.dim, o.keepdim, { out: [vo, io] });
    expect(r.values).toBe(vo);
    expectResult({ values: vo, indices: io }, o.result);
  });
  it("the gradient goes to the selected elements (KthvalueBackward0)", () => {
    const g = F.grad;
    const x = build(g.x).requires_grad_();
    const r = torch.kthvalue(x, g.k, g.dim);
    expect(r.values.grad_fn!.name()).toBe(g.node);
    const [grad] = torch.autograd.grad(r.values.mul(torch.tensor(g.w, { dtype: torch.float64 })).sum(), [x]);
    expect(grad!.flatten().tolist()).toEqual(g.grad);
  });
  it("quickSelect leaves the k-th smallest at k, no larger before it, no smaller after", () => {
    let seed = 7;
    for (let trial = 0; trial < 200; trial++) {
      const n = 1 + (trial % 37);
      const arr = Array.from({ length: n }, () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % 9));
      const k = trial % n;
      const a = arr.slice(), idx = arr.map((_, i) => i);
      quickSelect(a, idx, k);
      const sorted = arr.slice().sort((p, q) => p - q);
      expect(a[k]).toBe(sorted[k]);
      for (let i = 0; i < n; i++) expect(i < k ? a[i]! <= a[k]! : a[i]! >= a[k]!).toBe(true);
      idx.forEach((j, i) => expect(arr[j]).toBe(a[i]));
    }
  });
});
