// Binding a JavaScript call to an operator signature, with PyTorch's error texts
// (torch/csrc/utils/python_arg_parser.cpp and invalid_arguments.cpp).
//
// A generated binding such as torch.add owns one PythonArgParser built from signature strings
// like "add(Tensor input, Tensor other, *, Scalar alpha=1, Tensor? out=None)". A call's
// positional arguments come first; keyword arguments are a final plain options object, the way
// Glasstorch spells Python's **kwargs: torch.add(a, b, {alpha: 2}).

import { TypeError_ } from "../c10/Errors.js";
import { dtype as DType } from "../c10/ScalarType.js";
import { device as Device } from "../c10/Device.js";
import { layout as Layout } from "../c10/Layout.js";
import { memory_format as MemoryFormatValue } from "../c10/MemoryFormat.js";
import { Tensor } from "./core/Tensor.js";
import { isOptionsObject } from "./core/TensorOptions.js";

/** The parameter types a binding understands (FunctionParameter's ParameterType). */
type ParamType =
  | "Tensor" | "Scalar" | "int" | "SymInt" | "float" | "bool" | "str"
  | "int[]" | "SymInt[]" | "float[]" | "Tensor[]" | "Tensor?[]"
  | "ScalarType" | "Device" | "Generator" | "Layout" | "MemoryFormat" | "Dimname" | "Dimname[]";

/** How each type is named in error messages (FunctionParameter::type_name). */
const typeNames: Record<ParamType, string> = {
  Tensor: "Tensor", Scalar: "Number", int: "int", SymInt: "SymInt", float: "float", bool: "bool", str: "str",
  "int[]": "tuple of ints", "SymInt[]": "tuple of SymInts", "float[]": "tuple of floats",
  "Tensor[]": "tuple of Tensors", "Tensor?[]": "tuple of Tensors",
  ScalarType: "torch.dtype", Device: "torch.device", Generator: "torch.Generator", Layout: "torch.layout",
  MemoryFormat: "torch.memory_format", Dimname: "name", "Dimname[]": "tuple of names",
};

export interface FunctionParameter {
  name: string;
  type: ParamType;
  /** int[2]: a single int is accepted and repeated. */
  size: number;
  optional: boolean;
  allowNone: boolean;
  keywordOnly: boolean;
  /** Parsed default (undefined when there is none). */
  defaultValue: unknown;
}

/** The Python type name of a JS value, as Py_TYPE(obj)->tp_name would print it. */
export function pyTypeName(v: unknown): string {
  if (v === null || v === undefined) return "NoneType";
  if (v instanceof Tensor) return "Tensor";
  if (typeof v === "number") return Number.isInteger(v) ? "int" : "float";
  if (typeof v === "bigint") return "int";
  if (typeof v === "boolean") return "bool";
  if (typeof v === "string") return "str";
  if (Array.isArray(v)) return "list";
  if (v instanceof DType) return "torch.dtype";
  if (v instanceof Device) return "torch.device";
  if (v instanceof Layout) return "torch.layout";
  if (v instanceof MemoryFormatValue) return "torch.memory_format";
  if (typeof v === "function") return "function";
  const name = (v as object).constructor?.name;
  return name === "Generator" ? "torch.Generator" : name && name !== "Object" ? name : "dict";
}

const isInt = (v: unknown) => typeof v === "number" && Number.isInteger(v);
const isIntList = (p: FunctionParameter) => p.type === "int[]" || p.type === "SymInt[]";
// a 0-d tensor that requires grad or carries a forward AD tangent stays a Tensor (it would lose either as a Scalar)
const isZeroDim = (v: unknown): v is Tensor =>
  v instanceof Tensor && v.dim() === 0 && !v.requires_grad && (v._impl.autograd_meta?.fw_grad?.(0, v) ?? null) === null;

