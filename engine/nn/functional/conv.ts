// torch.nn.functional's convolutions (torch/nn/functional.py): conv1d, conv2d, conv_transpose1d and
// conv_transpose2d are the torch.* builtins themselves (`conv2d = _add_docstr(torch.conv2d, ...)`), so
// their argument handling (int or tuple args, padding as an int, tuple or 'same'/'valid') is the
// binding's: the schema's int[2] accepts one int, and conv2d.padding takes the string form.

import * as G from "../../generated/index.js";

export const conv1d = G.conv1d;
export const conv2d = G.conv2d;
export const conv_transpose1d = G.conv_transpose1d;
export const conv_transpose2d = G.conv_transpose2d;
