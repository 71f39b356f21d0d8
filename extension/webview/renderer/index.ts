// The notebook renderer for application/vnd.glasstorch.tensor+json: a heat map for 2-D tensors,
// a histogram otherwise. Runs in VS Code's output webview (its CSP); draws with canvas only and
// loads nothing remote.

import { drawHeatmap } from "./heatmap.js";
import { drawHistogram } from "./histogram.js";
import { STYLE } from "./style.js";
import type { TensorOutput } from "../../host/protocol.js";
import type { ShowGraphMessage } from "./messages.js";

/** The parts of VS Code's notebook renderer API used here (vscode-notebook-renderer). */
interface OutputItem {
  readonly mime: string;
  json(): unknown;
}
interface RendererContext {
  /** Present when the extension listens (requiresMessaging "optional" and the extension is running). */
  postMessage?(message: ShowGraphMessage): void;
}

type TensorView = Omit<TensorOutput, "repr">;

function isTensorView(x: unknown): x is TensorView {
  const t = x as TensorView;
  return typeof t === "object" && t !== null && t.kind === "tensor" && Array.isArray(t.shape) && typeof t.dtype === "string";
}

/** A tensor with a grad_fn gets a button that opens its Backward Graph (the extension does the rest). */
function graphButton(data: TensorView, context: RendererContext): HTMLElement | undefined {
  if (!data.grad_fn || !context.postMessage || typeof data.handle !== "number") return undefined;
  const button = document.createElement("button");
  button.type = "button";
  button.className = "glasstorch-graph-button";
  button.textContent = `Backward Graph (${data.grad_fn})`;
  button.title = "Show the grad_fn graph of this tensor";
  button.addEventListener("click", () => context.postMessage?.({ type: "showBackwardGraph", handle: data.handle }));
  return button;
}

function render(element: HTMLElement, data: unknown, context: RendererContext): void {
  element.replaceChildren();
  const root = document.createElement("div");
  root.className = "glasstorch-tensor";
  const style = document.createElement("style");
  style.textContent = STYLE;
  root.append(style);
  const button = isTensorView(data) ? graphButton(data, context) : undefined;
  if (button) root.append(button);
  if (!isTensorView(data) || !data.rich) {
    if (!button) root.append(document.createTextNode("(no tensor data to draw)"));
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

export function activate(context: RendererContext) {
  return {
    renderOutputItem(item: OutputItem, element: HTMLElement) {
      render(element, item.json(), context);
    },
    disposeOutputItem() {
      // Nothing is kept per output: the element and its listeners go with it.
    },
  };
}