/** FunctionParameter::check: does this value fit the parameter? */
function check(p: FunctionParameter, v: unknown, allowNumbersAsTensors: boolean): boolean {
  switch (p.type) {
    case "Tensor":
      return v instanceof Tensor || (allowNumbersAsTensors && (typeof v === "number" || typeof v === "boolean"));
    case "Scalar":
      return typeof v === "number" || typeof v === "boolean" || isZeroDim(v);
    case "int":
    case "SymInt":
      return isInt(v) || (isZeroDim(v) && !v.dtype.is_floating_point && v.dtype.name !== "bool");
    case "float":
      return typeof v === "number" || (isZeroDim(v) && v.dtype.name !== "bool");
    case "bool":
      return typeof v === "boolean" || (isZeroDim(v) && v.dtype.name === "bool");
    case "str":
      return typeof v === "string";
    case "int[]":
    case "SymInt[]":
      return (Array.isArray(v) && v.every(isInt)) || (p.size > 0 && isInt(v));
    case "float[]":
      return Array.isArray(v) && v.every((x) => typeof x === "number");
    case "Tensor[]":
      return Array.isArray(v) && v.every((x) => x instanceof Tensor);
    case "Tensor?[]":
      return Array.isArray(v) && v.every((x) => x == null || x instanceof Tensor);
    case "ScalarType":
      return v instanceof DType;
    case "Device":
      return v instanceof Device || typeof v === "string" || isInt(v);
    case "Generator":
      return pyTypeName(v) === "torch.Generator";
    case "Layout":
      return v instanceof Layout;
    case "MemoryFormat":
      return v instanceof MemoryFormatValue;
    default:
      return false;
  }
}

/** One signature: "name(Type a, Type b=default, *, Type c=None)". */
export class FunctionSignature {
  readonly name: string;
  readonly params: FunctionParameter[];
  readonly minArgs: number;
  readonly maxArgs: number;
  readonly maxPosArgs: number;
  readonly hidden: boolean;

  constructor(readonly text: string) {
    const m = /^([\w.]+)\((.*)\)(\|hidden|\|deprecated)?$/.exec(text.trim());
    if (!m) throw new Error(`bad binding signature: ${text}`);
    this.name = m[1];
    this.hidden = !!m[3];
    this.params = [];
    let keywordOnly = false;
    // split at the commas between parameters, not those inside a list default ("int[] dim=[-2,-1]")
    for (const raw of m[2].split(/,(?![^[]*\])\s*/).filter((s) => s.length > 0)) {
      if (raw === "*") {
        keywordOnly = true;
        continue;
      }
      this.params.push(parseParam(raw, keywordOnly));
    }
    this.minArgs = this.params.filter((p) => !p.optional).length;
    this.maxArgs = this.params.length;
    this.maxPosArgs = this.params.filter((p) => !p.keywordOnly).length;
  }

  /** FunctionSignature::toString: how the signature appears in "expected one of" lists. */
  toString(): string {
    let kw = false;
    const parts = this.params.map((p) => {
      const star = p.keywordOnly && !kw ? ((kw = true), "*, ") : "";
      return `${star}${typeNames[p.type]} ${p.name}`;
    });
    return `(${parts.join(", ")})`;
  }

