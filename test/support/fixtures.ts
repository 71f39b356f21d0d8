// Loads JSON fixtures written by the Python scripts in test/fixtures/ and decodes their exact floats.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const dir = fileURLToPath(new URL("../fixtures/", import.meta.url));

export function loadFixture<T = any>(name: string): T {
  return JSON.parse(readFileSync(dir + name, "utf8")) as T;
}

/** Undo _common.enc: "nan"/"inf"/"-inf"/"-0.0" strings back to numbers, recursively. */
export function dec(v: any): any {
  if (v === "nan") return NaN;
  if (v === "inf") return Infinity;
  if (v === "-inf") return -Infinity;
  if (v === "-0.0") return -0;
  if (Array.isArray(v)) return v.map(dec);
  return v;
}

/** Runs fn and reports {error, message} or {value}, in the shape the fixtures record. */
export function outcome(fn: () => unknown): { error?: string; message?: string; value?: unknown } {
  try {
    return { value: fn() };
  } catch (e: any) {
    return { error: e.name, message: e.message };
  }
}
