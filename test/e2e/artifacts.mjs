// What the e2e suite leaves for the evidence, in test/e2e/artifacts/ (ignored by git;
// written afresh by each run): a screenshot of each view and timings.json, the figures measured in
// the real VS Code (activation, the 10,000-event trace tree, the 2,000-node graph, interrupts).

import { mkdirSync, writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import * as path from "node:path";
import { fileURLToPath } from "node:url";

export const ARTIFACTS = path.join(path.dirname(fileURLToPath(import.meta.url)), "artifacts");
mkdirSync(ARTIFACTS, { recursive: true });

const timings = { recordedAt: new Date().toISOString(), loadAverageAtStart: loadavg().map((l) => Number(l.toFixed(2))) };

/** Records a figure (printed now, written to timings.json at the end). */
export function record(name, value) {
  timings[name] = value;
  console.log(`      timing ${name}: ${JSON.stringify(value)}`);
}

export function writeTimings() {
  timings.loadAverageAtEnd = loadavg().map((l) => Number(l.toFixed(2)));
  writeFileSync(path.join(ARTIFACTS, "timings.json"), JSON.stringify(timings, null, 2) + "\n");
  return path.join(ARTIFACTS, "timings.json");
}

/** A screenshot of the whole workbench under test/e2e/artifacts/<name>.png; returns its path. */
export async function screenshot(page, name) {
  const file = path.join(ARTIFACTS, `${name}.png`);
  await page.screenshot({ path: file });
  return file;
}
