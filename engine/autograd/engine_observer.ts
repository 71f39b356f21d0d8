// The engine's window for the trace (engine/trace): who wants to know when backward starts, each Node
// runs, and backward ends. Null when nobody listens, so the engine pays one check per Node.

import type { Grad, Node } from "./function.js";

export interface EngineObserver {
  onBackwardStart(root: Node): void;
  onNodeStart(fn: Node, gradOutputs: readonly Grad[]): void;
  onNodeEnd(fn: Node, gradInputs: readonly Grad[]): void;
  onBackwardEnd(root: Node): void;
}

export let engineObserver: EngineObserver | null = null;

export function setEngineObserver(o: EngineObserver | null): void {
  engineObserver = o;
}
