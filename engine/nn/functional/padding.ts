// torch.nn.functional.pad (torch/nn/functional.py 1.13): the aten::pad binding itself
// (`pad = _add_docstr(torch._C._nn.pad, ...)`): F.pad(input, pad, {mode: "reflect", value}).
export { pad } from "../../generated/torch_nn_functions.js";
