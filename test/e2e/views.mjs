// e2e checks of the views (issue #6 items 4–7), called by run.mjs with its page and helpers:
// the Dispatch Trace shows a cell's op, the Generated Code document opens for aten::mul.Tensor,
// the Dispatch Table webview shows the AutogradCPU row, the Backward Graph draws (a*b).sum().

import { readFileSync } from "node:fs";
import { screenshot } from "./artifacts.mjs";

/** The notebook these checks run, as written to disk. */
export const VIEWS = [
  "// %% graph",
  'import * as torch from "glasstorch";',
  "const a = torch.tensor([1.5, 2, 3], { requires_grad: true });",
  "const b = torch.tensor([4.5, 5, 6], { requires_grad: true });",
  "(a.mul(b)).sum()",
  "",
].join("\n");

/** Picks `label` exactly in the open quick pick (typing it first). */
async function pickExactly(page, label) {
  const input = page.locator(".quick-input-widget input");
  await input.waitFor({ state: "visible", timeout: 60_000 });
  await page.locator(".quick-input-list .monaco-list-row").first().waitFor({ timeout: 60_000 });
  await input.fill(label);
  const exact = new RegExp(`^${label.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`);
  const row = page.locator(".quick-input-list .monaco-list-row").filter({ has: page.locator(".label-name", { hasText: exact }) }).first();
  await row.waitFor({ timeout: 10_000 });
  await row.click();
}

/** The text of the active text editor (what monaco renders). */
async function activeEditorText(page) {
  // Monaco renders spaces as no-break spaces.
  return (await page.locator(".editor-group-container.active .monaco-editor .view-lines").first().innerText()).replace(/\u00a0/g, " ");
}

const tracePane = (page) => page.locator(".pane", { has: page.locator(".pane-header", { hasText: "Dispatch Trace" }) }).first();

/** The first frame (a webview) holding `selector`. */
async function frameWith(page, selector, timeout = 15_000) {
  const deadline = Date.now() + timeout;
  while (Date.now() < deadline) {
    for (const frame of page.frames()) {
      if (await frame.locator(selector).count().catch(() => 0)) return frame;
    }
    await page.waitForTimeout(200);
  }
  throw new Error(`no webview shows ${selector}`);
}

/**
 * Runs `trigger`, which makes the extension call vscode.env.openExternal, and returns the URL VS
 * Code opened: a new browser tab (github.com is answered locally: the machine may be offline), or
 * the link-protection dialog for a domain not trusted, which names the URL and is cancelled.
 */
