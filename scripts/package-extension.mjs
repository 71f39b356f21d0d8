// `npm run package:extension`: minified bundles, then `vsce package` → extension/dist/glasstorch.vsix.
// The root build has run before (the host bundle embeds the compiled engine).

import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import * as path from "node:path";

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const extension = path.join(root, "extension");
const out = process.argv[2] ? path.resolve(process.argv[2]) : path.join(extension, "dist", "glasstorch.vsix");

execFileSync(process.execPath, [path.join(extension, "build.mjs"), "--minify"], { stdio: "inherit" });
execFileSync(process.execPath, [path.join(root, "node_modules", "@vscode", "vsce", "vsce"), "package", "--no-dependencies", "--out", out], {
  cwd: extension,
  stdio: "inherit",
});
