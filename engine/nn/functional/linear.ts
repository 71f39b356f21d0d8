// torch.nn.functional.linear and bilinear (torch/nn/functional.py): linear is torch._C._nn.linear
// (aten::linear, python_module: nn) and bilinear is torch.bilinear, both bound unchanged.

export { linear } from "../../generated/torch_nn_functions.js";
export { bilinear } from "../../generated/torch_functions.js";
