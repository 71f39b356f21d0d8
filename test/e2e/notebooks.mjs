// The notebooks the e2e suite opens, as the exact bytes written to disk.

/** Run All: a tensor (heat map), a large tensor (histogram), a progress loop, and an error last. */
export const MAIN = [
  "// %% [markdown]",
  "// # e2e",
  "",
  "// %% tensor",
  'import * as torch from "glasstorch";',
  "torch.manual_seed(0);",
  "torch.randn(2, 3)",
  "",
  "// %% histogram",
  "torch.randn(2000)",
  "",
  "// %% progress",
  "let s = 0;",
  'for (const i of torch.utils.progress(5, { desc: "e2e-bar" })) s += i;',
  "s",
  "",
  "// %% error",
  "const bad = torch.zeros(2, 3);",
  "bad.mm(torch.zeros(2, 3))",
  "",
].join("\n");

/** PyTorch 1.13: torch.manual_seed(0); print(torch.randn(2, 3)) */
export const RANDN_2_3_REPR = "tensor([[ 1.5410, -0.2934, -2.1788],\n        [ 0.5684, -1.0845, -1.3986]])";
export const MM_ERROR = "RuntimeError: mat1 and mat2 shapes cannot be multiplied (2x3 and 2x3)";

/** Run All, interrupt the endless loop; the last cell is then run on its own. */
export const INTERRUPT = ["// %%", "const n = 1;", '"before " + n', "", "// %%", "while (true) {}", "", "// %%", '"still alive " + n', ""].join("\n");

/** Run All: the second cell kills the host from inside, as the OOM killer would from outside. */
export const CRASH = [
  "// %%",
  "const a = 41;",
  '"first " + a',
  "",
  "// %%",
  'process.kill(process.pid, "SIGKILL")',
  "",
  "// %%",
  '"restarted, a is " + typeof a',
  "",
].join("\n");

/** Saved after an edit and after undoing it: text before the first marker, titles, CRLF, trailing
 * whitespace, a markdown cell and no final newline must all come back as they were. */
export const SAVE =
  "// text before the first marker\r\nconst pre = 0;\r\n\r\n// %% first cell  \r\nconst s = 1;\r\n\r\n\r\n" +
  "// %% [markdown] notes\r\n// some *markdown*\r\n//\r\n// more\r\n// %%\r\ns + 1   \r\n\t";
