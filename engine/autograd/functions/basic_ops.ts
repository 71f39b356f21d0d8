// The engine's own Nodes (torch/csrc/autograd/functions/basic_ops.h): GraphRoot hands the starting
// gradients to several roots at once; Error and NotImplemented raise when backward reaches them.

import { RuntimeError } from "../../c10/Errors.js";
import { Node, type Grad } from "../function.js";
import type { Edge } from "../edge.js";

export class GraphRoot extends Node {
  constructor(roots: Edge[], private readonly outputs: Grad[]) {
    super();
    this.set_next_edges(roots);
  }
  name(): string {
    return "GraphRoot";
  }
  apply(): Grad[] {
    return this.outputs;
  }
}

export class ErrorNode extends Node {
  constructor(readonly msg: string, edges: Edge[] = []) {
    super();
    this.set_next_edges(edges);
  }
  name(): string {
    return "Error";
  }
  apply(): Grad[] {
    throw new RuntimeError(this.msg);
  }
}

/** The grad_fn of an op whose derivative is not written (gen_variable_type.py attaches it). */
export class NotImplemented extends ErrorNode {
  constructor(forwardFn: string, edges: Edge[] = []) {
    super(`derivative for ${forwardFn} is not implemented`, edges);
  }
  override name(): string {
    return "NotImplemented";
  }
}

/**
 * UndefinedGradBackward: the grad_fn torch._C._functions.UndefinedGrad gives its outputs; its backward
 * hands undefined (None) gradients to its inputs, so a test can check that a Node copes with them
 * (gradcheck's check_undefined_grad).
 */
export class UndefinedGradBackward extends Node {
  constructor(edges: Edge[] = []) {
    super();
    this.set_next_edges(edges);
  }
  name(): string {
    return "UndefinedGradBackward";
  }
  apply(grads: Grad[]): Grad[] {
    return grads.map(() => null);
  }
}

/** Identity: passes its gradient through unchanged (_fw_primal's grad_fn; named as PyTorch prints it). */
export class Identity extends Node {
  constructor(edges: Edge[] = []) {
    super();
    this.set_next_edges(edges);
  }
  name(): string {
    return "torch::autograd::Identity";
  }
  apply(grads: Grad[]): Grad[] {
    return [grads[0]];
  }
}
