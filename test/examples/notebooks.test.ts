// The training notebooks in examples/ (fashion_mlp, fashion_cnn, transformer_reverse), run cell by cell the
// way the engine host runs them: extension/host/session.ts's NotebookSession (one shared scope, each cell
// transpiled by extension/host/transpile.ts), with the engine this test imports as "glasstorch".
// GLASSTORCH_EXAMPLE_STEPS makes each notebook stop after a few steps (the full runs take minutes; their
// accuracies are stated in the notebooks and examples/README.md). Checked: every cell runs, training
// records one loss per step and the loss falls (the mean of the last steps below the first steps'), and the
// evaluation cell gives an accuracy in [0, 1].
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as torch from "../../engine/index.js";
import { NotebookSession } from "../../extension/host/session.js";
import { parse } from "../../extension/src/notebook/nbts_format.js";

const dir = path.resolve(import.meta.dirname, "../../examples");
const STEPS: Record<string, number> = { fashion_mlp: 20, fashion_cnn: 6, transformer_reverse: 20 };
let saved: string | undefined;

beforeAll(() => {
  saved = process.env.GLASSTORCH_EXAMPLE_STEPS;
});
afterAll(() => {
  if (saved === undefined) delete process.env.GLASSTORCH_EXAMPLE_STEPS;
  else process.env.GLASSTORCH_EXAMPLE_STEPS = saved;
});

async function runNotebook(name: string): Promise<{ values: unknown[]; scope: Record<string, any> }> {
  process.env.GLASSTORCH_EXAMPLE_STEPS = String(STEPS[name]);
  const session = new NotebookSession(torch, dir);
  session.define("display", () => undefined);
  const text = readFileSync(path.join(dir, `${name}.nb.ts`), "utf8");
  const cells = parse(text).map((c, index) => ({ ...c, index })).filter((c) => c.kind === "code");
  const values: unknown[] = [];
  for (const cell of cells) values.push(await session.start(session.compile(cell.value, `vscode-notebook-cell:/${name}.nb.ts#${cell.index}`)));
  return { values, scope: session.scope as Record<string, any> };
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

describe("examples/*.nb.ts run end to end (shortened by GLASSTORCH_EXAMPLE_STEPS)", () => {
  for (const name of Object.keys(STEPS)) {
    it(name, async () => {
      const { values, scope } = await runNotebook(name);
      const losses: number[] = scope.losses;
      expect(losses).toHaveLength(STEPS[name]);
      expect(losses.every(Number.isFinite)).toBe(true);
      const k = Math.max(3, Math.floor(STEPS[name] / 5));
      expect(mean(losses.slice(-k))).toBeLessThan(0.9 * mean(losses.slice(0, k)));
      const acc = values.at(-1) as number;
      expect(acc).toBeGreaterThanOrEqual(0);
      expect(acc).toBeLessThanOrEqual(1);
    }, 120_000);
  }
});
