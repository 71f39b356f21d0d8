// The extension manifest and the packaged .vsix: what VS Code loads and when it activates.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { zipEntries, zipExtract } from "../support/zip_listing.js";
import { HostClient } from "../../extension/src/host_client.js";
import { GeneratedCode } from "../../extension/host/protocol.js";

const root = path.resolve(import.meta.dirname, "../..");
const manifest = JSON.parse(readFileSync(path.join(root, "extension", "package.json"), "utf8"));

describe("extension manifest", () => {
  it("names the extension and the VS Code it needs", () => {
    expect(manifest).toMatchObject({ publisher: "glasstorch", name: "glasstorch", main: "./dist/extension.js", license: "MIT" });
    expect(manifest.engines.vscode).toBe("^1.100.0");
    expect(manifest.capabilities.untrustedWorkspaces.supported).toBe("limited");
  });

  it("activates only on its own notebook and commands", () => {
    const commands = manifest.contributes.commands.map((c: { command: string }) => c.command);
    for (const event of manifest.activationEvents as string[]) {
      const [kind, id] = event.split(":");
      if (kind === "onNotebook") expect(id).toBe("glasstorch-notebook");
      else if (kind === "onCommand") expect(commands).toContain(id);
      else throw new Error(`unexpected activation event ${event}`);
    }
    expect(commands.every((c: string) => c.startsWith("glasstorch."))).toBe(true);
  });

  it("opens *.nb.ts as a notebook and renders the tensor mime type", () => {
    expect(manifest.contributes.notebooks).toEqual([
      expect.objectContaining({ type: "glasstorch-notebook", selector: [{ filenamePattern: "*.nb.ts" }], priority: "default" }),
    ]);
    expect(manifest.contributes.notebookRenderer[0].mimeTypes).toEqual(["application/vnd.glasstorch.tensor+json"]);
    const props = Object.keys(manifest.contributes.configuration.properties).sort();
    expect(props).toEqual(["glasstorch.cpuKernels", "glasstorch.hostMemoryMB", "glasstorch.traceLimit", "glasstorch.tracing"]);
  });
});

describe("npm run package:extension", () => {
  let dir: string;
  let vsix: string;
  let entries: string[];
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), "glasstorch-vsix-"));
    vsix = path.join(dir, "glasstorch.vsix");
    execFileSync(process.execPath, [path.join(root, "scripts", "package-extension.mjs"), vsix], { stdio: "pipe" });
    entries = zipEntries(vsix);
  }, 60_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("holds the bundles the manifest names, and no sources or source maps", () => {
    expect(entries).toContain("extension/package.json");
    expect(entries).toContain("extension/" + manifest.main.replace("./", ""));
    expect(entries).toContain("extension/" + manifest.contributes.notebookRenderer[0].entrypoint.replace("./", ""));
    expect(entries).toContain("extension/dist/host.js");
    expect(entries).toContain("extension/dist/node_modules/typescript/lib/typescript.js");
    expect(entries.filter((e) => e.endsWith(".map") || e.startsWith("extension/src/") || e.startsWith("extension/webview/"))).toEqual([]);
  });

  it("holds the engine sources the host's views show: yaml, generated code and its index", () => {
    for (const file of ["engine/ops/derivatives.yaml", "engine/generated/index.json", "engine/generated/Functions.ts", "engine/index.ts"]) {
      expect(entries).toContain(`extension/${file}`);
    }
    expect(entries.filter((e) => e.includes("node_modules") && !e.startsWith("extension/dist/node_modules/"))).toEqual([]);
  });

  it("runs as installed: the unpacked host runs a cell and finds the engine sources for its views", async () => {
    const unpacked = path.join(dir, "unpacked");
    zipExtract(vsix, unpacked);
    const client = new HostClient({
      hostScript: path.join(unpacked, "extension", "dist", "host.js"),
      cwd: dir,
      memoryMB: 1024,
      settings: { cpuKernels: "auto", tracing: false, traceLimit: 1000 },
    });
    try {
      const result = await client.run({ cellUri: "vscode-notebook-cell:/p.nb.ts#0", cellIndex: 0, code: 'import * as torch from "glasstorch";\ntorch.ones(2, 2).sum()' });
      expect(result.value).toMatchObject({ kind: "tensor", repr: "tensor(4.)" });
      const code = await client.request(GeneratedCode, { op: "add.Tensor" });
      expect(code.sections.length).toBeGreaterThan(0);
      expect(code.sections.some((s) => s.source?.file.startsWith("engine/ops/") && s.text.includes("add.Tensor"))).toBe(true);
    } finally {
      client.dispose();
    }
  }, 60_000);
});
