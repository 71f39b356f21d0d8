// torch.nn.functional (torch/nn/functional.py): the Python-level wrappers a model calls — argument
// checks, defaults and small decompositions — over the aten ops (torch._C._nn and torch.*). Each
// function lives in the file of its family and is re-exported here.

export { conv1d, conv2d, conv_transpose1d, conv_transpose2d } from "./conv.js";
export { max_pool1d, max_pool2d, avg_pool1d, avg_pool2d, adaptive_avg_pool2d, adaptive_max_pool2d } from "./pooling.js";
export { batch_norm, instance_norm, layer_norm, group_norm } from "./normalization.js";
export { interpolate, pixel_shuffle, pixel_unshuffle, unfold, fold } from "./vision.js";