  /**
   * FunctionSignature::parse: fills `dst` (one slot per parameter, defaults applied) and returns
   * true, or returns false — or throws PyTorch's TypeError when `raise` is set.
   */
  parse(args: readonly unknown[], kwargs: Record<string, unknown>, dst: unknown[], raise: boolean, allowNumbersAsTensors: boolean): boolean {
    const nargs = args.length;
    // most calls pass no options object: then no parameter is looked up by name
    let remainingKwargs = kwargs === NO_KWARGS ? 0 : Object.keys(kwargs).length;
    const hasKwargs = remainingKwargs > 0;
    let argPos = 0;
    // A single positional int-list parameter takes varargs: view(2, 3) means view([2, 3])
    const allowVarargsIntlist = this.maxPosArgs === 1 && (this.params[0].type === "int[]" || this.params[0].type === "SymInt[]");
    if (nargs > this.maxPosArgs && !allowVarargsIntlist) {
      if (raise) this.extraArgs(nargs);
      return false;
    }
    for (let i = 0; i < this.params.length; i++) {
      const p = this.params[i];
      let v: unknown;
      let isKwd = false;
      let present = false;
      if (argPos < nargs) {
        if (p.keywordOnly) {
          if (raise) this.extraArgs(nargs);
          return false;
        }
        v = args[argPos];
        present = true;
      } else if (hasKwargs && Object.prototype.hasOwnProperty.call(kwargs, p.name)) {
        v = kwargs[p.name];
        present = v !== undefined; // {alpha: undefined} is the same as leaving it out
        isKwd = true;
      }
      if ((!present && p.optional) || (present && v === null && p.allowNone)) {
        // an int default of a sized list (int[2] stride=1) stands for the whole list, as PyTorch parses it
        const d = p.defaultValue;
        dst[i] = d === undefined ? null : p.size > 0 && isInt(d) ? new Array(p.size).fill(d) : d;
      } else if (!present) {
        if (raise) this.missingArgs(i);
        return false;
      } else if (isIntList(p) && Array.isArray(v) && !v.every(isInt)) {
        // a list with a bad element is reported at once, naming the element (is_int_or_symint_list)
        const bad = v.findIndex((x) => !isInt(x));
        throw new TypeError_(`${this.name}(): argument '${p.name}' must be ${typeNames[p.type]}, but found element of type ${pyTypeName(v[bad])} at pos ${bad + 1}`, { op: this.name });
      } else if (check(p, v, allowNumbersAsTensors)) {
        dst[i] = p.size > 0 && isInt(v) ? new Array(p.size).fill(v) : v;
      } else if (allowVarargsIntlist && argPos === 0 && !isKwd && isInt(v)) {
        dst[i] = [...args];
        argPos = nargs;
        continue;
      } else if (raise) {
        const where = isKwd ? "" : ` (position ${argPos + 1})`;
        throw new TypeError_(`${this.name}(): argument '${p.name}'${where} must be ${typeNames[p.type]}, not ${pyTypeName(v)}`, { op: this.name });
      } else {
        return false;
      }
      if (!isKwd) argPos++;
      else remainingKwargs--;
    }
    if (remainingKwargs > 0) {
      if (raise) this.extraKwargs(kwargs, nargs);
      return false;
    }
    return true;
  }

  private extraArgs(nargs: number): never {
    const { maxPosArgs, minArgs, name } = this;
    if (minArgs !== maxPosArgs) {
      throw new TypeError_(`${name}() takes from ${minArgs} to ${maxPosArgs} positional arguments but ${nargs} were given`, { op: name });
    }
    throw new TypeError_(
      `${name}() takes ${maxPosArgs} positional argument${maxPosArgs === 1 ? "" : "s"} but ${nargs} ${nargs === 1 ? "was" : "were"} given`,
      { op: name },
    );
  }

  private missingArgs(idx: number): never {
    const missing = this.params.slice(idx).filter((p) => !p.optional).map((p) => `"${p.name}"`);
    // PyTorch's own text says "arguments" for one and "argument" for several
    throw new TypeError_(`${this.name}() missing ${missing.length} required positional argument${missing.length === 1 ? "s" : ""}: ${missing.join(", ")}`, { op: this.name });
  }

  private extraKwargs(kwargs: Record<string, unknown>, nargs: number): never {
    for (const key of Object.keys(kwargs)) {
      const idx = this.params.findIndex((p) => p.name === key);
      if (idx < 0) throw new TypeError_(`${this.name}() got an unexpected keyword argument '${key}'`, { op: this.name });
      if (idx < nargs) throw new TypeError_(`${this.name}() got multiple values for argument '${key}'`, { op: this.name });
    }
    throw new TypeError_("invalid keyword arguments", { op: this.name });
  }
}

