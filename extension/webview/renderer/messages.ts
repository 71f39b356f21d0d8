// Messages from the tensor renderer (a notebook output) to the extension, validated there: an
// output is a web page, and nothing it posts is trusted as-is.

export const RENDERER_ID = "glasstorch.tensor";

/** "Backward Graph" on a tensor output: show the graph of the tensor with this handle. */
export interface ShowGraphMessage {
  type: "showBackwardGraph";
  handle: number;
}

export function parseRendererMessage(msg: unknown): ShowGraphMessage | undefined {
  if (typeof msg !== "object" || msg === null) return undefined;
  const m = msg as Record<string, unknown>;
  if (m.type === "showBackwardGraph" && typeof m.handle === "number" && Number.isSafeInteger(m.handle) && m.handle > 0) {
    return { type: "showBackwardGraph", handle: m.handle };
  }
  return undefined;
}
