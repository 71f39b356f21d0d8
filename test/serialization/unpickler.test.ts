// The weights-only unpickler on hand-made pickles: what it accepts (the 2.x allowlist's containers and
// rebuild functions) and what it refuses, with the texts of torch/_weights_only_unpickler.py in PyTorch 2.x.
import { describe, it, expect } from "vitest";
import * as torch from "../../engine/index.js";
import { ZipWriter } from "../../engine/serialization/zip_writer.js";

const enc = (s: string) => new TextEncoder().encode(s);
function bytes(...parts: (string | number[] | Uint8Array)[]): Uint8Array {
  const chunks = parts.map((p) => (typeof p === "string" ? new Uint8Array([...p].map((c) => c.charCodeAt(0))) : new Uint8Array(p)));
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}
const str = (s: string) => bytes("X", [...new Uint8Array(new Uint32Array([enc(s).length]).buffer)], enc(s));

/** A zip checkpoint around a hand-written pickle (and optional storage records). */
function checkpoint(pkl: Uint8Array, storages: Record<string, Uint8Array> = {}): Uint8Array {
  const z = new ZipWriter("archive");
  z.writeRecord("data.pkl", pkl);
  for (const [k, v] of Object.entries(storages)) z.writeRecord(k, v);
  z.writeRecord("version", enc("3\n"));
  return z.finalize();
}
const load = (pkl: Uint8Array, storages?: Record<string, Uint8Array>) => torch.load(checkpoint(pkl, storages));
const PROTO = "\x80\x02";

describe("accepted: the allowlist's containers", () => {
  it("Counter, OrderedDict from pairs, set, bytes via _codecs.encode, bytearray, torch.Size, torch.device", () => {
    const got = load(bytes(PROTO, "}(",
      str("counter"), "ccollections\nCounter\n}", str("a"), "K\x02s\x85R",
      str("od"), "ccollections\nOrderedDict\n]", str("x"), "K\x01\x86a\x85R",
      str("set"), "c__builtin__\nset\n]K\x03a\x85R",
      str("bytes"), "c_codecs\nencode\n", str("\u00ff\u0001"), str("latin1"), "\x86R",
      str("ba"), "c__builtin__\nbytearray\n)R",
      str("size"), "ctorch\nSize\nK\x02K\x03\x86\x85R",
      str("dev"), "ctorch\ndevice\n", str("cuda"), "K\x01\x86R",
      "u.")) as any;
    expect(got.counter).toEqual({ a: 2 });
    expect(got.od).toEqual({ x: 1 });
    expect(torch.serialization.isOrderedDict(got.od)).toBe(true);
    expect(got.set).toEqual(new Set([3]));
    expect([...got.bytes]).toEqual([255, 1]);
    expect(got.ba).toEqual(new Uint8Array(0));
    expect(String(got.size)).toBe("torch.Size([2, 3])");
    expect(String(got.dev)).toBe("cuda:1");
  });

  it("_rebuild_from_type_v2 restores a tensor's Python attributes (refusing names Tensor already has)", () => {
    const f32 = new Uint8Array(new Float32Array([1, 2]).buffer);
    const tensorArgs = bytes("(", "(", str("storage"), "ctorch\nFloatStorage\n", str("0"), str("cpu"), "K\x02tQ", "K\x00K\x02\x85K\x01\x85\x89ccollections\nOrderedDict\n)Rt");
    const withState = (name: string) =>
      bytes(PROTO, "ctorch._tensor\n_rebuild_from_type_v2\n(ctorch._utils\n_rebuild_tensor_v2\nctorch\nTensor\n", tensorArgs, "}", str(name), str("hello"), "stR.");
    const t = load(withState("tag"), { "data/0": f32 }) as any;
    expect(t.tag).toBe("hello");
    expect(t.tolist()).toEqual([1, 2]);
    expect(() => load(withState("add"), { "data/0": f32 })).toThrow("cannot restore the tensor attribute 'add': Tensor already has a member of that name");
  });
});

describe("accepted: every tensor rebuild function of the allowlist", () => {
  const f32 = new Uint8Array(new Float32Array([1, 2, 3, 4]).buffer);
  const pid = (cls: string, numel: string) => bytes("(", str("storage"), cls, str("0"), str("cpu"), numel, "tQ");
  const hooks = "ccollections\nOrderedDict\n)R";
  it("_rebuild_tensor (v1): storage, offset, size, stride", () => {
    const t = load(bytes(PROTO, "ctorch._utils\n_rebuild_tensor\n(", pid("ctorch\nFloatStorage\n", "K\x04"), "K\x01K\x02\x85K\x01\x85tR."), { "data/0": f32 }) as any;
    expect(t.tolist()).toEqual([2, 3]);
  });
  it("_rebuild_tensor_v3 (2.x): an UntypedStorage of bytes read as the dtype argument", () => {
    const t = load(bytes(PROTO, "ctorch._utils\n_rebuild_tensor_v3\n(", pid("ctorch.storage\nUntypedStorage\n", "K\x10"), "K\x00K\x02K\x02\x86K\x02K\x01\x86\x89", hooks, "ctorch\nfloat32\ntR."), { "data/0": f32 }) as any;
    expect(t.dtype).toBe(torch.float32);
    expect(t.tolist()).toEqual([[1, 2], [3, 4]]);
  });
  it("_rebuild_parameter_with_state: the data tensor requires grad and gets the attributes", () => {
    const data = bytes("ctorch._utils\n_rebuild_tensor_v2\n(", pid("ctorch\nFloatStorage\n", "K\x04"), "K\x00K\x04\x85K\x01\x85\x89", hooks, "tR");
    const p = load(bytes(PROTO, "ctorch._utils\n_rebuild_parameter_with_state\n(", data, "\x88", hooks, "}", str("note"), str("x"), "stR."), { "data/0": f32 }) as any;
    expect(p.requires_grad).toBe(true);
    expect(p.note).toBe("x");
  });
});