function parseParam(raw: string, keywordOnly: boolean): FunctionParameter {
  const eq = raw.indexOf("=");
  const decl = eq < 0 ? raw : raw.slice(0, eq);
  const def = eq < 0 ? undefined : raw.slice(eq + 1).trim();
  const m = /^(.+?)\s+(\w+)$/.exec(decl.trim());
  if (!m) throw new Error(`bad binding parameter: ${raw}`);
  let typeText = m[1];
  const nullable = typeText.endsWith("?") && !typeText.endsWith("?[]");
  if (nullable) typeText = typeText.slice(0, -1);
  const sized = /^(\w+)\[(\d+)\]$/.exec(typeText);
  const type = (sized ? `${sized[1]}[]` : typeText) as ParamType;
  if (!(type in typeNames)) throw new Error(`unknown binding type '${typeText}' in: ${raw}`);
  return {
    name: m[2],
    type,
    size: sized ? Number(sized[2]) : 0,
    optional: def !== undefined, // "Tensor? x" without a default is required but may be None
    allowNone: nullable || def === "None",
    keywordOnly,
    defaultValue: parseDefault(def),
  };
}

function parseDefault(text: string | undefined): unknown {
  if (text === undefined || text === "None") return undefined;
  if (text === "True") return true;
  if (text === "False") return false;
  // `int reduction=Mean`: PyTorch's binding writes the default as "at::Reduction::Mean", which its
  // parser reads with atol() as 0, so torch._C._nn.mse_loss(x, y) does not reduce (F.* always passes it)
  if (text === "Mean") return 0;
  if (text.startsWith("[")) return text.slice(1, -1).split(",").map((s) => s.trim()).filter(Boolean).map(Number);
  if (/^-?(\d+\.?\d*(e-?\d+)?|inf)$/.test(text)) return text.endsWith("inf") ? (text.startsWith("-") ? -Infinity : Infinity) : Number(text);
  return text.replace(/^["']|["']$/g, "");
}

/** The kwargs of a call without an options object (never written: parse only reads kwargs). */
const NO_KWARGS: Record<string, unknown> = Object.freeze({}) as Record<string, unknown>;

export interface ParsedArgs {
  /** Which signature matched (index into the parser's list). */
  index: number;
  /** One value per parameter of that signature, defaults filled in; null for None. */
  values: unknown[];
}

/** The parser of one Python-visible function: several signatures tried in order. */
export class PythonArgParser {
  readonly signatures: FunctionSignature[];

  constructor(signatures: readonly string[], readonly allowNumbersAsTensors = false) {
    this.signatures = signatures.map((s) => new FunctionSignature(s));
  }

  /** Splits a JS call into positional args and the trailing options object (Python's kwargs). */
  static split(callArgs: readonly unknown[]): { args: unknown[]; kwargs: Record<string, unknown> } {
    const last = callArgs[callArgs.length - 1];
    if (callArgs.length > 0 && isOptionsObject(last)) return { args: callArgs.slice(0, -1), kwargs: last };
    return { args: [...callArgs], kwargs: {} };
  }

  parse(callArgs: readonly unknown[]): ParsedArgs {
    // split() without copying: the binding's own rest array is read in place when there are no kwargs
    const n = callArgs.length;
    const last = n > 0 ? callArgs[n - 1] : undefined;
    const withKwargs = last !== undefined && !(last instanceof Tensor) && isOptionsObject(last);
    const args = withKwargs ? callArgs.slice(0, -1) : (callArgs as unknown[]);
    const kwargs = withKwargs ? (last as Record<string, unknown>) : NO_KWARGS;
    const values: unknown[] = [];
    if (this.signatures.length === 1) {
      this.signatures[0].parse(args, kwargs, values, true, this.allowNumbersAsTensors);
      return { index: 0, values };
    }
    for (let i = 0; i < this.signatures.length; i++) {
      values.length = 0;
      if (this.signatures[i].parse(args, kwargs, values, false, this.allowNumbersAsTensors)) return { index: i, values };
    }
    return this.printError(args, kwargs);
  }

  /** PythonArgParser::print_error: one plausible signature raises its own error, else list them all. */
  private printError(args: unknown[], kwargs: Record<string, unknown>): never {
    const numArgs = args.length + Object.keys(kwargs).length;
    const plausible = this.signatures.filter((s) => !s.hidden && numArgs >= s.minArgs && numArgs <= s.maxArgs);
    if (plausible.length === 1) plausible[0].parse(args, kwargs, [], true, this.allowNumbersAsTensors);
    const visible = this.signatures.filter((s) => !s.hidden);
    throw new TypeError_(formatInvalidArgs(args, kwargs, `${this.signatures[0].name}()`, visible), { op: this.signatures[0].name });
  }
}

// ---- format_invalid_args (torch/csrc/utils/invalid_arguments.cpp) ----

function argDesc(args: unknown[], kwargs: Record<string, unknown>): string {
  const parts = [...args.map(pyTypeName), ...Object.entries(kwargs).map(([k, v]) => `${k}=${pyTypeName(v)}`)];
  return `(${parts.join(", ")})`;
}

/** invalid_arguments.cpp splits the printed option at ", ", so its "*" counts as one more argument. */
function printedArity(sig: FunctionSignature): number {
  return sig.params.length + (sig.params.some((p) => p.keywordOnly) ? 1 : 0);
}

function argcountMatch(sig: FunctionSignature, args: unknown[], kwargs: Record<string, unknown>): boolean {
  return args.length + Object.keys(kwargs).length === printedArity(sig);
}

/** invalid_arguments.cpp matches by type *name*: "float" takes ints, "Number" or "tuple of ints" match nothing. */
function matchesTypeName(typeName: string, v: unknown): boolean {
  const got = pyTypeName(v);
  if (typeName === "float") return got === "float" || got === "int";
  return got === typeName;
}

/** "(Tensor, !str!)": each given argument's type, marked with ! where it does not fit. */
function formattedArgDesc(sig: FunctionSignature, args: unknown[], kwargs: Record<string, unknown>): string {
  const all: [string | null, unknown][] = [...args.map((a) => [null, a] as [null, unknown]), ...Object.entries(kwargs)];
  const parts = all.map(([kw, v], i) => {
    const p = kw === null ? sig.params[i] : sig.params.find((q) => q.name === kw);
    const ok = p !== undefined && matchesTypeName(typeNames[p.type], v);
    const desc = Array.isArray(v) ? `list of [${v.map(pyTypeName).join(", ")}]` : pyTypeName(v);
    const text = (kw === null ? "" : `${kw}=`) + desc;
    return ok ? text : `!${text}!`;
  });
  return `(${parts.join(", ")})`;
}

function unmatchedKwargs(sig: FunctionSignature, kwargs: Record<string, unknown>): string[] {
  return Object.keys(kwargs).filter((k) => !sig.params.some((p) => p.name === k));
}

export function formatInvalidArgs(args: unknown[], kwargs: Record<string, unknown>, fn: string, options: FunctionSignature[]): string {
  let msg = `${fn} received an invalid combination of arguments - `;
  const hasKwargs = Object.keys(kwargs).length > 0;
  if (options.length === 1) {
    const sig = options[0];
    const unmatched = hasKwargs ? unmatchedKwargs(sig, kwargs) : [];
    if (unmatched.length > 0) return msg + `got unrecognized keyword arguments: ${unmatched.join(", ")}`;
    const got = argcountMatch(sig, args, kwargs) ? formattedArgDesc(sig, args, kwargs) : argDesc(args, kwargs);
    return msg + `got ${got}, but expected ${sig}`;
  }
  msg += `got ${argDesc(args, kwargs)}, but expected one of:\n`;
  for (const sig of options) {
    msg += ` * ${sig}\n`;
    if (!argcountMatch(sig, args, kwargs)) continue;
    const unmatched = hasKwargs ? unmatchedKwargs(sig, kwargs) : [];
    msg += unmatched.length > 0
      ? `      didn't match because some of the keywords were incorrect: ${unmatched.join(", ")}\n`
      : `      didn't match because some of the arguments have invalid types: ${formattedArgDesc(sig, args, kwargs)}\n`;
  }
  return msg;
}
