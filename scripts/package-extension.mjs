// `npm run package:extension`: extension/dist/glasstorch.vsix, built by `vsce package` from a
// staging folder that holds exactly what the installed extension runs:
//   package.json, README.md, LICENSE      the manifest and its documents
//   dist/                                 minified bundles and what they load at runtime (no maps)
//   engine/                               the engine's sources (yaml, TypeScript, generated/), which
//                                         the host's views show and link to
//   node scripts/package-extension.mjs [OUT.vsix]

import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const extension = path.join(root, "extension");
const out = process.argv[2] ? path.resolve(process.argv[2]) : path.join(extension, "dist", "glasstorch.vsix");
const stage = mkdtempSync(path.join(tmpdir(), "glasstorch-vsix-"));

try {
  for (const file of ["package.json", "README.md", "LICENSE"]) cpSync(path.join(extension, file), path.join(stage, file));
  execFileSync(process.execPath, [path.join(extension, "build.mjs"), "--minify", `--outdir=${path.join(stage, "dist")}`], { stdio: "inherit" });
  cpSync(path.join(root, "engine"), path.join(stage, "engine"), {
    recursive: true,
    filter: (src) => !/\.(map|tsbuildinfo)$/.test(src),
  });
  // The native CPU addon, where `npm install` built it: the host finds it next to its bundle (native/build/Release).
  const addon = path.join("native", "build", "Release", "glasstorch_cpu.node");
  if (existsSync(path.join(root, addon))) cpSync(path.join(root, addon), path.join(stage, addon));
  writeFileSync(path.join(stage, ".vscodeignore"), "**/*.map\n");
  execFileSync(process.execPath, [path.join(root, "node_modules", "@vscode", "vsce", "vsce"), "package", "--no-dependencies", "--out", out], {
    cwd: stage,
    stdio: "inherit",
  });
} finally {
  rmSync(stage, { recursive: true, force: true });
}
