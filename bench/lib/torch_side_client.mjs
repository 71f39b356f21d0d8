// bench/torch_side.py as a server: one Python process that runs one workload per request, so run.mjs
// can measure PyTorch's cell of a workload right before Glasstorch's (the same moment of the
// machine's load and of what else fills the shared cache) instead of all PyTorch cells first.
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";

/**
 * @param {string} python
 * @param {string} script
 * @param {Record<string, string>} env
 * @param {{threads: number, timing: object}} header
 */
export function startTorchSide(python, script, env, header) {
  const child = spawn(python, [script], { env, stdio: ["pipe", "pipe", "inherit"] });
  const lines = createInterface({ input: child.stdout });
  const waiting = [];
  let exited = null;
  lines.on("line", (line) => waiting.shift()?.resolve(line));
  child.on("exit", (code) => {
    exited = code;
    for (const w of waiting.splice(0)) w.reject(new Error(`torch_side.py exited (${code})`));
  });
  const next = () => new Promise((resolve, reject) => (exited !== null ? reject(new Error(`torch_side.py exited (${exited})`)) : waiting.push({ resolve, reject })));
  child.stdin.write(JSON.stringify(header) + "\n");
  return {
    /** One workload's result: {ms, samples, batch, flagged} or {error}. */
    async ask(workload) {
      const answer = next();
      child.stdin.write(JSON.stringify(workload) + "\n");
      return JSON.parse(await answer).result;
    },
    /** Ends the process; its environment (torch version, threads, BLAS). */
    async finish() {
      const answer = next();
      child.stdin.end("done\n");
      return JSON.parse(await answer).env;
    },
  };
}
