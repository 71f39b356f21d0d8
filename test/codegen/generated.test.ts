// engine/generated/ is the codegen's output, byte for byte: a stale or hand-edited file fails here.
import { describe, it, expect } from "vitest";
import { readFileSync, readdirSync, writeFileSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { generatedFiles } from "../../engine/codegen/main.js";
import { loadNativeFunctions, YamlError } from "../../engine/codegen/model.js";
import { SchemaParseError } from "../../engine/dispatcher/schema/SchemaParser.js";

const dir = fileURLToPath(new URL("../../engine/generated/", import.meta.url));

describe("engine/generated/ is fresh", () => {
  const files = generatedFiles();
  it("has exactly the files the codegen produces", () => {
    expect(readdirSync(dir).sort()).toEqual([...files.keys()].sort());
  });
  for (const [name, text] of files) {
    it(`${name} matches the codegen's output`, () => expect(readFileSync(join(dir, name), "utf8")).toBe(text));
  }
  it("the index maps each op to its yaml line and generated pieces", () => {
    const index = JSON.parse(files.get("index.json")!);
    const add = index.ops.find((o: any) => o.name === "add.Tensor");
    expect(add.yaml.line).toBeGreaterThan(0);
    const yaml = readFileSync(fileURLToPath(new URL("../../engine/ops/native_functions.yaml", import.meta.url)), "utf8").split("\n");
    expect(yaml[add.yaml.line - 1]).toContain("func: add.Tensor(");
    const gen = files.get("add.ts")!.split("\n");
    const def = add.pieces.find((p: any) => p.kind === "def");
    expect(gen.slice(def.startLine - 1, def.endLine).join("\n")).toContain('defineOp("aten::add.Tensor(');
    expect(add.pieces.map((p: any) => p.label)).toContain("add.Tensor @ CPU");
  });
});

describe("the yaml loader reports problems at their yaml position", () => {
  const write = (text: string) => {
    const d = mkdtempSync(join(tmpdir(), "gt-yaml-"));
    writeFileSync(join(d, "nf.yaml"), text);
    return join(d, "nf.yaml");
  };
  it("an unknown field", () => {
    const p = write("- func: f(Tensor x) -> Tensor\n  dispach:\n    CPU: f\n");
    expect(() => loadNativeFunctions(p, "nf.yaml")).toThrow(YamlError);
    expect(() => loadNativeFunctions(p, "nf.yaml")).toThrow("nf.yaml:2:3: unknown field 'dispach'");
  });
  it("a schema error points into the yaml line", () => {
    const p = write("- func: f(Tensor x -> Tensor\n");
    try {
      loadNativeFunctions(p, "nf.yaml");
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(SchemaParseError);
      expect((e as SchemaParseError).line).toBe(1);
      expect((e as SchemaParseError).column).toBeGreaterThan(9);
    }
  });
});
