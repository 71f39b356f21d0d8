// torch.special: the ops native_functions.yaml marks `python_module: special`, named without their
// `special_` prefix (aten::special_erfcx is torch.special.erfcx), as torch/special/__init__.py binds them.

export * from "../generated/torch_special_functions.js";
