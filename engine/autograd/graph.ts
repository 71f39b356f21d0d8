// torch.autograd.graph: the Node type of grad_fn objects, and gradient_edge.

export { Node } from "./function.js";
export { gradient_edge as get_gradient_edge } from "./variable.js";
