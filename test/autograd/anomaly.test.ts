// Anomaly mode: PyTorch 1.13's warning on entry, the NaN check on every backward output, and the forward
// call site (the user's file:line) of the Node whose backward failed.
import { describe, it, expect, vi, afterEach } from "vitest";
import * as torch from "../../engine/index.js";

afterEach(() => vi.restoreAllMocks());

describe("torch.autograd.detect_anomaly", () => {
  it("warns on entry, and is off again after the function", () => {
    const warn = vi.spyOn(process, "emitWarning").mockImplementation(() => {});
    torch.autograd.detect_anomaly(() => expect(torch.is_anomaly_enabled()).toBe(true));
    expect(torch.is_anomaly_enabled()).toBe(false);
    expect(warn.mock.calls[0][0]).toBe("Anomaly Detection has been enabled. This mode will increase the runtime and should only be enabled for debugging.");
  });
  it("a NaN gradient names its Node, and the warning names the forward line that made it", () => {
    const warn = vi.spyOn(process, "emitWarning").mockImplementation(() => {});
    const x = torch.tensor([1, 2], { dtype: torch.float32, requires_grad: true });
    const nan = torch.tensor([NaN, 1], { dtype: torch.float32 });
    let line = 0;
    expect(() =>
      torch.autograd.detect_anomaly(() => {
        line = Number(new Error().stack!.split("\n")[1].match(/:(\d+):\d+\)?$/)![1]) + 1;
        const y = x.mul(nan); // the forward call the warning must point at
        y.sum().backward();
      }),
    ).toThrow("Function 'MulBackward0' returned nan values in its 0th output.");
    const detected = warn.mock.calls.map((c) => String(c[0])).find((m) => m.startsWith("Error detected in MulBackward0."))!;
    expect(detected).toMatch(new RegExp(`^Error detected in MulBackward0\\. Traceback of forward call that caused the error:\\n  .*anomaly\\.test\\.ts:${line}:\\d+$`));
  });
  it("without anomaly mode the NaN goes through unchecked", () => {
    const x = torch.tensor([1, 2], { dtype: torch.float32, requires_grad: true });
    x.mul(torch.tensor([NaN, 1], { dtype: torch.float32 })).sum().backward();
    expect(Number.isNaN((x.grad!.tolist() as number[])[0])).toBe(true);
  });
  it("the saved-tensor error's hint changes with anomaly mode on", () => {
    vi.spyOn(process, "emitWarning").mockImplementation(() => {});
    const x = torch.tensor([1, 2], { dtype: torch.float32, requires_grad: true });
    expect(() =>
      torch.autograd.detect_anomaly(() => {
        const y = x.mul(2);
        const z = y.mul(y);
        y.add_(1);
        z.sum().backward();
      }),
    ).toThrow("Hint: the backtrace further above shows the operation that failed to compute its gradient. The variable in question was changed in there or anywhere later. Good luck!");
  });
});
