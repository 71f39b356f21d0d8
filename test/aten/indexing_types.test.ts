// The indexing API's TypeScript declarations (t.get / t.set / torch.indexing / torch.nonzero's as_tuple
// overloads): the compiler accepts the calls in types/indexing_usage.ts and refuses each line of
// types/indexing_misuse.ts, checked against the published declarations in dist/.
import { describe, it, expect } from "vitest";

describe("the indexing API's TypeScript declarations", () => {
  it("accept what PyTorch accepts and refuse the rest (tsc over dist/*.d.ts)", async () => {
    const ts = (await import("typescript")).default;
    const dir = new URL("./types/", import.meta.url).pathname;
    const diagnostics = (file: string) =>
      ts
        .getPreEmitDiagnostics(ts.createProgram([dir + file], { strict: true, noEmit: true, skipLibCheck: true, module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, target: ts.ScriptTarget.ES2022 }))
        .filter((d) => d.file?.fileName.endsWith(file))
        .map((d) => d.file!.getLineAndCharacterOfPosition(d.start!).line + 1);
    expect(diagnostics("indexing_usage.ts")).toEqual([]);
    expect(new Set(diagnostics("indexing_misuse.ts"))).toEqual(new Set([5, 6, 7]));
  }, 60_000);
});
