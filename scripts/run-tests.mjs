// `npm test` after the build: vitest, then the e2e suite in code-server, then one closing line
// over both — "N passed, N failed" — which CI reads. Exits non-zero if either runner failed.
//   node scripts/run-tests.mjs [--no-e2e]   (--no-e2e: vitest only, for quick local runs)

import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const dir = mkdtempSync(path.join(tmpdir(), "glasstorch-tests-"));
const summaryFile = path.join(dir, "summary.jsonl");
const env = { ...process.env, GLASSTORCH_SUMMARY_FILE: summaryFile };

const runners = [{ name: "vitest", cmd: [path.join(root, "node_modules", "vitest", "vitest.mjs"), "run"] }];
if (!process.argv.includes("--no-e2e")) runners.push({ name: "e2e", cmd: [path.join(root, "test", "e2e", "run.mjs")] });

let passed = 0;
let failed = 0;
for (const runner of runners) {
  const before = readCounts().filter((c) => c.runner === runner.name).length;
  const result = spawnSync(process.execPath, runner.cmd, { cwd: root, env, stdio: "inherit" });
  const counts = readCounts().filter((c) => c.runner === runner.name).slice(before);
  for (const c of counts) {
    passed += c.passed;
    failed += c.failed;
  }
  // A runner that failed without reporting a failure (crash, setup error) still counts as one.
  const reportedFailures = counts.reduce((n, c) => n + c.failed, 0);
  if (result.status !== 0 && reportedFailures === 0) {
    console.error(`${runner.name} exited with ${result.status ?? result.signal} without counting a failure; counted as 1 failed`);
    failed += 1;
  }
}
rmSync(dir, { recursive: true, force: true });
console.log(`\n${passed} passed, ${failed} failed`);
process.exitCode = failed > 0 ? 1 : 0;

function readCounts() {
  try {
    return readFileSync(summaryFile, "utf8").trim().split("\n").filter(Boolean).map((l) => JSON.parse(l));
  } catch {
    return [];
  }
}
