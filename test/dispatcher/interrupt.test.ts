// The pending-interrupt check between ops (engine/c10/Interrupt.ts): while a check says "stop", the
// next dispatched op throws KeyboardInterrupt naming that op; without one, ops run as before.

import { afterEach, describe, expect, it } from "vitest";
import * as torch from "../../engine/index.js";
import { setPendingInterrupt } from "../../engine/c10/Interrupt.js";

afterEach(() => setPendingInterrupt(null));

describe("pending interrupt", () => {
  it("makes the next op throw KeyboardInterrupt with the op's name, and only while the check says so", () => {
    const a = torch.ones(2);
    let stop = true;
    setPendingInterrupt(() => stop);
    let err: unknown;
    try {
      a.add(1);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(torch.KeyboardInterrupt);
    expect(err).not.toBeInstanceOf(torch.RuntimeError);
    expect(err).toMatchObject({ name: "KeyboardInterrupt", op: "aten::add.Tensor" });
    stop = false; // another run's code, for a host: not interrupted
    expect(String(a.add(1))).toBe("tensor([2., 2.])");
    setPendingInterrupt(null);
    expect(String(a.mul(3))).toBe("tensor([3., 3.])");
  });

  it("stops a progress loop at its next step even when the loop runs no op", () => {
    let steps = 0;
    setPendingInterrupt(() => steps >= 3);
    expect(() => {
      for (const _ of torch.utils.progress(10, { disable: true })) steps++;
    }).toThrow(torch.KeyboardInterrupt);
    expect(steps).toBe(3);
  });
});

describe("errors name their operator", () => {
  it("sets err.op to the innermost op an engine error came out of, when the kernel did not", () => {
    let err: { op?: string } | undefined;
    try {
      torch.mm(torch.ones(2, 3), torch.ones(2, 3));
    } catch (e) {
      err = e as { op?: string };
    }
    expect(err).toBeInstanceOf(torch.RuntimeError);
    expect(err!.op).toBe("aten::mm");
  });
});
