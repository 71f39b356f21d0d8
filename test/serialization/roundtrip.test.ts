// torch.save here, torch.load here: values, strides, storage sharing and container kinds survive; the zip
// container is PyTorch's (64-byte aligned records under the archive name, `version` last) -- byte for byte
// the file PyTorch 1.13 writes, for the fixture checkpoints whose pickles do not depend on Python's string identity.
import { describe, it, expect } from "vitest";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import * as torch from "../../engine/index.js";
import { Tensor } from "../../engine/aten/core/Tensor.js";
import { TensorImpl } from "../../engine/c10/TensorImpl.js";
import { ZipReader } from "../../engine/serialization/zip_reader.js";
import { archiveNameFor } from "../../engine/serialization/torch_save.js";
import { describeLoaded } from "../support/checkpoint_describe.js";

const fixtures = fileURLToPath(new URL("../fixtures/checkpoints/", import.meta.url));
const tmp = mkdtempSync(join(tmpdir(), "glasstorch-ckpt-"));
const { OrderedDict, tuple } = torch.serialization;

function roundTrip<T>(obj: T): any {
  return torch.load(torch.save(obj));
}

describe("torch.save writes the file PyTorch 1.13 writes", () => {
  // nested.pt and module_state.pt differ only where CPython pickles two equal strings twice (distinct objects,
  // e.g. the "0" of _metadata); we memoize strings by value. requires_grad.pt holds nn.Parameters (not here yet).
  for (const name of ["tensor", "views", "noncontiguous", "dtypes", "optimizer_state", "meta"]) {
    it(`save(load("${name}.pt")) is byte-identical to PyTorch's file`, () => {
      const out = torch.save(torch.load(fixtures + name + ".pt"), join(tmp, name + ".pt"));
      expect(Buffer.from(out).equals(readFileSync(fixtures + name + ".pt"))).toBe(true);
      expect(readFileSync(join(tmp, name + ".pt")).equals(Buffer.from(out))).toBe(true);
    });
  }

  it("records sit under the archive name, 64-byte aligned, with `version` last", () => {
    const base = torch.arange(10, { dtype: torch.float64 });
    const bytes = torch.save({ a: base, b: base.get("3:"), c: torch.ones(3, { dtype: torch.int16 }) });
    const zip = new ZipReader(bytes);
    expect(zip.entries.map((e) => e.name)).toEqual(["archive/data.pkl", "archive/data/0", "archive/data/1", "archive/version"]);
    for (const e of zip.entries) {
      expect(e.method).toBe(0);
      expect(zip.dataOffset(e) % 64).toBe(0);
    }
    expect(new TextDecoder().decode(zip.read("archive/version"))).toBe("3\n");
    expect(zip.read("archive/data/0").length).toBe(80); // one storage for both views
  });

  it("the archive name is the file's base name without its extension (PyTorchStreamWriter's basename)", () => {
    expect(archiveNameFor("/a/b/model.pt")).toBe("model");
    expect(archiveNameFor("ckpt.tar.gz")).toBe("ckpt.tar");
    expect(archiveNameFor("weights")).toBe("weights");
    expect(() => torch.save(1, join(tmp, ".pt"))).toThrow("invalid file name: ");
  });

  it("f may be an object with write(bytes), like a BytesIO", () => {
    const chunks: Uint8Array[] = [];
    torch.save(torch.ones(2), { write: (b: Uint8Array) => chunks.push(b) });
    expect(String(torch.load(chunks[0]))).toBe("tensor([1., 1.])");
  });
});

