// Interrupting and crashing the engine host: a synchronous infinite loop and an async loop of tensor
// ops both stop within a second (status "interrupted", KeyboardInterrupt) and the session keeps its
// variables; process.exit() / process.abort() in a cell end the process, which the client observes.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HostClient, until } from "../../support/host_client.js";

describe("engine host: interrupt", () => {
  let host: HostClient;
  beforeAll(async () => {
    host = HostClient.start();
    await host.initialize();
    const r = await host.run('import * as torch from "glasstorch";\nlet n = 0;\nconst w = torch.ones(4);', 0);
    expect(r.status).toBe("ok");
  }, 30_000);
  afterAll(() => host?.dispose());

  /** Runs `code`, waits until it printed `marker` (or 200 ms for a loop that cannot print), interrupts it. */
  async function interruptAfter(code: string, cell: number, marker?: string) {
    const run = host.run(code, cell);
    if (marker) await until(() => host.text(run.runId).includes(marker), 5000, "the loop to start");
    else await new Promise((r) => setTimeout(r, 200));
    const sent = Date.now();
    host.interrupt(run.runId);
    const result = await run;
    return { result, ms: Date.now() - sent };
  }

  it("stops a synchronous infinite loop within a second and keeps the session", async () => {
    const { result, ms } = await interruptAfter("while (true) { n++ }", 1);
    expect(result).toMatchObject({ status: "interrupted", error: { name: "KeyboardInterrupt" } });
    expect(ms).toBeLessThan(1000);
    const after = await host.run("[n > 0, w.sum().item()]", 2);
    expect(after).toMatchObject({ status: "ok", value: { text: "[ true, 4 ]" } });
  });

  it("stops a cell interrupted before it started (queued, or compiling): none of its code runs", async () => {
    // Sent together: the interrupt reaches the host while the Run request is read or the cell compiles.
    const run = host.run("(globalThis as { ranEarly?: boolean }).ranEarly = true;\nwhile (true) {}", 9);
    host.interrupt(run.runId);
    const result = await run;
    expect(result).toMatchObject({ status: "interrupted", error: { name: "KeyboardInterrupt" } });
    expect((await host.run("typeof (globalThis as { ranEarly?: boolean }).ranEarly", 10)).value).toMatchObject({ text: "'undefined'" }); // its first line never ran
    // The next cell is not affected by the interrupt of the one before.
    expect((await host.run("1 + 1", 11)).value).toMatchObject({ text: "2" });
  });

  it("stops an async loop of tensor ops at its next op within a second, with the cell line", async () => {
    const code = 'for (let i = 0; ; i++) {\n  await new Promise((r) => setTimeout(r, 1));\n  w.add(1);\n  if (i === 5) console.log("started");\n}';
    const { result, ms } = await interruptAfter(code, 3, "started");
    expect(result).toMatchObject({ status: "interrupted", error: { name: "KeyboardInterrupt", location: { line: 3 } } });
    expect(ms).toBeLessThan(1000);
    expect((await host.run("n > 0 && w.shape[0] === 4", 4)).value).toMatchObject({ text: "true" });
  });

  it("stops an async loop that never yields to the event loop (await null, for await over memory) at its next op", async () => {
    const spin = await interruptAfter("for (;;) {\n  await null;\n  w.mul(2);\n  n++;\n}", 7);
    expect(spin.result).toMatchObject({ status: "interrupted", error: { name: "KeyboardInterrupt", location: { line: 3 } } });
    expect(spin.ms).toBeLessThan(1000);
    const loader = "async function* batches() { for (;;) yield w; }\nfor await (const b of batches()) b.add(1);";
    const again = await interruptAfter(loader, 8);
    expect(again.result).toMatchObject({ status: "interrupted", error: { name: "KeyboardInterrupt" } });
    expect(again.ms).toBeLessThan(1000);
    expect((await host.run("w.sum().item()", 9)).value).toMatchObject({ text: "4" });
  });

  it("reports an async loop that runs no op as interrupted too, and later cells run normally", async () => {
    const { result, ms } = await interruptAfter('console.log("started");\nfor (;;) { await new Promise((r) => setTimeout(r, 5)); }', 5, "started");
    expect(result.status).toBe("interrupted");
    expect(ms).toBeLessThan(1000);
    expect((await host.run("w.sum().item()", 6)).value).toMatchObject({ text: "4" });
  });
});

describe("engine host: crashes", () => {
  it("process.exit() in a cell ends the host with its code, observed as the child's exit", async () => {
    const host = HostClient.start();
    await host.initialize();
    void host.run("process.exit(3)").catch(() => undefined);
    expect(await host.exited).toEqual({ code: 3, signal: null });
    await host.dispose();
  }, 30_000);

  it("ends by itself (exit 0) when the extension closes its stdin", async () => {
    const host = HostClient.start();
    await host.initialize();
    host.child.stdin!.end();
    expect(await host.exited).toEqual({ code: 0, signal: null });
    await host.dispose();
  }, 30_000);

  it("process.abort() in a cell ends the host with SIGABRT", async () => {
    const host = HostClient.start();
    await host.initialize();
    void host.run("process.abort()").catch(() => undefined);
    expect(await host.exited).toEqual({ code: null, signal: "SIGABRT" });
    await host.dispose();
  }, 30_000);
});
