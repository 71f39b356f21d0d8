// `node dist/engine/codegen/main.js [--check]`: regenerate engine/generated/ from engine/ops/*.yaml.
// With --check, write nothing and fail if any generated file differs from what is on disk
// (stale or hand-edited): CI runs the build, then this check.

import { expandAutogen } from "./autogen.js";
import { mkdirSync, readFileSync, readdirSync, writeFileSync, existsSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { loadNativeFunctions } from "./model.js";
import { generate } from "./gen.js";
import { generateAutograd } from "./gen_autograd.js";
import { loadDerivatives, findDerivative } from "./derivatives.js";

/** The repository root: the nearest folder above this file with package.json (works from engine/ and dist/engine/). */
function findRoot(): string {
  let dir = fileURLToPath(new URL(".", import.meta.url));
  while (!existsSync(join(dir, "package.json"))) {
    const up = resolve(dir, "..");
    if (up === dir) throw new Error("codegen: cannot find the repository root");
    dir = up;
  }
  return dir;
}

const root = findRoot();
const yamlRel = "engine/ops/native_functions.yaml";
const derivativesRel = "engine/ops/derivatives.yaml";
const outDir = join(root, "engine/generated");

export function generatedFiles(): Map<string, string> {
  // native_functions.yaml, then one file per operator family in native_functions/ (PyTorch keeps one
  // 2,500-entry file; split by family, each stays readable)
  const familyDir = "engine/ops/native_functions";
  const familyFiles = existsSync(join(root, familyDir)) ? readdirSync(join(root, familyDir)).filter((f) => f.endsWith(".yaml")).sort() : [];
  const declared = [yamlRel, ...familyFiles.map((f) => `${familyDir}/${f}`)].flatMap((rel) => loadNativeFunctions(join(root, rel), rel));
  const fns = [...declared, ...expandAutogen(declared)];
  const seen = new Map<string, string>();
  for (const f of fns) {
    const name = f.func.fullName();
    if (seen.has(name)) throw new Error(`${f.loc.file}:${f.loc.line}: ${name} is declared twice (first at ${seen.get(name)})`);
    seen.set(name, `${f.loc.file}:${f.loc.line}`);
  }
  // derivatives.yaml is loaded and checked on every build, so a bad formula fails it at its yaml line
  const derivatives = loadDerivatives(join(root, derivativesRel), derivativesRel, fns);
  const { files, pieces } = generate(fns, yamlRel);
  for (const [name, text] of generateAutograd(fns, derivatives, pieces)) files.set(name, text);
  // index.json: each op's yaml line and the line range of every generated piece (the extension reads it)
  const index = {
    version: 1,
    yaml: yamlRel,
    ops: fns.map((f) => ({
      name: f.func.fullName().replace(/^aten::/, ""),
      yaml: { file: f.loc.file, line: f.loc.line, endLine: f.endLine },
      derivative: (() => {
        const d = findDerivative(f, derivatives);
        return d ? { file: derivativesRel, line: d.info.loc.line, node: d.info.op, exact: d.exact } : null;
      })(),
      pieces: pieces
        .filter((p) => p.label === f.func.fullName().replace(/^aten::/, "") || p.label.startsWith(f.func.fullName().replace(/^aten::/, "") + " @"))
        .map((p) => ({ kind: p.kind, label: p.label, file: `engine/generated/${p.file}`, startLine: p.startLine, endLine: p.endLine })),
    })),
    bindings: pieces
      .filter((p) => p.kind === "binding" || p.kind === "method")
      .map((p) => ({ label: p.label, file: `engine/generated/${p.file}`, startLine: p.startLine, endLine: p.endLine, yamlLine: p.yamlLine })),
  };
  files.set("index.json", JSON.stringify(index, null, 2) + "\n");
  return files;
}

function main(): void {
  const check = process.argv.includes("--check");
  const files = generatedFiles();
  const existing = existsSync(outDir) ? readdirSync(outDir) : [];
  const problems: string[] = [];
  for (const [name, text] of files) {
    const path = join(outDir, name);
    const current = existsSync(path) ? readFileSync(path, "utf8") : null;
    if (current === text) continue;
    if (check) problems.push(`${current === null ? "missing" : "stale or hand-edited"}: engine/generated/${name}`);
    else {
      mkdirSync(outDir, { recursive: true });
      writeFileSync(path, text);
    }
  }
  for (const name of existing) {
    if (files.has(name)) continue;
    if (check) problems.push(`not produced by the codegen: engine/generated/${name}`);
    else rmSync(join(outDir, name));
  }
  if (problems.length) {
    console.error(`engine/generated/ does not match the codegen's output:\n  ${problems.join("\n  ")}\nRun \`npm run build\` and commit the result.`);
    process.exit(1);
  }
  if (!check) console.log(`codegen: ${files.size} files in engine/generated/`);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
