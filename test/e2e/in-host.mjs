// Runs the in-extension-host suite (in-host/index.js) in a third code-server: the workbench URL's
// payload loads the extension from extension/ (as a development extension, no vsix) and the suite
// as its extensionTestsPath; VS Code calls the suite's run() inside the extension host. The suite
// writes its results to a file, which this reads back as e2e checks.

import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { freePort, repoRoot, startCodeServer, writeProfile } from "../../scripts/code-server.mjs";

export const INHOST_NOTEBOOK = '// %% [markdown]\n// # in-host\n\n// %%\nimport * as torch from "glasstorch";\nconst t = torch.arange(6, { dtype: torch.float32 }).reshape(2, 3);\nt\n\n// %%\nt.mm(t)\n';

export async function inHostSuite({ bin, browser, work, results }) {
  const ws = path.join(work, "ws-in-host");
  mkdirSync(ws, { recursive: true });
  writeFileSync(path.join(ws, "inhost.nb.ts"), INHOST_NOTEBOOK);
  const userDataDir = path.join(work, "user-data-in-host");
  writeProfile(userDataDir, { "files.autoSave": "off" });
  const resultFile = path.join(work, "in-host-result.json");
  const port = await freePort();
  const server = await startCodeServer(bin, {
    port,
    userDataDir,
    extensionsDir: path.join(work, "extensions-in-host"),
    folder: ws,
    logFile: path.join(work, "code-server-in-host.log"),
    env: { GLASSTORCH_INHOST_RESULT: resultFile },
  });
  const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
  try {
    const remote = (f) => `vscode-remote://127.0.0.1:${port}${f}`;
    const payload = JSON.stringify([
      ["extensionDevelopmentPath", remote(path.join(repoRoot, "extension"))],
      ["extensionTestsPath", remote(path.join(repoRoot, "test", "e2e", "in-host", "index.js"))],
    ]);
    await page.goto(`${server.url}&payload=${encodeURIComponent(payload)}`);
    const deadline = Date.now() + 180_000;
    while (!existsSync(resultFile)) {
      if (Date.now() > deadline) throw new Error(`the in-host suite wrote no results within 180 s (log: ${path.join(work, "code-server-in-host.log")})`);
      await page.waitForTimeout(500);
    }
    const r = JSON.parse(readFileSync(resultFile, "utf8"));
    for (const c of r.checks) {
      results.push({ name: `in-host: ${c.name}`, ok: c.ok });
      console.log(`  ${c.ok ? "✓" : "✗"} in-host: ${c.name} (${c.ms} ms)${c.note ? ` — ${c.note}` : ""}${c.ok ? "" : `\n      ${c.error.split("\n").slice(0, 6).join("\n      ")}`}`);
    }
    return r;
  } finally {
    await page.close().catch(() => undefined);
    server.stop();
  }
}
