// torch.nn.functional.pairwise_distance and cosine_similarity (torch/nn/functional.py 1.13): the torch.*
// bindings themselves (`pairwise_distance = _add_docstr(torch.pairwise_distance, ...)`), whose aten
// ops are CompositeImplicitAutograd (engine/aten/native/reduce3/Norms.ts).
export { pairwise_distance, cosine_similarity } from "../../generated/torch_functions.js";
