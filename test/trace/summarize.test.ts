import { describe, it, expect } from "vitest";
import { DispatchKeySet, tensorKeySetFor } from "../../engine/c10/DispatchKeySet.js";
import { BackendComponent } from "../../engine/c10/DispatchKey.js";
import { TensorImpl } from "../../engine/c10/TensorImpl.js";
import { device } from "../../engine/c10/Device.js";
import { float64, int64 } from "../../engine/c10/ScalarType.js";
import { Summarizer, isTensorLike } from "../../engine/trace/index.js";
import { tensor } from "./fakes.js";

describe("Summarizer", () => {
  it("reads tensor metadata structurally: any object whose _impl has the TensorImpl surface", () => {
    const s = new Summarizer();
    const fake = {
      _impl: {
        sizes: () => [4],
        strides: () => [2],
        dtype: { name: "int64", itemsize: 8 },
        device: new device("meta"),
        key_set: tensorKeySetFor(BackendComponent.MetaBit),
        requires_grad: () => false,
      },
    };
    expect(s.value(fake)).toEqual({
      kind: "tensor",
      tid: 1,
      storage: null,
      shape: [4],
      strides: [2],
      dtype: "int64",
      device: "meta",
      requires_grad: false,
      keys: ["Meta", "ADInplaceOrView", "AutogradMeta"],
    });
  });

  it("a big tensor's summary stays small: no data is copied", () => {
    const big = tensor([1000, 1000]);
    expect(JSON.stringify(new Summarizer().value(big)).length).toBeLessThan(300);
  });

  it("gives each tensor and each storage a stable identity; a view shares its base's storage", () => {
    const s = new Summarizer();
    const a = tensor([2, 3]);
    const b = tensor([2, 3]);
    const view = { _impl: new TensorImpl(a._impl.storage, a._impl.dtype, [3, 2], [1, 3], 0, a._impl.version_counter) };
    const [sa, sb, sv, sa2] = [a, b, view, a].map((t) => s.value(t)) as { tid: number; storage: number }[];
    expect(sa.tid).toBe(sa2.tid);
    expect(new Set([sa.tid, sb.tid, sv.tid]).size).toBe(3);
    expect(sv.storage).toBe(sa.storage);
    expect(sb.storage).not.toBe(sa.storage);
  });

  it("reports version, grad_fn and wrapped numbers when present", () => {
    const s = new Summarizer();
    const t = tensor([1], { requiresGrad: true });
    t._impl.version_counter.bump();
    t._impl.is_wrapped_number = true;
    t._impl.autograd_meta = { requires_grad: () => true, set_requires_grad: () => {}, grad_fn_name: () => "MulBackward0" };
    expect(s.value(t)).toMatchObject({ version: 1, grad_fn: "MulBackward0", wrapped_number: true, requires_grad: true });
  });

  it("lists are capped and say how long they were", () => {
    const s = new Summarizer({ maxListItems: 3, maxStringLength: 5, maxObjectFields: 2, maxDepth: 2 });
    expect(s.value([1, 2, 3, 4, 5])).toEqual({
      kind: "list",
      length: 5,
      truncated: true,
      items: [1, 2, 3].map((value) => ({ kind: "number", value })),
    });
    const many = Array.from({ length: 10 }, () => tensor([1]));
    const tl = s.value(many) as { kind: string; length: number; items: unknown[]; truncated: boolean };
    expect(tl.kind).toBe("tensor_list");
    expect([tl.length, tl.items.length, tl.truncated]).toEqual([10, 3, true]);
    expect(s.value([tensor([1]), null])).toMatchObject({ kind: "tensor_list", items: [{ kind: "tensor" }, { kind: "none" }] });
    expect(s.value("abcdefgh")).toEqual({ kind: "string", value: "abcde", truncated: true });
    expect(s.value({ a: 1, b: 2, c: 3 })).toMatchObject({ kind: "object", truncated: true, fields: { a: { kind: "number" }, b: { kind: "number" } } });
    expect(s.value([[[1]]])).toEqual({ kind: "list", length: 1, truncated: false, items: [{ kind: "list", length: 1, truncated: false, items: [{ kind: "other", type: "Array", repr: "[1 items]" }] }] });
  });

  it("scalars, dtypes, devices and None", () => {
    const s = new Summarizer();
    expect(s.value(NaN)).toEqual({ kind: "number", value: "nan" });
    expect(s.value(-Infinity)).toEqual({ kind: "number", value: "-inf" });
    expect(s.value(true)).toEqual({ kind: "bool", value: true });
    expect(s.value(2n ** 70n)).toEqual({ kind: "bigint", value: "1180591620717411303424" });
    expect(s.value(null)).toEqual({ kind: "none" });
    expect(s.value(undefined)).toEqual({ kind: "none" });
    expect(s.value(float64)).toEqual({ kind: "dtype", name: "float64" });
    expect(s.value(new device("cuda", 1))).toEqual({ kind: "device", value: "cuda:1" });
    expect(s.value({ dtype: int64, keepdim: true })).toEqual({
      kind: "object",
      type: "Object",
      truncated: false,
      fields: { dtype: { kind: "dtype", name: "int64" }, keepdim: { kind: "bool", value: true } },
    });
    expect(s.value(DispatchKeySet.of())).toEqual({ kind: "other", type: "DispatchKeySet", repr: "DispatchKeySet()" });
    expect(isTensorLike(tensor([1]))).toBe(true);
    expect(isTensorLike({ _impl: {} })).toBe(false);
  });
});
