// torch.nn: modules (a later issue) and torch.nn.functional.

export * as functional from "./functional/index.js";
export * as utils from "./utils/index.js";
