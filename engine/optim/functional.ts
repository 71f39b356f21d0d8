// torch.optim._functional: the update of a list of parameters without an Optimizer object.

export { sgd } from "./sgd.js";
export { adam } from "./adam.js";
export { adamw } from "./adamw.js";
export { rmsprop } from "./rmsprop.js";
export { adagrad } from "./adagrad.js";
