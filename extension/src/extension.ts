// Activation: registers the *.nb.ts serializer, the controller, the commands and the status bar.
// Nothing starts a process here: the engine host starts on a notebook's first run, which keeps
// activation well under 300 ms.

import * as vscode from "vscode";
import { GlasstorchController } from "./notebook/controller.js";
import { NbTsSerializer, NOTEBOOK_TYPE } from "./notebook/serializer.js";
import { SECTION } from "./settings.js";
import { selectCpuKernels, statusBarItem } from "./status_bar.js";
import { registerViews } from "./views/index.js";

// Set by the bundle's first and last lines (extension/build.mjs): how long loading the code took.
declare const __glasstorchLoad: { start: number; end: number } | undefined;

let activationMs: number | undefined;

/**
 * Activation time as VS Code counts it (Developer: Show Running Extensions): loading the code plus
 * the activate() call. The wait between the two belongs to VS Code activating other extensions.
 */
export function activate(context: vscode.ExtensionContext): { activationMs: number } {
  const started = performance.now();
  const loadMs = typeof __glasstorchLoad === "object" ? __glasstorchLoad.end - __glasstorchLoad.start : 0;
  const log = vscode.window.createOutputChannel("Glasstorch");
  const controller = new GlasstorchController(context.asAbsolutePath("dist/host.js"), log);

  const activeNotebook = () => {
    const notebook = vscode.window.activeNotebookEditor?.notebook;
    return notebook?.notebookType === NOTEBOOK_TYPE ? notebook : undefined;
  };
  const onActive = (action: (notebook: vscode.NotebookDocument) => void) => () => {
    const notebook = activeNotebook();
    if (notebook) action(notebook);
    else void vscode.window.showInformationMessage("Glasstorch: open a *.nb.ts notebook first.");
  };

  context.subscriptions.push(
    log,
    controller,
    vscode.workspace.registerNotebookSerializer(NOTEBOOK_TYPE, new NbTsSerializer(), { transientOutputs: true }),
    vscode.commands.registerCommand("glasstorch.restartHost", onActive((nb) => controller.restart(nb))),
    vscode.commands.registerCommand("glasstorch.interrupt", onActive((nb) => controller.interrupt(nb))),
    vscode.commands.registerCommand("glasstorch.selectCpuKernels", selectCpuKernels),
    vscode.commands.registerCommand("glasstorch.showActivationTime", () => {
      void vscode.window.showInformationMessage(`Glasstorch activated in ${activationMs?.toFixed(1)} ms`);
      return activationMs;
    }),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration(SECTION)) controller.updateSettings();
    }),
    statusBarItem(controller),
  );
  registerViews(context, controller);

  const activateMs = performance.now() - started;
  activationMs = loadMs + activateMs;
  log.appendLine(`Glasstorch activated in ${activationMs.toFixed(1)} ms (loading the code ${loadMs.toFixed(1)} ms, activate() ${activateMs.toFixed(1)} ms)`);
  return { activationMs };
}

export function deactivate(): void {
  // context.subscriptions dispose the controller, which stops every engine host.
}
