// The engine's window for the trace (engine/trace): who wants to know when backward starts, each Node
// runs, and backward ends. Null when nobody listens, so the engine pays one check per Node.

import type { Tensor } from "../aten/core/Tensor.js";
import type { Grad, Node } from "./function.js";

export interface EngineObserver {
  onBackwardStart(root: Node): void;
  onNodeStart(fn: Node, gradOutputs: readonly Grad[]): void;
  onNodeEnd(fn: Node, gradInputs: readonly Grad[]): void;
  onBackwardEnd(root: Node): void;
  /** AccumulateGrad wrote `grad` into its leaf's .grad (set, or added to an existing one). */
  onAccumulate(fn: Node, variable: Tensor, grad: Tensor, accumulated: boolean): void;
  /** A hook ran: on a gradient slot, retain_grad, a Node pre/post hook, or after accumulation. */
  onHook(fn: Node | null, hook: "tensor_pre" | "retain_grad" | "pre" | "post" | "post_accumulate", name: string | null): void;
  /** Whether it may keep the gradients it is shown (a recording is on): the engine then frees none early. */
  keepsGradients(): boolean;
}

export let engineObserver: EngineObserver | null = null;

export function setEngineObserver(o: EngineObserver | null): void {
  engineObserver = o;
}
