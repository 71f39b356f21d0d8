// code-server, as `npm start` and the e2e tests run it: installed once outside the clone
// (install-code-server.sh), serving on 127.0.0.1 with its own profile and the extension folder.

import { execFileSync, spawn } from "node:child_process";
import { appendFileSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import * as path from "node:path";
import { fileURLToPath } from "node:url";

export const repoRoot = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
export const extensionDir = path.join(repoRoot, "extension");

/** The code-server binary, installed first if it is not there yet (fails loudly if it cannot be). */
export function ensureCodeServer() {
  const out = execFileSync("bash", [path.join(repoRoot, "scripts", "install-code-server.sh")], { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] });
  const dir = process.env.GLASSTORCH_CODE_SERVER_DIR ?? path.join(process.env.HOME ?? "/root", ".cache", "glasstorch", "code-server-4.100.3");
  return { bin: path.join(dir, "node_modules", ".bin", "code-server"), version: out.trim() };
}

/** A port nobody listens on now, on loopback. */
export function freePort(preferred = 0) {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", (err) => (preferred ? resolve(freePort(0)) : reject(err)));
    server.listen(preferred, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** A profile without first-run noise; `settings` adds to it. */
export function writeProfile(userDataDir, settings = {}) {
  mkdirSync(path.join(userDataDir, "User"), { recursive: true });
  const base = {
    "workbench.startupEditor": "none",
    "telemetry.telemetryLevel": "off",
    "workbench.tips.enabled": false,
    "extensions.autoCheckUpdates": false,
    "extensions.autoUpdate": false,
    "extensions.ignoreRecommendations": true,
    "update.mode": "none",
    "workbench.enableExperiments": false,
    "chat.disableAIFeatures": true,
  };
  writeFileSync(path.join(userDataDir, "User", "settings.json"), JSON.stringify({ ...base, ...settings }, null, 2));
}

/** An extensions folder holding only this checkout's extension, linked (no copy, no vsix). */
export function linkExtension(extensionsDir) {
  const manifest = JSON.parse(readFileSync(path.join(extensionDir, "package.json"), "utf8"));
  rmSync(extensionsDir, { recursive: true, force: true });
  mkdirSync(extensionsDir, { recursive: true });
  symlinkSync(extensionDir, path.join(extensionsDir, `${manifest.publisher}.${manifest.name}-${manifest.version}`));
}

/** Installs a .vsix into an extensions folder, as a user would. */
export function installVsix(bin, { userDataDir, extensionsDir, vsix }) {
  execFileSync(bin, ["--user-data-dir", userDataDir, "--extensions-dir", extensionsDir, "--install-extension", vsix, "--force"], { stdio: "pipe" });
}

/** Starts code-server on 127.0.0.1:port and resolves once it answers /healthz. */
export async function startCodeServer(bin, { port, userDataDir, extensionsDir, folder, trust = false, logFile, env = {} }) {
  const args = [
    "--bind-addr", `127.0.0.1:${port}`, "--auth", "none", "--disable-telemetry", "--disable-update-check",
    "--disable-getting-started-override", "--user-data-dir", userDataDir, "--extensions-dir", extensionsDir,
  ];
  if (!trust) args.push("--disable-workspace-trust");
  args.push(folder);
  const proc = spawn(bin, args, { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"], detached: true });
  let log = "";
  let stopped = false;
  if (logFile) writeFileSync(logFile, "");
  const keep = (chunk) => {
    log += chunk;
    if (logFile && !stopped) appendFileSync(logFile, chunk);
  };
  proc.stdout.on("data", keep);
  proc.stderr.on("data", keep);
  const exited = new Promise((resolve) => proc.once("exit", (code, signal) => resolve({ code, signal })));
  const deadline = Date.now() + 60_000;
  for (;;) {
    const gone = await Promise.race([exited, new Promise((r) => setTimeout(() => r(null), 200))]);
    if (gone) throw new Error(`code-server exited (${gone.code ?? gone.signal}) before it served:\n${log}`);
    try {
      const res = await fetch(`http://127.0.0.1:${port}/healthz`);
      if (res.ok) break;
    } catch {
      // not up yet
    }
    if (Date.now() > deadline) throw new Error(`code-server did not answer on port ${port} within 60 s:\n${log}`);
  }
  return {
    url: `http://127.0.0.1:${port}/?folder=${encodeURIComponent(folder)}`,
    proc,
    log: () => log,
    /** Stops code-server and everything it started (its process group). */
    stop() {
      stopped = true;
      try {
        process.kill(-proc.pid, "SIGTERM");
      } catch {
        // already gone
      }
    },
  };
}
