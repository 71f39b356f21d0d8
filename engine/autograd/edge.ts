// Edge (torch/csrc/autograd/edge.h): "feed my gradient into input slot input_nr of function".
// An input that needs no gradient gets an invalid edge (function null), shown as (None, 0).

import type { Node } from "./function.js";

export class Edge {
  constructor(
    readonly function_: Node | null,
    readonly input_nr: number,
  ) {}

  is_valid(): boolean {
    return this.function_ !== null;
  }
}