async function externalOpen(page, trigger) {
  await page.context().route("https://github.com/**", (route) => route.fulfill({ status: 200, contentType: "text/html", body: "<title>github stub</title>" }));
  const popup = page.context().waitForEvent("page", { timeout: 20_000 }).then((p) => ({ kind: "popup", page: p }));
  const box = page.locator(".monaco-dialog-box", { hasText: "external website" }).first();
  const dialog = box.waitFor({ timeout: 20_000 }).then(() => ({ kind: "dialog" }));
  popup.catch(() => undefined);
  dialog.catch(() => undefined);
  await trigger();
  const first = await Promise.race([popup, dialog]);
  if (first.kind === "dialog") {
    const text = await box.innerText();
    await box.locator(".monaco-button", { hasText: "Cancel" }).first().click();
    return { how: "link-protection dialog", url: /https:\/\/[^\s"]+/.exec(text)?.[0] };
  }
  await first.page.waitForURL(/^https:/, { timeout: 10_000 }).catch(() => undefined);
  const url = first.page.url();
  await first.page.close();
  return { how: "new tab", url };
}

export async function viewChecks({ page, wb, check }) {
  await check("views: the notebook's cell runs and shows (a*b).sum()", async () => {
    await wb.openNotebook("views.nb.ts");
    await wb.runAll();
    await wb.waitForFrameText("tensor(", { timeout: 60_000, what: "the sum's repr" });
  });

  await check("views: the Dispatch Trace view shows rows for the cell's ops", async () => {
    await wb.command("Glasstorch: Focus on Dispatch Trace View");
    const view = page.locator(".pane", { has: page.locator(".pane-header", { hasText: "Dispatch Trace" }) }).first();
    const call = view.locator(".monaco-list-row", { hasText: "aten::mul.Tensor" }).first();
    await call.waitFor({ timeout: 20_000 });
    await view.locator(".monaco-list-row", { hasText: "aten::sum" }).first().waitFor({ timeout: 5_000 });
    // Expanding the call shows its dispatch steps.
    await call.locator(".monaco-tl-twistie").click();
    await view.locator(".monaco-list-row", { hasText: "AutogradCPU -> VariableType::mul_Tensor" }).first().waitFor({ timeout: 10_000 });
    await view.locator(".monaco-list-row", { hasText: "CPU -> native.mul_out" }).first().waitFor({ timeout: 10_000 });
    const rows = await view.locator(".monaco-list-row").count();
    await screenshot(page, "trace-tree");
    return `${rows} rows visible`;
  });

  await check("views: selecting a step opens its generated kernel; Step Forward moves to the next step's source", async () => {
    const view = page.locator(".pane", { has: page.locator(".pane-header", { hasText: "Dispatch Trace" }) }).first();
    await view.locator(".monaco-list-row", { hasText: "AutogradCPU -> VariableType::mul_Tensor" }).first().click();
    await page.locator(".tab", { hasText: "VariableType.ts" }).first().waitFor({ timeout: 20_000 });
    await wb.command("Glasstorch: Step Forward");
    // The next row with a source: the CPU redispatch, whose kernel registration is in generated/mul.ts.
    await page.locator(".tab.active", { hasText: "mul.ts" }).first().waitFor({ timeout: 20_000 });
    const selected = await view.locator(".monaco-list-row.selected").first().innerText();
    if (!selected.includes("CPU -> native.mul_out")) throw new Error(`the selected row is ${JSON.stringify(selected)}`);
    return "VariableType.ts, then mul.ts";
  });

  await check("views: a trace step's inline action opens its PyTorch file on GitHub at v1.13.1", async () => {
    const row = tracePane(page).locator(".monaco-list-row", { hasText: "CPU -> native.mul_out" }).first();
    await row.hover();
    const action = row.locator(".action-label.codicon-github").first();
    await action.waitFor({ timeout: 10_000 });
    const opened = await externalOpen(page, () => action.click());
    const expected = "https://github.com/pytorch/pytorch/blob/v1.13.1/aten/src/ATen/native/BinaryOps.cpp";
    if (opened.url !== expected) throw new Error(`opened ${JSON.stringify(opened)}, expected ${expected}`);
    return `${opened.how}: ${opened.url}`;
  });

  await check("views: the Generated Code document opens for aten::mul.Tensor", async () => {
    await wb.command("Glasstorch: Open Generated Code…");
    await pickExactly(page, "aten::mul.Tensor");
    await page.locator(".tab", { hasText: "mul.Tensor" }).first().waitFor({ timeout: 20_000 });
    const deadline = Date.now() + 20_000;
    let text = "";
    while (Date.now() < deadline) {
      text = await activeEditorText(page).catch(() => "");
      if (text.includes("structured_delegate: mul.out")) break;
      await page.waitForTimeout(200);
    }
    // the section names the yaml line that declares the op (read from the yaml, which grows as ops are added)
    const yamlLine = readFileSync(new URL("../../engine/ops/native_functions.yaml", import.meta.url), "utf8")
      .split("\n").findIndex((l) => l.startsWith("- func: mul.Tensor(")) + 1;
    if (!text.includes("structured_delegate: mul.out") || !text.includes(`engine/ops/native_functions.yaml:${yamlLine}`)) {
      throw new Error(`the document shows:\n${text.slice(0, 800)}`);
    }
    await screenshot(page, "generated-code");
    return "yaml section and link present";
  });

  await check("views: the Dispatch Table webview shows the AutogradCPU row", async () => {
    // Close the generated-code document (the link check below opens it again); the notebook stays
    // open: its engine host answers the views.
    const tab = page.locator(".tab", { hasText: "mul.Tensor" }).first();
    await tab.hover();
    await tab.locator(".codicon-close").first().click({ force: true });
    await page.locator(".tab", { hasText: "mul.Tensor" }).first().waitFor({ state: "detached", timeout: 10_000 });
    await wb.command("Glasstorch: Show Dispatch Table…");
    await pickExactly(page, "aten::mul.Tensor");
    const text = await wb.waitForFrameText((t) => t.includes("computed (dispatch table)") && /AutogradCPU\s+—?\s*VariableType::mul_Tensor \[autograd kernel\]/.test(t), {
      timeout: 30_000,
      what: "the AutogradCPU row of aten::mul.Tensor's table",
    });
    await screenshot(page, "dispatch-table");
    return text.split("\n").find((l) => l.startsWith("AutogradCPU"))?.replace(/\s+/g, " ");
  });

  await check("views: the Dispatch Table's link opens the operator's generated code", async () => {
    let link;
    for (const frame of page.frames()) {
      const candidate = frame.locator("a", { hasText: "Open its generated code" });
      if (await candidate.count().catch(() => 0)) link = candidate.first();
    }
    if (!link) throw new Error("no frame shows the generated-code link");
    await link.click();
    await page.locator(".tab", { hasText: "mul.Tensor" }).first().waitFor({ timeout: 20_000 });
  });

  await check("views: the Backward Graph webview draws the Nodes of (a*b).sum()", async () => {
    // Focus the notebook first (its last value is the graph shown), then open the panel.
    await page.locator(".tab", { hasText: "views.nb.ts" }).first().click();
    await wb.command("Glasstorch: Show Backward Graph");
    await page.locator(".tab", { hasText: "Backward Graph" }).first().waitFor({ timeout: 15_000 });
    const text = await wb.waitForFrameText((t) => /4 nodes, 4 boxes drawn/.test(t), { timeout: 30_000, what: "the graph's status line" });
    const info = await wb.waitForCanvas("#graph-canvas canvas");
    if (!(info.opaque > 0)) throw new Error(`the graph canvas is blank ${JSON.stringify(info)}`);
    return text.split("\n").find((l) => l.includes("nodes"));
  });

  await check("views: a graph node's details name the cell line of the call that created it", async () => {
    const frame = await frameWith(page, "#graph-find option");
    const mul = await frame.locator("#graph-find option").evaluateAll((options) => options.find((o) => o.textContent.startsWith("MulBackward0"))?.value);
    if (!mul) throw new Error("the graph has no MulBackward0 to pick");
    await frame.locator("#graph-find").selectOption(mul);
    const details = await frame.locator("#graph-details").innerText();
    if (!/created at cell 1, line 4 \(views\.nb\.ts\)/.test(details)) throw new Error(`the details say:\n${details}`);
    await screenshot(page, "backward-graph");
    return details.split("\n").find((l) => l.startsWith("created at"));
  });

  await check("views: the Backward Graph button on a tensor output opens that tensor's graph", async () => {
    await page.locator(".tab", { hasText: "views.nb.ts" }).first().click();
    const frame = await frameWith(page, "button.glasstorch-graph-button", 20_000);
    const button = frame.locator("button.glasstorch-graph-button").first();
    const label = await button.innerText();
    await button.click();
    // The panel now names the output it came from (the command names the cell's value instead).
    await wb.waitForFrameText((t) => t.includes("Cell 1's output (grad_fn SumBackward0)") && /4 nodes, 4 boxes drawn/.test(t), { timeout: 20_000, what: "the graph of the output's tensor" });
    return `"${label}" -> Cell 1's output`;
  });

  await check("views: the coverage matrix lists the operators with their backends", async () => {
    await wb.command("Glasstorch: Show Operator Coverage");
    const text = await wb.waitForFrameText((t) => t.includes("Operator coverage") && /\d+ operators; with a kernel — .*CPU: \d+/.test(t), { timeout: 30_000, what: "the coverage matrix" });
    await screenshot(page, "coverage-matrix");
    return text.split("\n").find((l) => l.includes("operators;"));
  });
}
