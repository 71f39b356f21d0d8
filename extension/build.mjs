// Bundles the extension with esbuild, one bundle per place it runs (root `npm run build` calls
// this last, so tests can spawn the bundles):
//   dist/host.js       the engine host process (host/main.ts), with the engine bundled from source:
//                      a cell's `import * as torch from "glasstorch"` gets that one instance, the
//                      same the host inspects
//   dist/extension.js  VS Code's extension host: activation, notebook, status bar (src/extension.ts)
//   dist/renderer.js   the notebook renderer, an ES module in VS Code's output webview
//   dist/graph.js      the Backward Graph webview's script (elkjs's worker-free build bundled in)
//   dist/views.css     the Dispatch Table and Backward Graph webviews' stylesheet
// Node bundles are CommonJS with external source maps, so stacks and the engine's call sites can
// name the original TypeScript.
//   node extension/build.mjs [--minify] [--outdir=DIR] [--watch]
// --minify and --outdir are for packaging (scripts/package-extension.mjs): minified, no maps, into
// a staging folder.

import * as esbuild from "esbuild";
import { copyFileSync, mkdirSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const minify = process.argv.includes("--minify");
const outdir = resolve(process.argv.find((a) => a.startsWith("--outdir="))?.slice("--outdir=".length) ?? join(here, "dist"));

/** The engine uses import.meta.url (its own location, for call sites and registration sites); in a
 * CommonJS bundle that is the bundle's own URL. */
const importMetaUrlShim = 'const __glasstorch_import_meta_url = require("node:url").pathToFileURL(__filename).href;';

const common = {
  bundle: true,
  outdir,
  minify,
  sourcemap: minify ? false : "linked",
  sourcesContent: false, // the maps point at the sources (engine/, extension/); keeps them small
  logLevel: "warning",
};
const node = { ...common, platform: "node", format: "cjs", target: "node20" };

/** The bundles: add an entry here for each new process or view script. */
export const bundles = [
  {
    ...node,
    entryPoints: { host: join(here, "host", "main.ts") },
    // The TypeScript compiler (cells are transpiled with it) is not bundled: it is one 9 MB file that
    // would make the bundle's source map huge (slow to load when the first stack is mapped). A copy
    // sits in dist/node_modules/typescript, so the bundles need nothing outside dist/.
    external: ["vscode", "typescript"],
    define: { "import.meta.url": "__glasstorch_import_meta_url" },
    banner: { js: importMetaUrlShim },
  },
  {
    ...node,
    entryPoints: { extension: join(here, "src", "extension.ts") },
    external: ["vscode"],
    // Activation time counts loading this bundle (first line to last) plus activate() (src/extension.ts).
    banner: { js: '"use strict"; var __glasstorchLoad = { start: performance.now(), end: 0 };' },
    footer: { js: "__glasstorchLoad.end = performance.now();" },
  },
  {
    ...common,
    entryPoints: { renderer: join(here, "webview", "renderer", "index.ts") },
    platform: "browser",
    format: "esm",
    target: "es2022",
  },
  {
    ...common,
    entryPoints: { graph: join(here, "webview", "graph", "index.ts") },
    platform: "browser",
    format: "iife",
    target: "es2022",
  },
  { ...common, entryPoints: { views: join(here, "webview", "views.css") } },
];

// The bundles are CommonJS; the repository's package.json says "type": "module", so dist/ says otherwise.
mkdirSync(outdir, { recursive: true });
writeFileSync(join(outdir, "package.json"), '{ "type": "commonjs" }\n');

// The view container's icon.
copyFileSync(join(here, "webview", "glasstorch.svg"), join(outdir, "glasstorch.svg"));

// dist/node_modules/typescript: the compiler file and a package.json pointing at it.
const require = createRequire(import.meta.url);
const tsMain = require.resolve("typescript");
const tsDir = join(outdir, "node_modules", "typescript");
mkdirSync(join(tsDir, "lib"), { recursive: true });
copyFileSync(tsMain, join(tsDir, "lib", "typescript.js"));
copyFileSync(join(dirname(dirname(tsMain)), "LICENSE.txt"), join(tsDir, "LICENSE.txt"));
writeFileSync(join(tsDir, "package.json"), JSON.stringify({ name: "typescript", version: require("typescript/package.json").version, main: "lib/typescript.js" }) + "\n");

if (process.argv.includes("--watch")) {
  for (const options of bundles) await (await esbuild.context(options)).watch();
} else {
  const started = Date.now();
  await Promise.all(bundles.map((options) => esbuild.build(options)));
  console.log(`extension: ${bundles.length} bundles in ${Date.now() - started} ms${minify ? " (minified)" : ""}`);
}
