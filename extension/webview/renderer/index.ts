// The notebook renderer for application/vnd.glasstorch.tensor+json: a heat map for 2-D tensors,
// a histogram otherwise. Runs in VS Code's output webview (its CSP); draws with canvas only and
// loads nothing remote.

import { drawHeatmap } from "./heatmap.js";
import { drawHistogram } from "./histogram.js";
import { STYLE } from "./style.js";
import type { TensorOutput } from "../../host/protocol.js";

/** The parts of VS Code's notebook renderer API used here (vscode-notebook-renderer). */
interface OutputItem {
  readonly mime: string;
  json(): unknown;
}
interface RendererContext {
  readonly postMessage?: unknown;
}

type TensorView = Omit<TensorOutput, "repr">;

function isTensorView(x: unknown): x is TensorView {
  const t = x as TensorView;
  return typeof t === "object" && t !== null && t.kind === "tensor" && Array.isArray(t.shape) && typeof t.dtype === "string";
}

function render(element: HTMLElement, data: unknown): void {
  element.replaceChildren();
  const root = document.createElement("div");
  root.className = "glasstorch-tensor";
  const style = document.createElement("style");
  style.textContent = STYLE;
  root.append(style);
  if (!isTensorView(data) || !data.rich) {
    root.append(document.createTextNode("(no tensor data to draw)"));
    element.append(root);
    return;
  }
  const caption = document.createElement("div");
  caption.className = "glasstorch-caption";
  caption.textContent = `${data.rich.view === "heatmap" ? "heat map" : "histogram"} · shape [${data.shape.join(", ")}] · ${data.dtype} · ${data.device}`;
  root.append(caption);
  if (data.rich.view === "heatmap") drawHeatmap(root, data.rich);
  else drawHistogram(root, data.rich);
  element.append(root);
}

export function activate(_context: RendererContext) {
  return {
    renderOutputItem(item: OutputItem, element: HTMLElement) {
      render(element, item.json());
    },
    disposeOutputItem() {
      // Nothing is kept per output: the element and its listeners go with it.
    },
  };
}
