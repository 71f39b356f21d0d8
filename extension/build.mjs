// Bundles the extension's processes with esbuild (root `npm run build` calls this last).
// Each entry is one self-contained CommonJS file in extension/dist/, with an external source map so
// stacks and the engine's call sites can name the original TypeScript.
//
// The engine host (host/main.ts) bundles the engine from source (engine/index.ts): a cell's
// `import * as torch from "glasstorch"` gets that one instance, the same the host inspects.
// `node extension/build.mjs --watch` rebuilds on change.

import * as esbuild from "esbuild";
import { copyFileSync, mkdirSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));

/** The bundles: add an entry here for each new process or view script. */
export const entryPoints = [
  { in: join(here, "host", "main.ts"), out: "host" },
];

/** The engine uses import.meta.url (its own location, for call sites and registration sites); in a
 * CommonJS bundle that is the bundle's own URL. */
const importMetaUrlShim = 'const __glasstorch_import_meta_url = require("node:url").pathToFileURL(__filename).href;';

export const options = {
  entryPoints,
  outdir: join(here, "dist"),
  bundle: true,
  platform: "node",
  format: "cjs",
  target: "node20",
  sourcemap: "linked",
  sourcesContent: false, // the maps point at the sources (engine/, extension/host/); keeps them small
  // The TypeScript compiler (cells are transpiled with it) is not bundled: it is one 9 MB file that
  // would make the bundle's source map huge (slow to load when the first stack is mapped). A copy
  // sits in dist/node_modules/typescript, so the bundles need nothing outside dist/.
  external: ["vscode", "typescript"],
  define: { "import.meta.url": "__glasstorch_import_meta_url" },
  banner: { js: importMetaUrlShim },
  logLevel: "warning",
};

// The bundles are CommonJS; the repository's package.json says "type": "module", so dist/ says otherwise.
mkdirSync(options.outdir, { recursive: true });
writeFileSync(join(options.outdir, "package.json"), '{ "type": "commonjs" }\n');

// dist/node_modules/typescript: the compiler file and a package.json pointing at it.
const tsMain = createRequire(import.meta.url).resolve("typescript");
const tsDir = join(options.outdir, "node_modules", "typescript");
mkdirSync(join(tsDir, "lib"), { recursive: true });
copyFileSync(tsMain, join(tsDir, "lib", "typescript.js"));
copyFileSync(join(dirname(dirname(tsMain)), "LICENSE.txt"), join(tsDir, "LICENSE.txt"));
writeFileSync(join(tsDir, "package.json"), JSON.stringify({ name: "typescript", version: createRequire(import.meta.url)("typescript/package.json").version, main: "lib/typescript.js" }) + "\n");

if (process.argv.includes("--watch")) {
  const ctx = await esbuild.context(options);
  await ctx.watch();
} else {
  await esbuild.build(options);
}
