// torch.utils: the pieces of torch/utils/ Glasstorch has.
export { TorchDispatchMode } from "./core/python_dispatch.js";
export { progress, tqdm, Progress, type ProgressOptions } from "../utils/progress.js";
export * as data from "../data/index.js";
