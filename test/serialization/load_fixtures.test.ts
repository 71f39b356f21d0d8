// torch.load of checkpoints written by real PyTorch 1.13 (test/fixtures/gen_checkpoints.py): every tensor's
// dtype, shape, strides, storage offset, requires_grad, element bits and which storage it shares, and every
// container around them, against what PyTorch itself loads from the same file (fixtures/checkpoints.json).
import { describe, it, expect } from "vitest";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import * as torch from "../../engine/index.js";
import { loadFixture } from "../support/fixtures.js";
import { describeLoaded, normalize } from "../support/checkpoint_describe.js";

const F = loadFixture("checkpoints.json");
const dir = fileURLToPath(new URL("../fixtures/checkpoints/", import.meta.url));

describe("torch.load reads PyTorch 1.13's checkpoints (and 2.x's layout) exactly", () => {
  for (const [name, c] of Object.entries<any>(F.cases)) {
    it(`${name}.pt`, () => {
      const got = describeLoaded(torch.load(dir + c.file));
      // a saved nn.Parameter loads as an nn.Parameter (torch._utils._rebuild_parameter)
      expect(got).toEqual(normalize(c.expected));
    });
  }

  it("loads from bytes as from a path, and the path and buffer forms agree", () => {
    const bytes = readFileSync(dir + "views.pt");
    expect(describeLoaded(torch.load(new Uint8Array(bytes)))).toEqual(describeLoaded(torch.load(dir + "views.pt")));
    const ab = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
    expect(describeLoaded(torch.load(ab))).toEqual(describeLoaded(torch.load(dir + "views.pt")));
  });

  it("views saved together still share one storage after loading: writing through one shows in the others", () => {
    const [base, row, t] = torch.load(dir + "views.pt") as any[];
    expect(row._impl.storage).toBe(base._impl.storage);
    expect(t._impl.storage).toBe(base._impl.storage);
    row.fill_(-1);
    expect(base.get(1).tolist()).toEqual([-1, -1, -1, -1]);
    expect(t.get(":", 1).tolist()).toEqual([-1, -1, -1, -1]);
  });

  it("values print as PyTorch prints them", () => {
    const d = torch.load(dir + "dtypes.pt") as any;
    expect(String(d.float16)).toBe("tensor([ 1.5000e+00, -2.0000e+00,  6.5504e+04,  5.9605e-08,         inf],\n       dtype=torch.float16)");
    expect(String(d.bool)).toBe("tensor([ True, False,  True])");
    expect(d.int64._impl.storage.nbytes()).toBe(24);
  });

  it("a state_dict is an OrderedDict (plain object, PyTorch's key order) with its _metadata", () => {
    const sd = torch.load(dir + "module_state.pt") as any;
    expect(Object.keys(sd)).toEqual(["0.weight", "0.bias", "2.weight", "2.bias"]);
    expect(torch.serialization.isOrderedDict(sd)).toBe(true);
    // "", "0", "1", "2": a plain object would list "" last, so _metadata is a Map in PyTorch's order
    expect(sd._metadata).toBeInstanceOf(Map);
    expect([...sd._metadata.keys()]).toEqual(["", "0", "1", "2"]);
    expect(sd._metadata.get("0")).toEqual({ version: 1 });
  });

  it("an optimizer's state_dict keeps its int keys (a Map) and its param_groups list", () => {
    const sd = torch.load(dir + "optimizer_state.pt") as any;
    expect(sd.state).toBeInstanceOf(Map);
    expect([...sd.state.keys()]).toEqual([0, 1, 2, 3]);
    expect(sd.state.get(0).momentum_buffer.shape).toEqual([4, 3]);
    expect(sd.param_groups[0].params).toEqual([0, 1, 2, 3]);
    expect(sd.param_groups[0].lr).toBe(0.1);
  });

  it("map_location: a device, or {saved location: device}; cuda without CUDA is PyTorch's error", () => {
    const m = torch.load(dir + "tensor.pt", { map_location: "meta" }) as any;
    expect(m.device.type).toBe("meta");
    expect(m.shape).toEqual([2, 3]);
    const c = torch.load(dir + "tensor.pt", { map_location: { cpu: "cpu" } }) as any;
    expect(c.device.type).toBe("cpu");
    expect(() => torch.load(dir + "tensor.pt", { map_location: "cuda:0" })).toThrow(
      "Attempting to deserialize object on a CUDA device but torch.cuda.is_available() is False. If you are running on a CPU-only machine, please use torch.load with map_location=torch.device('cpu') to map your storages to the CPU.",
    );
  });

  it("weights_only=false is refused: there is no unsafe mode", () => {
    expect(() => torch.load(dir + "tensor.pt", { weights_only: false })).toThrow(/only loads weights \(weights_only=True\)/);
  });

  it("the big-endian 2.x file loads to the same values as the little-endian one", () => {
    expect(describeLoaded(torch.load(dir + "v2_bigendian.pt"))).toEqual(describeLoaded(torch.load(dir + "v2_layout.pt")));
  });
});

describe("the weights-only unpickler refuses what is not weights, naming the global (PyTorch 2.x's texts)", () => {
  const expected: Record<string, string | RegExp> = {
    evil_os_system: "Trying to load unsupported GLOBAL os.system whose module os is blocked.",
    evil_posix_system: "Trying to load unsupported GLOBAL posix.system whose module posix is blocked.",
    evil_builtins_eval: "Unsupported global: GLOBAL eval was not an allowed global by default.",
    evil_custom_class: "Unsupported global: GLOBAL __main__.Payload was not an allowed global by default.",
    evil_subprocess: "Unsupported global: GLOBAL subprocess.check_output was not an allowed global by default.",
    evil_oversized_storage: "record size 24 mismatch with dst size 4398046511104",
    evil_out_of_bounds_view:
      "setStorage: sizes [1000], strides [1], storage offset 0, and itemsize 4 requiring a storage size of 4000 are out of bounds for storage of size 24",
    evil_build_dict: "Can only build Tensor, Parameter, OrderedDict or types allowlisted via `add_safe_globals`, but got <class 'dict'>",
    evil_unknown_opcode: "Unsupported operand 105",
    evil_deep_nesting: "pickle nests deeper than 1000 MARKs",
  };
  for (const [name, m] of Object.entries<any>(F.malicious)) {
    it(`${name}: ${m.note} (PyTorch 1.13 weights_only: ${m.torch_1_13_weights_only})`, () => {
      let err: any;
      try {
        torch.load(dir + m.file);
      } catch (e) {
        err = e;
      }
      expect(err).toBeDefined();
      expect(err.message).toContain(expected[name]);
      if (err.name === "UnpicklingError") expect(err.message.startsWith("Weights only load failed.")).toBe(true);
    });
  }
  it("every malicious fixture has an expectation here", () => {
    expect(Object.keys(F.malicious).sort()).toEqual(Object.keys(expected).sort());
  });
});
