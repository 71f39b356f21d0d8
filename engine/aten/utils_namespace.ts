// torch.utils: the pieces of torch/utils/ Glasstorch has.
export { TorchDispatchMode } from "./core/python_dispatch.js";
