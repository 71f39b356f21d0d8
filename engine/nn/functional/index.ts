// torch.nn.functional (torch/nn/functional.py): the Python-level wrappers a model calls — argument
// checks, defaults and small decompositions — over the aten ops (torch._C._nn and torch.*). Each
// function lives in the file of its family and is re-exported here.

export { embedding, one_hot } from "./sparse.js";
