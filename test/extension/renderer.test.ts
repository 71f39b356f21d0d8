// The pure parts of the tensor renderer and the progress line: scales, hit testing, formatting.
import { describe, expect, it } from "vitest";
import { normalise, viridis } from "../../extension/webview/renderer/colour_scale.js";
import { formatValue } from "../../extension/webview/renderer/format.js";
import { cellSize, elementAt } from "../../extension/webview/renderer/heatmap.js";
import { binAt } from "../../extension/webview/renderer/histogram.js";
import { progressBarText } from "../../extension/src/notebook/progress_text.js";

describe("colour scale", () => {
  it("runs from viridis' dark purple to its yellow, clamped", () => {
    expect(viridis(0)).toEqual([68, 1, 84]);
    expect(viridis(1)).toEqual([253, 231, 37]);
    expect(viridis(-3)).toEqual(viridis(0));
    expect(viridis(7)).toEqual(viridis(1));
    expect(viridis(0.0625)).toEqual([70, 23, 103]);
  });
  it("places values between min and max; a constant tensor in the middle", () => {
    expect(normalise(5, 0, 10)).toBe(0.5);
    expect(normalise(-1, -1, 3)).toBe(0);
    expect(normalise(2, 2, 2)).toBe(0.5);
  });
});

describe("heat map and histogram hit testing", () => {
  it("sizes cells to fit and finds the element under the pointer", () => {
    expect(cellSize(2, 3)).toBe(32);
    expect(cellSize(100, 200)).toBe(2);
    expect(cellSize(1000, 1000)).toBe(1);
    const size = cellSize(2, 3);
    expect(elementAt({ rows: 2, cols: 3 }, size, 0, 0)).toEqual({ row: 0, col: 0 });
    expect(elementAt({ rows: 2, cols: 3 }, size, 95, 63)).toEqual({ row: 1, col: 2 });
    expect(elementAt({ rows: 2, cols: 3 }, size, 96, 10)).toBeUndefined();
    expect(elementAt({ rows: 2, cols: 3 }, size, -1, 10)).toBeUndefined();
  });
  it("finds the histogram bin under x", () => {
    expect(binAt([1, 2, 3, 4], 400, 0)).toBe(0);
    expect(binAt([1, 2, 3, 4], 400, 399)).toBe(3);
    expect(binAt([1, 2, 3, 4], 400, 150)).toBe(1);
    expect(binAt([1, 2, 3, 4], 400, 400)).toBeUndefined();
    expect(binAt([], 400, 10)).toBeUndefined();
  });
});

describe("number and progress formatting", () => {
  it("formats values short, integers exactly", () => {
    expect(formatValue(3)).toBe("3");
    expect(formatValue(0.1 + 0.2)).toBe("0.3");
    expect(formatValue(1.5e-7)).toBe("1.5000e-7");
    expect(formatValue(null)).toBe("nan");
    expect(formatValue(-Infinity)).toBe("-inf");
  });
  it("draws tqdm-style bars", () => {
    expect(progressBarText({ runId: 1, barId: 0, label: "train", current: 50, total: 100, rate: 12.34, done: false })).toBe(
      "train  50%|████████████            | 50/100 [12.3 it/s]",
    );
    expect(progressBarText({ runId: 1, barId: 0, current: 3, total: 3, done: true })).toBe("100%|████████████████████████| 3/3 done");
    expect(progressBarText({ runId: 1, barId: 0, current: 7, done: false, rate: 0.5 })).toBe("7 it [2.0 s/it]");
    expect(progressBarText({ runId: 1, barId: 0, current: 1, total: 16, done: false })).toBe("  6%|█▌                      | 1/16");
  });
});

describe("renderer -> extension messages", () => {
  it("accepts a Backward Graph request for a positive integer handle and nothing else", async () => {
    const { parseRendererMessage } = await import("../../extension/webview/renderer/messages.js");
    expect(parseRendererMessage({ type: "showBackwardGraph", handle: 7 })).toEqual({ type: "showBackwardGraph", handle: 7 });
    expect(parseRendererMessage({ type: "showBackwardGraph", handle: 7, extra: "<script>" })).toEqual({ type: "showBackwardGraph", handle: 7 });
    for (const bad of [null, "showBackwardGraph", { type: "showBackwardGraph" }, { type: "showBackwardGraph", handle: "7" }, { type: "showBackwardGraph", handle: 1.5 }, { type: "showBackwardGraph", handle: 0 }, { type: "run", handle: 1 }]) {
      expect(parseRendererMessage(bad), JSON.stringify(bad)).toBeUndefined();
    }
  });
});
