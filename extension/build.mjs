// Bundles the extension with esbuild: one entry per process it runs in. Called at the end of the
// root `npm run build` (so tests can spawn the bundles) and, with --minify, by `npm run package:extension`.
//   node extension/build.mjs [--minify]

import { build } from "esbuild";
import { fileURLToPath } from "node:url";
import * as path from "node:path";

const here = path.dirname(fileURLToPath(import.meta.url));
const minify = process.argv.includes("--minify");
// --outdir=DIR: where the bundles go (packaging builds into a staging folder); default extension/dist.
const outdir = path.resolve(process.argv.find((a) => a.startsWith("--outdir="))?.slice("--outdir=".length) ?? path.join(here, "dist"));

const common = { bundle: true, minify, sourcemap: minify ? false : "linked", logLevel: "warning", absWorkingDir: here };

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

const started = Date.now();
await Promise.all(entryPoints.map((options) => build(options)));
console.log(`extension: ${entryPoints.length} bundles in ${Date.now() - started} ms${minify ? " (minified)" : ""}`);
