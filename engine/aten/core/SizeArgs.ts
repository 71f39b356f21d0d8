// Sizes as PyTorch accepts them: varargs `zeros(2, 3)` or one list `zeros([2, 3])`, then an optional options object.
// Errors follow torch/csrc/utils/python_arg_parser.cpp's texts.

import { RuntimeError, TypeError_ } from "../../c10/Errors.js";
import { isOptionsObject, pythonTypeName } from "./TensorOptions.js";

export type SizeArgs<O> = (number | readonly number[] | O | undefined)[];

/** Splits `(...sizes, options?)` into a checked size list and the options. */
export function parseSizeArgs<O>(op: string, args: readonly unknown[]): { sizes: number[]; options: O | undefined } {
  let rest = [...args];
  let options: O | undefined;
  if (rest.length > 0 && (isOptionsObject(rest[rest.length - 1]) || rest[rest.length - 1] === undefined)) {
    options = rest.pop() as O | undefined;
  }
  let list: unknown[];
  if (rest.length === 1 && Array.isArray(rest[0])) list = [...(rest[0] as unknown[])];
  else {
    // varargs: a non-integer first argument is reported like PyTorch's "(position 1) must be tuple of SymInts, not float"
    if (rest.length === 1 && !Number.isInteger(rest[0])) {
      throw new TypeError_(`${op}(): argument 'size' (position 1) must be tuple of SymInts, not ${pythonTypeName(rest[0])}`, { op });
    }
    list = rest;
  }
  const sizes = list.map((v, i) => {
    if (typeof v !== "number" || !Number.isInteger(v)) {
      throw new TypeError_(
        `${op}(): argument 'size' must be tuple of SymInts, but found element of type ${pythonTypeName(v)} at pos ${i + 1}`,
        { op },
      );
    }
    return v;
  });
  checkSizeNonnegative(sizes, op);
  return { sizes, options };
}

export function checkSizeNonnegative(sizes: readonly number[], op?: string): void {
  for (const s of sizes) {
    if (s < 0) throw new RuntimeError(`Trying to create tensor with negative dimension ${s}: [${sizes.join(", ")}]`, { op });
  }
}
