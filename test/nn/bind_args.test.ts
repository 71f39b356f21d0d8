// bindArgs (engine/nn/_bind.ts): positional and keyword binding, defaults, and Python's TypeError texts
// (as CPython 3 words them for `def f(a, b, c=3, d=None)`).
import { describe, expect, it } from "vitest";
import { bindArgs } from "../../engine/nn/_bind.js";

const P = [["a"], ["b"], ["c", 3], ["d", null]] as const;
const bind = (...args: unknown[]) => bindArgs("f", args, P);

describe("bindArgs", () => {
  it("binds positional arguments, keywords and defaults", () => {
    expect(bind(1, 2)).toEqual({ a: 1, b: 2, c: 3, d: null });
    expect(bind(1, 2, 5, 6)).toEqual({ a: 1, b: 2, c: 5, d: 6 });
    expect(bind(1, { b: 2, d: 7 })).toEqual({ a: 1, b: 2, c: 3, d: 7 });
    expect(bind({ a: 1, b: 2, c: 0 })).toEqual({ a: 1, b: 2, c: 0, d: null });
    // an undefined keyword is as if absent
    expect(bind(1, 2, { c: undefined })).toEqual({ a: 1, b: 2, c: 3, d: null });
  });
  it("raises Python's TypeErrors", () => {
    expect(() => bind(1, 2, 3, 4, 5)).toThrow("f() takes from 2 to 4 positional arguments but 5 were given");
    expect(() => bindArgs("g", [1, 2], [["x"]])).toThrow("g() takes 1 positional argument but 2 were given");
    expect(() => bindArgs("h", [1], [])).toThrow("h() takes 0 positional arguments but 1 was given");
    expect(() => bind(1, 2, { e: 1 })).toThrow("f() got an unexpected keyword argument 'e'");
    expect(() => bind(1, 2, { a: 1 })).toThrow("f() got multiple values for argument 'a'");
    expect(() => bind(1)).toThrow("f() missing 1 required positional argument: 'b'");
    expect(() => bind()).toThrow("f() missing 2 required positional arguments: 'a' and 'b'");
    expect(() => bindArgs("h", [], [["x"], ["y"], ["z"]])).toThrow("h() missing 3 required positional arguments: 'x', 'y' and 'z'");
  });
});
