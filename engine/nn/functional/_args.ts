// How a torch.nn.functional function reads its arguments: the Python signature it has in
// torch/nn/functional.py, parsed like a binding (positional arguments, then a final options object
// for the keyword ones), and Python's warnings.warn.

import { PythonArgParser } from "../../aten/python_arg_parser.js";

/** A parser for one Python signature; returns the values in signature order, defaults filled in. */
export function signature(text: string): (args: readonly unknown[]) => any[] {
  const p = new PythonArgParser([text]);
  return (args) => p.parse(args).values;
}

/** warnings.warn(message): a UserWarning. */
export function warn(message: string): void {
  process.emitWarning(message, "UserWarning");
}
