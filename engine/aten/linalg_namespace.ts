// torch.linalg: the ops native_functions.yaml marks `python_module: linalg`, named without their
// `linalg_` prefix (aten::linalg_solve is torch.linalg.solve), as torch/linalg/__init__.py binds them,
// and torch.linalg.LinAlgError (torch._C._LinAlgError), what a failed decomposition raises.

export * from "../generated/torch_linalg_functions.js";
export { LinAlgError } from "../c10/Errors.js";
