// In-extension-host tests (issue #6 item 11): VS Code loads this module inside its extension host
// (the workbench URL's extensionTestsPath; see ../in-host.mjs) and calls run(), with `vscode` the
// real API. They drive the serializer, the controller and the providers through that API, as
// another extension would, and write their results to GLASSTORCH_INHOST_RESULT (the extension host
// has no stdout the runner can read).

const vscode = require("vscode");
const fs = require("fs");

const NOTEBOOK_TYPE = "glasstorch-notebook";
const TENSOR_MIME = "application/vnd.glasstorch.tensor+json";
const ERROR_MIME = "application/vnd.code.notebook.error";

const decode = (item) => new TextDecoder().decode(item.data);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function assert(cond, message) {
  if (!cond) throw new Error(message);
}

async function until(what, test, timeout = 60_000) {
  const deadline = Date.now() + timeout;
  for (;;) {
    const v = await test();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

/** A cell's run has ended (VS Code records its summary) — and its outputs. */
async function executed(cell) {
  await until(`cell ${cell.index + 1} to finish`, () => cell.executionSummary?.success !== undefined && cell.executionSummary.timing?.endTime);
  return cell.outputs.flatMap((o) => o.items);
}

exports.run = async function run() {
  const resultFile = process.env.GLASSTORCH_INHOST_RESULT;
  const results = { passed: 0, failed: 0, checks: [], vscode: vscode.version };
  const check = async (name, fn) => {
    const t0 = Date.now();
    try {
      const note = await fn();
      results.passed++;
      results.checks.push({ name, ok: true, ms: Date.now() - t0, note });
    } catch (err) {
      results.failed++;
      results.checks.push({ name, ok: false, ms: Date.now() - t0, error: String(err?.stack ?? err) });
    }
  };
  const ws = vscode.workspace.workspaceFolders[0].uri;
  const file = (name) => vscode.Uri.joinPath(ws, name);
  const read = (name) => fs.readFileSync(file(name).fsPath, "utf8");

  await check("the extension activates and reports its activation time", async () => {
    const ext = vscode.extensions.getExtension("glasstorch.glasstorch");
    assert(ext, "glasstorch.glasstorch is not installed");
    const api = await ext.activate();
    assert(ext.isActive, "not active");
    assert(typeof api.activationMs === "number" && api.activationMs > 0, `activationMs ${api.activationMs}`);
    return `${api.activationMs.toFixed(1)} ms`;
  });

  let nb;
  const original = read("inhost.nb.ts");
  await check("serializer: *.nb.ts opens as a notebook with its cells", async () => {
    nb = await vscode.workspace.openNotebookDocument(file("inhost.nb.ts"));
    assert(nb.notebookType === NOTEBOOK_TYPE, `notebook type ${nb.notebookType}`);
    const cells = nb.getCells().map((c) => [c.kind === vscode.NotebookCellKind.Markup ? "markdown" : "code", c.document.getText()]);
    const expected = [
      ["markdown", "# in-host"],
      ["code", 'import * as torch from "glasstorch";\nconst t = torch.arange(6, { dtype: torch.float32 }).reshape(2, 3);\nt'],
      ["code", "t.mm(t)"],
    ];
    assert(JSON.stringify(cells) === JSON.stringify(expected), `cells ${JSON.stringify(cells)}`);
    assert(nb.getCells().every((c) => c.kind === vscode.NotebookCellKind.Markup || c.document.languageId === "typescript"), "code cells are not TypeScript");
  });

  await check("serializer: saving unchanged writes the same bytes; an edit changes only its cell", async () => {
    await vscode.window.showNotebookDocument(nb);
    const edit = new vscode.WorkspaceEdit();
    edit.insert(nb.cellAt(2).document.uri, new vscode.Position(0, 7), " // edited");
    assert(await vscode.workspace.applyEdit(edit), "the edit was refused");
    assert(await nb.save(), "save failed");
    assert(read("inhost.nb.ts") === original.replace("t.mm(t)", "t.mm(t) // edited"), `saved:\n${read("inhost.nb.ts")}`);
    const undo = new vscode.WorkspaceEdit();
    undo.delete(nb.cellAt(2).document.uri, new vscode.Range(0, 7, 0, 17));
    assert(await vscode.workspace.applyEdit(undo), "the undo edit was refused");
    assert(await nb.save(), "second save failed");
    assert(read("inhost.nb.ts") === original, `saved back:\n${read("inhost.nb.ts")}`);
  });

  await check("controller: runs a cell in the engine host: the PyTorch repr and the heat-map data", async () => {
    await vscode.commands.executeCommand("notebook.selectKernel", { id: "glasstorch-kernel", extension: "glasstorch.glasstorch" });
    await vscode.commands.executeCommand("notebook.cell.execute", { ranges: [{ start: 1, end: 2 }], document: nb.uri });
    const items = await executed(nb.cellAt(1));
    assert(nb.cellAt(1).executionSummary.success === true, "the cell failed");
    const text = items.find((i) => i.mime === "text/plain");
    assert(text && decode(text) === "tensor([[0., 1., 2.],\n        [3., 4., 5.]])", `text output ${text && decode(text)}`);
    const rich = JSON.parse(decode(items.find((i) => i.mime === TENSOR_MIME)));
    assert(rich.rich.view === "heatmap" && rich.rich.values.join() === "0,1,2,3,4,5" && Number.isInteger(rich.handle), `rich output ${JSON.stringify(rich)}`);
  });

  await check("controller: an error output names the PyTorch error and the cell line", async () => {
    await vscode.commands.executeCommand("notebook.cell.execute", { ranges: [{ start: 2, end: 3 }], document: nb.uri });
    const items = await executed(nb.cellAt(2));
    assert(nb.cellAt(2).executionSummary.success === false, "the cell did not fail");
    const error = JSON.parse(decode(items.find((i) => i.mime === ERROR_MIME)));
    assert(error.name === "RuntimeError" && error.message === "mat1 and mat2 shapes cannot be multiplied (2x3 and 2x3)", JSON.stringify(error));
    assert(error.stack.includes("at cell 3, line 1"), `stack ${error.stack}`);
  });

  await check("providers: the glasstorch-gen: document of aten::mm is its yaml, binding and kernels", async () => {
    const doc = await vscode.workspace.openTextDocument(vscode.Uri.from({ scheme: "glasstorch-gen", path: "/aten/mm" }));
    const text = doc.getText();
    assert(text.includes("- func: mm(Tensor self, Tensor mat2) -> Tensor"), `document:\n${text.slice(0, 600)}`);
    const links = await vscode.commands.executeCommand("vscode.executeLinkProvider", doc.uri);
    assert(Array.isArray(links) && links.length > 0, "the document has no links");
    return `${text.split("\n").length} lines, ${links.length} links`;
  });

  await check("providers: the Dispatch Trace holds the runs' events", async () => {
    const timing = await until("the trace view's refresh", () => vscode.commands.executeCommand("glasstorch.trace.showTiming"));
    assert(timing.events > 10 && timing.rows > 0, JSON.stringify(timing));
    return `${timing.events} events, ${timing.rows} rows`;
  });

  fs.writeFileSync(resultFile, JSON.stringify(results, null, 2));
};
