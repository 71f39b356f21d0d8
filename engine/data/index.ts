// torch.utils.data
export { Dataset, IterableDataset, TensorDataset, ConcatDataset, ChainDataset, Subset, random_split } from "./dataset.js";
export { Sampler, SequentialSampler, RandomSampler, SubsetRandomSampler, WeightedRandomSampler, BatchSampler } from "./sampler.js";
export { default_collate, default_convert } from "./collate.js";
export { DataLoader, type DataLoaderOptions } from "./dataloader.js";
export { get_worker_info, WorkerInfo } from "./worker_info.js";
export { len } from "./_common.js";
export type { WorkerSpec } from "./_worker_spec.js";
