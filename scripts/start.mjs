// `npm start` (after the build): serves VS Code (code-server 4.100.3) on 127.0.0.1 with the
// Glasstorch extension and examples/ open, and prints the URL. Ctrl-C stops it.
//   GLASSTORCH_PORT=8080 (default; the next free port if taken)

import { mkdirSync } from "node:fs";
import * as path from "node:path";
import { ensureCodeServer, freePort, linkExtension, repoRoot, startCodeServer, writeProfile } from "./code-server.mjs";

const cache = path.join(process.env.HOME ?? "/root", ".cache", "glasstorch", "start");
const userDataDir = path.join(cache, "user-data");
const extensionsDir = path.join(cache, "extensions");
const folder = path.join(repoRoot, "examples");

const { bin, version } = ensureCodeServer();
mkdirSync(cache, { recursive: true });
writeProfile(userDataDir);
// A fresh extensions folder each time: only this checkout's extension, linked, so a rebuild shows on reload.
linkExtension(extensionsDir);
const port = await freePort(Number(process.env.GLASSTORCH_PORT ?? 8080));
const server = await startCodeServer(bin, { port, userDataDir, extensionsDir, folder, logFile: path.join(cache, "code-server.log") });

console.log(`\nGlasstorch workshop: VS Code (code-server ${version.split(" ")[0]}) with the Glasstorch extension and examples/`);
console.log(`\n  ${server.url}\n`);
console.log(`Open hello.nb.ts and press Run All. Log: ${path.join(cache, "code-server.log")}. Ctrl-C stops the server.`);

const stop = () => {
  server.stop();
  process.exit(0);
};
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
server.proc.on("exit", (code, signal) => {
  console.error(`code-server stopped (${code ?? signal}); see ${path.join(cache, "code-server.log")}`);
  process.exit(1);
});
