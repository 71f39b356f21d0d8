// How a torch.nn.functional function reads its arguments: the Python `def` it has in
// torch/nn/functional.py, written as a signature text ("relu(Tensor input, bool inplace=False)") and
// bound with Python def semantics by the one binder torch.nn shares (../_bind.ts): positional arguments,
// then a final options object for the keyword ones, defaults filled in, Python's TypeError texts.
// Also Python's warnings.warn.

import { bindArgs, type Params } from "../_bind.js";

/** A Python default as written in a signature: None, True/False, a number or a quoted string. */
function parseDefault(text: string): unknown {
  if (text === "None") return null;
  if (text === "True") return true;
  if (text === "False") return false;
  if (/^["'].*["']$/.test(text)) return text.slice(1, -1);
  return Number(text);
}

/** A binder for one Python signature; returns the values in signature order, defaults filled in. */
export function signature(text: string): (args: readonly unknown[]) => any[] {
  const open = text.indexOf("(");
  const name = text.slice(0, open);
  const body = text.slice(open + 1, text.lastIndexOf(")"));
  const params: Params = body
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s.length > 0)
    .map((decl) => {
      const eq = decl.indexOf("=");
      const head = (eq < 0 ? decl : decl.slice(0, eq)).trim();
      const pname = head.split(/\s+/).pop()!;
      return eq < 0 ? ([pname] as const) : ([pname, parseDefault(decl.slice(eq + 1).trim())] as const);
    });
  return (args) => {
    const bound = bindArgs(name, args, params);
    return params.map((p) => bound[p[0]]);
  };
}

/** warnings.warn(message): a UserWarning. */
export function warn(message: string): void {
  process.emitWarning(message, "UserWarning");
}
