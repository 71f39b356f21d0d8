// Smoke test of `npm run bench` (bench/run.mjs): the harness runs a tiny workload on every side —
// Glasstorch native and TypeScript kernels, PyTorch (skipped when /usr/bin/python3 lacks torch),
// tfjs-wasm and tfjs-cpu — and writes a results file that parses and holds what the table printed.
// No timing assertions: speed belongs to the benchmark, not to tests.
import { describe, it, expect } from "vitest";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../../", import.meta.url));
const hasTorch = spawnSync("/usr/bin/python3", ["-c", "import torch"], { stdio: "ignore" }).status === 0;
if (!hasTorch) console.warn("[bench smoke] PyTorch side skipped: /usr/bin/python3 cannot import torch");

describe("bench/run.mjs", () => {
  it("times a tiny matmul and a 1-element add on every side, in two rounds, and writes valid JSON", () => {
    const dir = mkdtempSync(join(tmpdir(), "gt-bench-"));
    try {
      const out = join(dir, "r.json");
      const sides = ["native", "ts", "wasm", "cpu", ...(hasTorch ? ["pytorch"] : [])];
      const r = spawnSync(
        process.execPath,
        ["bench/run.mjs", "--quick", "--group", "kernels", "--filter", "matmul 64x64", "--filter", "(per-op overhead)",
          "--sides", sides.join(","), "--budget-ms", "5", "--max-cell-s", "2", "--rounds", "2", "--out", out],
        { cwd: root, encoding: "utf8" },
      );
      expect(r.stderr + r.stdout).not.toMatch(/error/i);
      expect(r.status).toBe(0);
      expect(r.stdout).toContain("matmul 64x64");
      const doc = JSON.parse(readFileSync(out, "utf8"));
      expect(typeof doc.machine.cpu.model).toBe("string");
      expect(doc.machine.page_fault_us).toBeGreaterThan(0); // (what a fresh page costs here: results at other costs do not compare)
      expect(r.stdout).toContain("first touch of a fresh page");
      expect(doc.threads.glasstorch).toBeGreaterThanOrEqual(1);
      expect(doc.timing.rounds).toBe(2);
      expect(doc.workloads.map((w: { id: string }) => w.id)).toEqual(["matmul 64x64", "matmul 64x64 (GC-freed)", "add 1-element (per-op overhead)"]);
      const expected = sides.filter((s) => s !== "native" || doc.glasstorch.native.loaded);
      for (const w of doc.workloads) {
        // tf.tidy always disposes the result: a "(GC-freed)" row has no tfjs twin
        for (const s of w.params.free === "gc" ? expected.filter((s) => s !== "wasm" && s !== "cpu") : expected) {
          expect(w.results[s].ms, `${w.id} on ${s}`).toBeGreaterThan(0);
          // 5 samples wanted: 3 per round, PyTorch's rounds (bench/torch_side.py) and Glasstorch's alike
          expect(w.results[s].samples, `${w.id} on ${s}`).toBeGreaterThanOrEqual(s === "wasm" || s === "cpu" ? 5 : 6);
        }
        if (doc.glasstorch.native.loaded && hasTorch) expect(w.ratios.native_vs_pytorch).toBeCloseTo(w.results.pytorch.ms / w.results.native.ms, 10);
      }
      const mm = doc.workloads[0];
      if (doc.glasstorch.native.loaded) expect(mm.rates.native).toBeCloseTo(2 * 64 ** 3 / mm.results.native.ms / 1e6, 6);
      if (hasTorch) {
        expect(doc.pytorch.num_threads).toBe(doc.threads.glasstorch);
        expect(typeof doc.pytorch.blas.kind).toBe("string");
      }
      expect(doc.tfjs["tfjs-backend-wasm"].threads).toBeGreaterThanOrEqual(1);
      expect(doc.goals.length).toBeGreaterThan(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 90_000);
});
