// Interop with real PyTorch: checkpoints written by Glasstorch's torch.save are loaded by PyTorch 1.13
// (/usr/bin/python3) and described there (test/fixtures/_checkpoint_describe.py); the description must equal
// Glasstorch's own of what it saved. Needs Python with torch, so it is skipped (saying why) where there is none;
// the other direction (PyTorch's files loaded here) is covered by the committed fixtures in load_fixtures.test.ts.
import { describe, it, expect } from "vitest";
import { spawnSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import * as torch from "../../engine/index.js";
import { Tensor } from "../../engine/aten/core/Tensor.js";
import { describeLoaded, normalize } from "../support/checkpoint_describe.js";

const PY = "/usr/bin/python3";
const fixturesDir = fileURLToPath(new URL("../fixtures/", import.meta.url));

function torchMissing(): string | null {
  const r = spawnSync(PY, ["-c", "import torch; print(torch.__version__)"], { encoding: "utf8" });
  if (r.error) return `${PY} is not available`;
  if (r.status !== 0) return `${PY} has no torch`;
  return null;
}
const missing = torchMissing();
if (missing) console.warn(`[interop] PyTorch interop tests skipped: ${missing}`);

/** Stands in for nn.Parameter (not in Glasstorch yet): torch.save recognises the class by its name. */
class Parameter extends Tensor {}

const { OrderedDict, tuple } = torch.serialization;

function cases(): Record<string, unknown> {
  torch.manual_seed(0);
  const base = torch.randn(3, 4);
  const every: Record<string, unknown> = {};
  for (const dt of [torch.float32, torch.float64, torch.float16, torch.bfloat16, torch.int8, torch.uint8, torch.int16, torch.int32, torch.int64, torch.bool]) {
    const t = torch.arange(-3, 9).to(dt).reshape(3, 4);
    every[dt.name] = [t, t.t(), t.get(":", "::2")];
  }
  const w = torch.randn(4, 3);
  return {
    tensor: torch.randn(2, 3),
    views: [base, base.get(1), base.t(), base.get(":", "1:3")],
    dtypes: every,
    special: torch.tensor([NaN, Infinity, -Infinity, -0, 3.4e38], { dtype: torch.float32 }),
    state_dict: OrderedDict({ "0.weight": new Parameter(w._impl), "0.bias": torch.zeros(4), "1.running_mean": torch.ones(3) }),
    optimizer: {
      state: new Map([[0, { momentum_buffer: torch.ones(4, 3) }], [1, { momentum_buffer: torch.zeros(4) }]]),
      param_groups: [{ lr: 0.01, momentum: 0.9, dampening: 0, weight_decay: 0, nesterov: false, params: [0, 1], betas: tuple(0.9, 0.999) }],
    },
    requires_grad: { leaf: torch.randn(3, { requires_grad: true }), plain: torch.ones(2) },
    nested: { a: [1, 2.5, "x", null, true, tuple(1, 2)], b: { c: torch.arange(3), d: [torch.ones(1), { e: torch.zeros(2) }] }, big: 2n ** 70n, set: new Set([1, 2]), bytes: new Uint8Array([0, 255]) },
    meta: { m: torch.empty(2, 3, { device: "meta" }), c: torch.ones(1) },
    misc: { dtype: torch.float16, device: new torch.device("cpu"), size: torch.Size.from_([2, 3]) },
  };
}

describe("PyTorch 1.13 loads what Glasstorch's torch.save writes", () => {
  it.skipIf(missing !== null)(`every case loads in PyTorch with the same contents${missing ? ` (skipped: ${missing})` : ""}`, () => {
    const dir = mkdtempSync(join(tmpdir(), "glasstorch-interop-"));
    const objs = cases();
    for (const [name, obj] of Object.entries(objs)) torch.save(obj, join(dir, `${name}.pt`));
    const script = [
      "import json, sys, torch",
      `sys.path.insert(0, ${JSON.stringify(fixturesDir)})`,
      "from _checkpoint_describe import describe",
      "out = {}",
      "for name in sys.argv[2:]:",
      "    path = f'{sys.argv[1]}/{name}.pt'",
      "    obj = torch.load(path)",
      "    try:",
      "        torch.load(path, weights_only=True); wo = True",
      "    except Exception:",
      "        wo = False",
      "    out[name] = {'desc': describe(obj), 'weights_only_ok': wo}",
      "print(json.dumps(out))",
    ].join("\n");
    const r = spawnSync(PY, ["-c", script, dir, ...Object.keys(objs)], { encoding: "utf8", maxBuffer: 64 << 20 });
    expect(r.stderr.split("\n").filter((l) => /Error|Traceback/.test(l))).toEqual([]);
    expect(r.status).toBe(0);
    const py = JSON.parse(r.stdout);
    for (const [name, obj] of Object.entries(objs)) {
      expect({ name, desc: normalize(py[name].desc) }).toEqual({ name, desc: describeLoaded(obj) });
    }
    // 1.13's own weights-only unpickler accepts the tensor checkpoints (it has no sets/bytes/devices, and no
    // BINFLOAT opcode either -- "Unsupported operand 71" -- so an optimizer's float lr fails there, ours or PyTorch's)
    for (const name of ["tensor", "views", "dtypes", "state_dict", "requires_grad"]) {
      expect({ name, ok: py[name].weights_only_ok }).toEqual({ name, ok: true });
    }
  }, 60_000);
});
