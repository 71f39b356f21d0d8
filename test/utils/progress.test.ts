// torch.utils.progress / tqdm (engine/utils/progress.ts): iterates what it wraps, counts steps,
// reports to a sink at most ten times a second (plus the first and the last update), and draws
// tqdm's text bar.

import { afterEach, describe, expect, it } from "vitest";
import * as torch from "../../engine/index.js";
import { formatBar, setProgressSink, type ProgressUpdate } from "../../engine/utils/progress.js";

afterEach(() => setProgressSink(null));

function collect(): ProgressUpdate[] {
  const got: ProgressUpdate[] = [];
  setProgressSink((u) => got.push(u));
  return got;
}

describe("torch.utils.progress", () => {
  it("iterates a range, an array and a generator, with total from the length when it has one", () => {
    const got = collect();
    expect([...torch.utils.progress(3)]).toEqual([0, 1, 2]);
    expect([...torch.utils.tqdm(["a", "b"], { desc: "letters" })]).toEqual(["a", "b"]);
    function* gen() {
      yield 1;
      yield 2;
    }
    expect([...torch.utils.progress(gen())]).toEqual([1, 2]);
    const finals = got.filter((u) => u.done);
    expect(finals.map((u) => [u.current, u.total, u.label])).toEqual([
      [3, 3, undefined],
      [2, 2, "letters"],
      [2, undefined, undefined],
    ]);
  });

  it("throttles updates to ten a second, keeping the first and the last", () => {
    const got = collect();
    for (const _ of torch.utils.progress(100_000)) {
      /* a fast loop */
    }
    expect(got[0]).toMatchObject({ current: 0, total: 100_000, done: false });
    expect(got[got.length - 1]).toMatchObject({ current: 100_000, done: true });
    expect(got.length).toBeLessThan(10);
  });

  it("closes the bar when the loop breaks, and supports update()/close() by hand and for await", async () => {
    const got = collect();
    for (const i of torch.utils.progress(10)) if (i === 4) break;
    expect(got[got.length - 1]).toMatchObject({ current: 4, total: 10, done: true });
    const bar = torch.utils.progress({ total: 5, desc: "manual" });
    bar.update(2);
    bar.update(3);
    bar.close();
    expect(got[got.length - 1]).toMatchObject({ current: 5, total: 5, label: "manual", done: true });
    async function* agen() {
      yield "x";
      yield "y";
    }
    const seen: string[] = [];
    for await (const s of torch.utils.progress(agen())) seen.push(s);
    expect(seen).toEqual(["x", "y"]);
    expect(got[got.length - 1]).toMatchObject({ current: 2, done: true });
  });

  it("draws tqdm's bar text", () => {
    expect(formatBar({ barId: 1, label: "train", current: 4, total: 10, rate: 3.5, done: false }, 65)).toBe(
      "\rtrain:  40%|████████            | 4/10 [01:05, 3.50it/s]",
    );
    expect(formatBar({ barId: 1, current: 7, done: false }, 0)).toBe("\r7it [00:00, ?it/s]");
  });
});
