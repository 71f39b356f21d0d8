// The status-bar item: the active notebook's engine backend and devices; a click picks the CPU
// kernel path.

import * as vscode from "vscode";
import type { GlasstorchController } from "./notebook/controller.js";
import { NOTEBOOK_TYPE } from "./notebook/serializer.js";
import { hostSettings } from "./settings.js";

export function statusBarItem(controller: GlasstorchController): vscode.Disposable {
  const item = vscode.window.createStatusBarItem("glasstorch.status", vscode.StatusBarAlignment.Right, 100);
  item.name = "Glasstorch";
  item.command = "glasstorch.selectCpuKernels";

  const update = () => {
    const notebook = vscode.window.activeNotebookEditor?.notebook;
    if (!notebook || notebook.notebookType !== NOTEBOOK_TYPE) return item.hide();
    const info = controller.hostInfo(notebook);
    if (info) {
      const kernels = info.backend.capability ? `${info.backend.cpuKernels} (${info.backend.capability})` : info.backend.cpuKernels;
      item.text = `$(pulse) Glasstorch: ${kernels} · ${info.backend.devices.join(", ")}`;
      item.tooltip = [
        `Glasstorch ${info.engineVersion}, engine host pid ${info.pid}`,
        `CPU kernels: ${info.backend.cpuKernels} (setting: ${hostSettings().cpuKernels})`,
        info.backend.nativeUnavailableReason ? `Native kernels unavailable: ${info.backend.nativeUnavailableReason}` : "",
        "Click to choose the CPU kernel path.",
      ].filter(Boolean).join("\n");
    } else {
      item.text = `$(circle-outline) Glasstorch: not started (CPU kernels: ${hostSettings().cpuKernels})`;
      item.tooltip = "The engine host starts on the first run. Click to choose the CPU kernel path.";
    }
    item.show();
  };

  update();
  return vscode.Disposable.from(
    item,
    vscode.window.onDidChangeActiveNotebookEditor(update),
    controller.onDidChangeSession(update),
    vscode.workspace.onDidChangeConfiguration((e) => e.affectsConfiguration("glasstorch.cpuKernels") && update()),
  );
}

/** Quick pick for glasstorch.cpuKernels; the hosts get the change through UpdateSettings. */
export async function selectCpuKernels(): Promise<void> {
  const current = hostSettings().cpuKernels;
  const picks: (vscode.QuickPickItem & { value: string })[] = [
    { value: "auto", label: "auto", description: "native kernels where the addon loaded, TypeScript otherwise" },
    { value: "typescript", label: "typescript", description: "the TypeScript kernels only" },
    { value: "native", label: "native", description: "the C++ addon's kernels (falls back with a reason if it is missing)" },
  ].map((p) => ({ ...p, picked: p.value === current, label: p.value === current ? `$(check) ${p.label}` : p.label }));
  const choice = await vscode.window.showQuickPick(picks, { title: "Glasstorch: CPU kernel path" });
  if (choice) await vscode.workspace.getConfiguration("glasstorch").update("cpuKernels", choice.value, vscode.ConfigurationTarget.Global);
}