describe("save -> load round trips", () => {
  it("every dtype, bit for bit, with strides, offsets and shared storages", () => {
    const dts = [torch.float32, torch.float64, torch.float16, torch.bfloat16, torch.int8, torch.uint8, torch.int16, torch.int32, torch.int64, torch.bool];
    const obj: Record<string, unknown> = {};
    for (const dt of dts) {
      const base = torch.arange(12).to(dt).reshape(3, 4);
      obj[dt.name] = [base, base.t(), base.get(1), base.get(":", "1::2"), torch.tensor(1).to(dt)];
    }
    obj.special = torch.tensor([NaN, Infinity, -Infinity, -0, 1e-40], { dtype: torch.float32 });
    obj.empty = torch.zeros(0, 4);
    const back = roundTrip(obj);
    expect(describeLoaded(back)).toEqual(describeLoaded(obj));
    expect(back.float32[1]._impl.storage).toBe(back.float32[0]._impl.storage);
    expect(back.float32[0]._impl.storage).not.toBe(back.float64[0]._impl.storage);
  });

  it("int64 beyond 2**53 and bigint / large ints in the pickle", () => {
    const big = torch.tensor([1, 2]).mul(2 ** 52).add(1);
    const back = roundTrip({ t: big, n: 2n ** 70n, m: -(2n ** 63n), k: 2 ** 40, neg: -5 });
    expect(describeLoaded(back)).toEqual(describeLoaded({ t: big, n: 2n ** 70n, m: -(2n ** 63n), k: 2 ** 40, neg: -5 }));
  });

  it("containers keep their kinds: tuples, OrderedDicts, Maps with int keys, Sets, bytes, dtypes, devices, Size", () => {
    const sd = OrderedDict({ "0.weight": torch.ones(2, 2), "0.bias": torch.zeros(2) });
    const opt = { state: new Map([[0, { momentum_buffer: torch.ones(2) }]]), param_groups: [{ lr: 0.1, betas: tuple(0.9, 0.999), params: [0] }] };
    const obj = {
      sd, opt, set: new Set([1, "a"]), bytes: new Uint8Array([0, 255, 10]), dtype: torch.bfloat16,
      dev: new torch.device("cpu"), size: torch.Size.from_([2, 3]), none: null, flags: [true, false], floats: [2.5, -0, NaN, Infinity],
      strings: ["", "ünïcödé ✓", "__proto__"], protoKey: Object.fromEntries([["__proto__", 1]]), tuples: [tuple(), tuple(1), tuple(1, 2, 3, 4)],
      many: Array.from({ length: 2500 }, (_, i) => i),
    };
    const back = roundTrip(obj);
    expect(describeLoaded(back)).toEqual(describeLoaded(obj));
    expect(torch.serialization.isOrderedDict(back.sd)).toBe(true);
    expect(torch.serialization.isTuple(back.opt.param_groups[0].betas)).toBe(true);
    expect(Object.getPrototypeOf(back.protoKey)).toBe(Object.prototype); // "__proto__" stays a key
    expect(Object.keys(back.protoKey)).toEqual(["__proto__"]);
  });

  it("a state_dict's _metadata (non-enumerable) survives; requires_grad survives; meta tensors keep their shape", () => {
    const sd = OrderedDict({ w: torch.ones(2, { requires_grad: true }) }) as any;
    Object.defineProperty(sd, "_metadata", { value: OrderedDict({ "": { version: 1 } }), enumerable: false });
    const back = roundTrip({ sd, m: torch.empty(2, 5, { device: "meta" }).t() });
    expect(back.sd._metadata).toEqual({ "": { version: 1 } });
    expect(Object.keys(back.sd)).toEqual(["w"]);
    expect(back.sd.w.requires_grad).toBe(true);
    expect(back.m.device.type).toBe("meta");
    expect(back.m.shape).toEqual([5, 2]);
    expect(back.m.stride()).toEqual([1, 5]);
  });

  it("the same tensor twice loads as one tensor; a list that contains itself loads as one", () => {
    const t = torch.ones(2);
    const cyc: unknown[] = [1];
    cyc.push(cyc);
    const back = roundTrip({ a: t, b: t, cyc });
    expect(back.a).toBe(back.b);
    expect(back.cyc[1]).toBe(back.cyc);
  });

  it("errors: two dtypes over one storage (PyTorch's text), values it cannot pickle, runaway nesting", () => {
    const s = torch.ones(4);
    const asInt = new Tensor(new TensorImpl(s._impl.storage, torch.int32, [4])); // what s.view(torch.int32) would be
    expect(() => torch.save([s, asInt])).toThrow("Cannot save multiple tensors or storages that view the same data as different types");
    expect(() => torch.save({ f: () => 1 })).toThrow(/^Can't pickle function f: torch.save writes tensors/);
    expect(() => torch.save(new (class Foo {})())).toThrow(/^Can't pickle Foo object/);
    let deep: unknown = 1;
    for (let i = 0; i < 1200; i++) deep = [deep];
    expect(() => torch.save(deep)).toThrow("maximum recursion depth exceeded while pickling an object");
  });
});

describe("broken files fail with the reader's errors", () => {
  const good = torch.save({ t: torch.arange(4) });
  it("a flipped byte in a storage fails the CRC check", () => {
    const bad = new Uint8Array(good);
    const zip = new ZipReader(bad);
    const e = zip.entries.find((x) => x.name === "archive/data/0")!;
    bad[zip.dataOffset(e)] ^= 1;
    expect(() => torch.load(bad)).toThrow("PytorchStreamReader failed reading file archive/data/0: CRC-32 check failed");
  });
  it("a truncated zip has no central directory", () => {
    expect(() => torch.load(good.subarray(0, good.length - 30))).toThrow("PytorchStreamReader failed reading zip archive: failed finding central directory");
  });
  it("not a checkpoint at all: pickle's messages", () => {
    expect(() => torch.load(new TextEncoder().encode("hello"))).toThrow("invalid load key, 'h'.");
    expect(() => torch.load(new Uint8Array(0))).toThrow("Ran out of input");
  });
});
