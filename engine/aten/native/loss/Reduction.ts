// at::Reduction (aten/src/ATen/core/Reduction.h): the `int reduction` every loss takes.
// torch/nn/_reduction.py maps 'none' / 'mean' / 'sum' onto it.
export const Reduction = { None: 0, Mean: 1, Sum: 2 } as const;
