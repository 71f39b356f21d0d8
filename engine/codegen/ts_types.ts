// TypeScript types for the generated bindings, so an editor completes and checks torch.add(a, b, {alpha: 2}).
// One TS overload per binding signature: required positional parameters, optional ones, then an options
// object holding every parameter that may be given by keyword (Python's **kwargs).

import type { Argument } from "../dispatcher/schema/FunctionSchema.js";
import type { BindingOverload } from "./python_signatures.js";

/** The TS type of a schema type (numbers may stand for tensors where PyTorch allows it). */
export function tsType(schemaType: string, numbersAsTensors: boolean): string {
  const optional = schemaType.endsWith("?") && !schemaType.endsWith("?[]");
  const base = optional ? schemaType.slice(0, -1) : schemaType;
  const t = (() => {
    if (base === "Tensor") return numbersAsTensors ? "Tensor | number | boolean" : "Tensor";
    if (base === "Scalar") return "number | boolean";
    if (base === "int" || base === "SymInt" || base === "float") return "number";
    if (base === "bool") return "boolean";
    if (base === "str") return "string";
    const list = /^(\w+)\[(\d*)\]$/.exec(base);
    if (list) {
      const elem = list[1] === "Tensor" ? "Tensor" : "number";
      return list[2] ? `${elem} | ${elem}[]` : `${elem}[]`; // int[1] also takes a single int
    }
    if (base === "Tensor?[]") return "(Tensor | null)[]";
    if (base === "ScalarType") return "dtype";
    if (base === "Device") return "device | string";
    if (base === "Generator") return "unknown";
    return "unknown"; // Layout, MemoryFormat: not modelled yet
  })();
  return optional ? `${t} | null` : t;
}

interface Param {
  name: string;
  type: string;
  required: boolean;
  keywordOnly: boolean;
}

function paramsOf(o: BindingOverload, isMethod: boolean, numbers: boolean): Param[] {
  const args: Param[] = o.fn.func.arguments
    .filter((a: Argument) => !(isMethod && a.name === "self"))
    .map((a: Argument) => ({
      name: a.name === "self" ? "input" : a.name,
      type: tsType(a.type.toString(), numbers),
      required: a.default === null, // "int[1]? dim" without a default is required (it may be None)
      keywordOnly: a.kwarg_only,
    }));
  if (o.out) args.push({ name: "out", type: o.out.func.outArguments().length > 1 ? "Tensor[] | null" : "Tensor | null", required: false, keywordOnly: true });
  if (o.isFactory) args.push({ name: "requires_grad", type: "boolean", required: false, keywordOnly: true });
  return args;
}

/** The overload declarations of one binding: `(input: Tensor, other: Tensor | number, options?: {...}): Tensor`. */
export function tsOverloads(overloads: readonly BindingOverload[], isMethod: boolean, numbers: boolean, ret = "Tensor"): string[] {
  const out: string[] = [];
  for (const o of overloads) {
    const params = paramsOf(o, isMethod, numbers);
    const positional = params.filter((p) => !p.keywordOnly);
    const options = params.filter((p) => !p.required);
    const opts = options.length ? `options?: { ${options.map((p) => `${p.name}?: ${p.type}`).join("; ")} }` : null;
    // a lone int-list parameter also takes varargs: view(2, 3)
    if (positional.length === 1 && positional[0].type === "number[]") {
      // torch.zeros(2, 3) and torch.zeros(2, 3, {dtype}): the sizes as varargs, options last
      const rest = opts ? `[...number[], ${opts.replace(/^options\?: /, "")}] | number[]` : "number[]";
      out.push(`(...${positional[0].name}: ${rest}): ${ret}`);
    }
    // each optional positional may be left out: emit one overload per prefix
    const firstOptional = positional.findIndex((p) => !p.required);
    const cut = firstOptional < 0 ? positional.length : firstOptional;
    for (let n = cut; n <= positional.length; n++) {
      const ps = positional.slice(0, n).map((p) => `${p.name}: ${p.type}`);
      if (opts) ps.push(opts);
      out.push(`(${ps.join(", ")}): ${ret}`);
    }
  }
  return [...new Set(out)];
}
