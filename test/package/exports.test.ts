// The published entry point: `import * as torch from "glasstorch"` must work in plain Node after the build.
import { describe, it, expect } from "vitest";
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../../", import.meta.url));

describe("package exports", () => {
  it("resolves `glasstorch` to the built ESM entry in a plain Node process", () => {
    expect(existsSync(root + "dist/engine/index.js")).toBe(true);
    const out = execFileSync(
      process.execPath,
      ["--input-type=module", "-e", 'import * as torch from "glasstorch"; console.log(String(torch.zeros(2, 3).shape), String(torch.float32))'],
      { cwd: root, encoding: "utf8" },
    );
    expect(out.trim()).toBe("torch.Size([2, 3]) torch.float32");
  });

  it("resolves `glasstorch/safetensors` (safetensors.torch's API) and torch.save/torch.load on the root", () => {
    const out = execFileSync(
      process.execPath,
      [
        "--input-type=module",
        "-e",
        'import * as torch from "glasstorch"; import { save, load } from "glasstorch/safetensors"; ' +
          'const t = load(save({ w: torch.ones(2) })).w; console.log(String(t), String(torch.load(torch.save(t))))',
      ],
      { cwd: root, encoding: "utf8" },
    );
    expect(out.trim()).toBe("tensor([1., 1.]) tensor([1., 1.])");
  }, 30_000);
});
