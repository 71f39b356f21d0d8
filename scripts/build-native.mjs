// Runs on `npm install`: builds the native C++ addon when native sources and a C++ compiler exist.
// The engine works without it (every kernel has a TypeScript reference), so a failed build only warns.
import { existsSync } from "node:fs";
import { spawnSync } from "node:child_process";
import { dirname, join } from "node:path";

const gyp = new URL("../native/binding.gyp", import.meta.url);
if (!existsSync(gyp)) process.exit(0);
const hasCompiler = spawnSync("c++", ["--version"], { stdio: "ignore" }).status === 0;
if (!hasCompiler) {
  console.warn("[glasstorch] no C++ compiler found: using the TypeScript kernels only");
  process.exit(0);
}
// npm puts its bundled node-gyp on PATH for install scripts; run directly, use npm's copy
const npmGyp = join(dirname(process.execPath), "../lib/node_modules/npm/node_modules/node-gyp/bin/node-gyp.js");
const onPath = spawnSync("node-gyp", ["--version"], { stdio: "ignore" }).status === 0;
const [cmd, pre] = onPath || !existsSync(npmGyp) ? ["node-gyp", []] : [process.execPath, [npmGyp]];
const r = spawnSync(cmd, [...pre, "rebuild", "-j", "max", "--directory=native"], { stdio: "inherit", shell: false });
if (r.status !== 0) console.warn("[glasstorch] native addon build failed: using the TypeScript kernels only");