describe("storages saved on CUDA", () => {
  it("need map_location here (PyTorch's error without it); a device or {location: device} maps them", () => {
    const f32 = new Uint8Array(new Float32Array([5, 6]).buffer);
    const pkl = bytes(PROTO, "ctorch._utils\n_rebuild_tensor_v2\n((", str("storage"), "ctorch\nFloatStorage\n", str("0"), str("cuda:0"),
      "K\x02tQK\x00K\x02\x85K\x01\x85\x89ccollections\nOrderedDict\n)RtR.");
    const ck = checkpoint(pkl, { "data/0": f32 });
    expect(() => torch.load(ck)).toThrow("Attempting to deserialize object on a CUDA device but torch.cuda.is_available() is False.");
    expect((torch.load(ck, { map_location: "cpu" }) as any).tolist()).toEqual([5, 6]);
    expect((torch.load(ck, { map_location: { "cuda:0": new torch.device("cpu") } }) as any).device.type).toBe("cpu");
    expect(() => torch.load(ck, { map_location: "xla" })).toThrow("don't know how to restore data location of torch.storage.UntypedStorage (tagged with xla)");
  });
});

describe("refused", () => {
  const cases: [string, Uint8Array, string][] = [
    ["SETITEM on a list", bytes(PROTO, "]K\x01K\x02s."), "Can only SETITEM for dict, collections.OrderedDict, collections.Counter, but got <class 'list'>"],
    ["APPEND on a tuple", bytes(PROTO, ")K\x01a."), "Can only append to lists, but got <class 'tuple'>"],
    ["REDUCE on a value that is no allowed callable", bytes(PROTO, str("os.system"), ")R."), "Trying to call reduce for unrecognized function 'os.system'"],
    ["a persistent id that is not a storage", bytes(PROTO, str("module"), "\x85Q."), "Only persistent_load of storage is allowed, but got <class 'str'>"],
    ["a memo index never put", bytes(PROTO, "h\x05."), "Memo value not found at index 5"],
    ["truncated data", bytes(PROTO, "X\x10\x00\x00\x00ab"), "String is too long"],
    ["no STOP", bytes(PROTO, "K\x01"), "pickle data was truncated"],
    ["sparse tensors (allowed by PyTorch, absent here)", bytes(PROTO, "ctorch._utils\n_rebuild_sparse_tensor\n."), "GLOBAL torch._utils._rebuild_sparse_tensor is allowed by PyTorch's weights-only unpickler, but Glasstorch has no sparse tensors."],
    ["nt.system (blocked module)", bytes(PROTO, "cnt\nsystem\n."), "Trying to load unsupported GLOBAL nt.system whose module nt is blocked."],
    ["builtins.getattr", bytes(PROTO, "cbuiltins\ngetattr\n."), "Unsupported global: GLOBAL getattr was not an allowed global by default."],
    ["copy_reg._reconstructor (Python 2 names are mapped first)", bytes(PROTO, "ccopy_reg\n_reconstructor\n."), "Unsupported global: GLOBAL copyreg._reconstructor was not an allowed global by default."],
    ["NEWOBJ", bytes(PROTO, "ccollections\nOrderedDict\n)\x81."), "Unsupported operand 129"],
  ];
  for (const [name, pkl, message] of cases) {
    it(name, () => {
      let err: any;
      try {
        load(pkl);
      } catch (e) {
        err = e;
      }
      expect(err?.name).toBe("UnpicklingError");
      expect(err.message).toContain(`WeightsUnpickler error: ${message}`);
    });
  }

  it("lists nested 100000 deep (APPEND, no MARK) stop at the conversion's depth limit, not the JS stack", () => {
    const pkl = bytes(PROTO, "]".repeat(100000), "a".repeat(99999), ".");
    expect(() => load(pkl)).toThrow("torch.load: containers nest deeper than 1000 levels");
  });

  it("a storage record missing from the archive, and a storage id of the wrong shape", () => {
    const pid = (numel: string) => bytes(PROTO, "(", str("storage"), "ctorch\nFloatStorage\n", str("0"), str("cpu"), numel, "tQ.");
    expect(() => load(pid("K\x02"))).toThrow("PytorchStreamReader failed locating file data/0: file not found");
    expect(() => load(pid("J\xff\xff\xff\xff"))).toThrow("persistent_load: storage size must be a non-negative int, not -1");
  });
});
