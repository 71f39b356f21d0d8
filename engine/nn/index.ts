// torch.nn: Module and its layers (engine/nn/modules/), Parameter, torch.nn.init and torch.nn.functional.

export * as functional from "./functional/index.js";
export * as utils from "./utils/index.js";
export { Parameter } from "./parameter.js";
export * as init from "./init.js";
export * from "./modules/index.js";
