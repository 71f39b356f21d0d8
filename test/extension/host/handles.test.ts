// The host's handle registry (extension/host/handles.ts): one stable handle per object, weakly held,
// and bounded (the oldest handles are forgotten past the limit).

import { describe, expect, it } from "vitest";
import { HandleRegistry } from "../../../extension/host/handles.js";

describe("HandleRegistry", () => {
  it("gives an object the same handle each time and finds it by handle", () => {
    const r = new HandleRegistry<object>();
    const a = {};
    const b = {};
    const ha = r.handleOf(a);
    expect(r.handleOf(a)).toBe(ha);
    expect(r.handleOf(b)).not.toBe(ha);
    expect(r.get(ha)).toBe(a);
    expect(r.get(12345)).toBeUndefined();
  });

  it("forgets the oldest handles past its limit", () => {
    const r = new HandleRegistry<object>(10);
    const objs = Array.from({ length: 25 }, () => ({}));
    const handles = objs.map((o) => r.handleOf(o));
    expect(r.size).toBeLessThanOrEqual(10);
    expect(r.get(handles[0])).toBeUndefined();
    expect(r.get(handles[24])).toBe(objs[24]);
    // a forgotten object gets a new handle when shown again
    const again = r.handleOf(objs[0]);
    expect(again).not.toBe(handles[0]);
    expect(r.get(again)).toBe(objs[0]);
  });
});
