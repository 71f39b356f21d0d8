// torch.optim: the optimizers, torch.optim.lr_scheduler, and the functional updates (torch.optim._functional).

export { Optimizer, OptimizerState, required } from "./optimizer.js";
export type { ParamGroup, ParamState, OptimizerStateDict, Params } from "./optimizer.js";
export { SGD } from "./sgd.js";
export type { SGDOptions } from "./sgd.js";
export { Adam } from "./adam.js";
export type { AdamOptions } from "./adam.js";
export { AdamW } from "./adamw.js";
export type { AdamWOptions } from "./adamw.js";
export { RMSprop } from "./rmsprop.js";
export type { RMSpropOptions } from "./rmsprop.js";
export { Adagrad } from "./adagrad.js";
export type { AdagradOptions } from "./adagrad.js";
export * as lr_scheduler from "./lr_scheduler.js";
export * as _functional from "./functional.js";
