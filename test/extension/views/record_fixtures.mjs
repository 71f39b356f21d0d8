// Runs record_fixtures.ts (bundled with esbuild next to it, as this Node cannot run TypeScript).
import { build } from "esbuild";
import { rmSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";
import { dirname, join, resolve } from "node:path";
const here = dirname(fileURLToPath(import.meta.url));
const outfile = join(here, `.record_fixtures.${process.pid}.mjs`);
process.env.GLASSTORCH_HOST_BUNDLE ??= resolve(here, "../../../extension/dist/host.js");
await build({ entryPoints: [join(here, "record_fixtures.ts")], bundle: true, platform: "node", format: "esm", outfile, packages: "external", logLevel: "warning" });
try {
  await import(pathToFileURL(outfile).href);
} finally {
  rmSync(outfile, { force: true });
}
