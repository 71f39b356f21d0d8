// Bundles the extension with esbuild: one entry per process it runs in. Called at the end of the
// root `npm run build` (so tests can spawn the bundles) and, with --minify, by `npm run package:extension`.
//   node extension/build.mjs [--minify] [--outdir=DIR]

import { build } from "esbuild";
import { copyFileSync, mkdirSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import * as path from "node:path";

const here = path.dirname(fileURLToPath(import.meta.url));
const minify = process.argv.includes("--minify");
// --outdir=DIR: where the bundles go (packaging builds into a staging folder); default extension/dist.
const outdir = path.resolve(process.argv.find((a) => a.startsWith("--outdir="))?.slice("--outdir=".length) ?? path.join(here, "dist"));

const common = { bundle: true, minify, sourcemap: minify ? false : "linked", logLevel: "warning", absWorkingDir: here };

/** The engine uses import.meta.url (its own location, for call sites and registration sites); in a
 * CommonJS bundle that is the bundle's own URL. */
const importMetaUrlShim = 'const __glasstorch_import_meta_url = require("node:url").pathToFileURL(__filename).href;';

export const entryPoints = [
  // VS Code's extension host: activation, notebook serializer and controller, status bar.
  {
    ...common,
    entryPoints: ["src/extension.ts"],
    outfile: path.join(outdir, "extension.js"),
    platform: "node",
    format: "cjs",
    target: "node20",
    external: ["vscode"],
    // Activation time counts loading this bundle (first line to last) plus activate() (src/extension.ts).
    banner: { js: "\"use strict\"; var __glasstorchLoad = { start: performance.now(), end: 0 };" },
    footer: { js: "__glasstorchLoad.end = performance.now();" },
  },
  // The engine host process (host/main.ts), bundling the engine from source: a cell's
  // `import * as torch from "glasstorch"` gets that one instance, the same the host inspects.
  {
    ...common,
    entryPoints: ["host/main.ts"],
    outfile: path.join(outdir, "host.js"),
    platform: "node",
    format: "cjs",
    target: "node20",
    sourcesContent: false, // the maps point at the sources (engine/, extension/host/); keeps them small
    // The TypeScript compiler (cells are transpiled with it) is not bundled: one 9 MB file that would make
    // the bundle's source map huge. A copy sits in dist/node_modules/typescript (below).
    external: ["vscode", "typescript"],
    define: { "import.meta.url": "__glasstorch_import_meta_url" },
    banner: { js: importMetaUrlShim },
  },
  // The Backward Graph webview's script (elkjs's worker-free build bundled in) and the views' stylesheet.
  {
    ...common,
    entryPoints: ["webview/graph/index.ts"],
    outfile: path.join(outdir, "graph.js"),
    platform: "browser",
    format: "iife",
    target: "es2022",
  },
  { ...common, entryPoints: ["webview/views.css"], outfile: path.join(outdir, "views.css") },
  // The notebook renderer, loaded as an ES module into VS Code's output webview.
  {
    ...common,
    entryPoints: ["webview/renderer/index.ts"],
    outfile: path.join(outdir, "renderer.js"),
    platform: "browser",
    format: "esm",
    target: "es2022",
  },
];

// The bundles are CommonJS; the repository's package.json says "type": "module", so dist/ says otherwise.
mkdirSync(outdir, { recursive: true });
writeFileSync(path.join(outdir, "package.json"), '{ "type": "commonjs" }\n');

// dist/node_modules/typescript: the compiler file and a package.json pointing at it.
const require = createRequire(import.meta.url);
const tsMain = require.resolve("typescript");
const tsDir = path.join(outdir, "node_modules", "typescript");
mkdirSync(path.join(tsDir, "lib"), { recursive: true });
copyFileSync(tsMain, path.join(tsDir, "lib", "typescript.js"));
copyFileSync(path.join(path.dirname(path.dirname(tsMain)), "LICENSE.txt"), path.join(tsDir, "LICENSE.txt"));
writeFileSync(path.join(tsDir, "package.json"), JSON.stringify({ name: "typescript", version: require("typescript/package.json").version, main: "lib/typescript.js" }) + "\n");

// The view container's icon.
copyFileSync(path.join(here, "webview", "glasstorch.svg"), path.join(outdir, "glasstorch.svg"));

const started = Date.now();
await Promise.all(entryPoints.map((options) => build(options)));
console.log(`extension: ${entryPoints.length} bundles in ${Date.now() - started} ms${minify ? " (minified)" : ""}`);
