// torch.nn.modules: the layers, each in the file of its PyTorch module.

export { Module } from "./module.js";
export type { StateDict, IncompatibleKeys } from "./module.js";
export { Identity, Linear, Bilinear } from "./linear.js";
export { Sequential, ModuleList, ModuleDict, ParameterList, ParameterDict } from "./container.js";
