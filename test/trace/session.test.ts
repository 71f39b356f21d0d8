import { describe, it, expect, afterEach } from "vitest";
import {
  attachTo,
  clear,
  events,
  installIfEnv,
  isTracing,
  noteApiBinding,
  record,
  recorder,
  startRecording,
  stopRecording,
  subscribe,
  type DispatchObserver,
} from "../../engine/trace/index.js";
import { dispatchAdd, tensor } from "./fakes.js";

// A stand-in dispatcher: one observer slot, as engine/dispatcher/DispatchObserver.ts will have.
let observer: DispatchObserver | null = null;
const installs: string[] = [];
function setDispatchObserver(o: DispatchObserver | null): void {
  observer = o;
  installs.push(o ? "install" : "remove");
}
function torchAdd(a: unknown, b: unknown): unknown {
  const out = tensor([1]);
  if (isTracing()) noteApiBinding("torch.add"); // what a generated binding does
  if (observer) dispatchAdd(observer, a, b, out); // the one flag check of an untraced dispatch
  return out;
}

let detach: (() => void) | null = null;
afterEach(() => {
  stopRecording();
  detach?.();
  detach = null;
  installs.length = 0;
  recorder.configure({ callSites: true });
  clear();
});

describe("trace session", () => {
  it("installs the observer only while recording", () => {
    detach = attachTo(setDispatchObserver);
    expect(observer).toBeNull();
    torchAdd(null, null);
    expect(events()).toEqual([]);
    startRecording({ callSites: false });
    expect(isTracing()).toBe(true);
    expect(observer).toBe(recorder);
    torchAdd(null, null);
    stopRecording();
    expect(observer).toBeNull();
    torchAdd(null, null);
    expect(events().filter((e) => e.type === "call").length).toBe(1);
    expect(installs).toEqual(["install", "remove"]);
  });

  it("attaching while recording installs at once; detaching removes", () => {
    startRecording();
    detach = attachTo(setDispatchObserver);
    expect(observer).toBe(recorder);
    detach();
    detach = null;
    expect(observer).toBeNull();
  });

  it("record(fn) returns fn's result and the events fn produced, and leaves tracing off", () => {
    detach = attachTo(setDispatchObserver);
    torchAdd(null, null);
    const { result, events: ev } = record(() => {
      torchAdd(tensor([2]), tensor([2]));
      return 42;
    });
    expect(result).toBe(42);
    expect(ev.map((e) => e.type)).toEqual(["call", "dispatch", "dispatch", "step_end", "return"]);
    expect(ev[0]).toMatchObject({ type: "call", apiBinding: "torch.add" });
    expect(observer).toBeNull();
    expect(isTracing()).toBe(false);
  });

  it("record(fn) turns tracing off again when fn throws", () => {
    detach = attachTo(setDispatchObserver);
    expect(() =>
      record(() => {
        throw new Error("user bug");
      }),
    ).toThrow("user bug");
    expect(observer).toBeNull();
  });

  it("record(async fn) waits for it", async () => {
    detach = attachTo(setDispatchObserver);
    const { result, events: ev } = await record(async () => {
      await Promise.resolve();
      torchAdd(null, null);
      return "done";
    });
    expect(result).toBe("done");
    expect(ev.filter((e) => e.type === "call").length).toBe(1);
    expect(observer).toBeNull();
  });

  it("`using` a recording stops it at the end of the block", () => {
    detach = attachTo(setDispatchObserver);
    let seen = 0;
    {
      using rec = startRecording({ callSites: false });
      torchAdd(null, null);
      seen = rec.events().length;
      expect(observer).toBe(recorder);
    }
    expect(seen).toBe(5);
    expect(observer).toBeNull();
  });

  it("record inside a recording keeps the outer one going", () => {
    detach = attachTo(setDispatchObserver);
    const outer = startRecording({ callSites: false });
    torchAdd(null, null);
    const inner = record(() => torchAdd(null, null));
    expect(observer).toBe(recorder);
    torchAdd(null, null);
    expect(inner.events.length).toBe(5);
    expect(outer.events().length).toBe(15);
  });

  it("subscribe streams events; an activating subscription keeps tracing on", () => {
    detach = attachTo(setDispatchObserver);
    const got: string[] = [];
    const off = subscribe((e) => got.push(e.type), { activate: true });
    expect(observer).toBe(recorder);
    torchAdd(null, null);
    off();
    off(); // twice is harmless
    expect(observer).toBeNull();
    expect(got.length).toBe(5);
  });

  it(`GLASSTORCH_SHOW_DISPATCH_TRACE=1 prints every dispatch to stderr in PyTorch's format`, () => {
    detach = attachTo(setDispatchObserver);
    expect(installIfEnv({})).toBeNull();
    expect(installIfEnv({ GLASSTORCH_SHOW_DISPATCH_TRACE: "0" })).toBeNull();
    expect(observer).toBeNull();
    let out = "";
    const off = installIfEnv({ GLASSTORCH_SHOW_DISPATCH_TRACE: "1" }, (s) => (out += s))!;
    expect(off).toBeTypeOf("function");
    expect(installIfEnv({ GLASSTORCH_SHOW_DISPATCH_TRACE: "1" }, () => {})).toBe(off); // once per process
    torchAdd(null, null);
    off();
    torchAdd(null, null);
    expect(out).toBe("[call] op=[aten::add.Tensor], key=[AutogradCPU]\n [redispatch] op=[aten::add.Tensor], key=[CPU]\n");
    expect(observer).toBeNull();
  });

  it("a higher value is a higher level, as tinygrad's DEBUG", () => {
    detach = attachTo(setDispatchObserver);
    let out = "";
    const off = installIfEnv({ GLASSTORCH_SHOW_DISPATCH_TRACE: "2" }, (s) => (out += s))!;
    torchAdd(null, null);
    off();
    expect(out.split("\n")[1]).toBe("  args=(self=None, other=None, alpha=1)");
  });

  it("the default env is process.env", () => {
    const prev = process.env.GLASSTORCH_SHOW_DISPATCH_TRACE;
    delete process.env.GLASSTORCH_SHOW_DISPATCH_TRACE;
    try {
      expect(installIfEnv()).toBeNull();
    } finally {
      if (prev !== undefined) process.env.GLASSTORCH_SHOW_DISPATCH_TRACE = prev;
    }
  });
});
