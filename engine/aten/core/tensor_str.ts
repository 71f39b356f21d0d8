// How a tensor prints: a port of PyTorch 1.13's torch/_tensor_str.py.
//
// The functions keep PyTorch's names (_Formatter, _vector_str, _tensor_str_with_formatter,
// _tensor_str, get_summarized_data, _add_suffixes, _str_intern) and its order of decisions,
// so this file can be read side by side with the Python one. What differs is only the
// plumbing: PyTorch slices real tensors (self[i], torch.cat, torch.stack); here a small
// read-only view (`TensorView`) walks the row-major elements that ReprInput exposes, and
// only the elements that will be looked at are ever read, so a huge tensor prints fast.
// Complex, sparse, quantized, nested and named tensors are not supported (yet).

import { formatExponent, formatFixed } from "./pyformat.js";

export type ReprDtype =
  | "float32"
  | "float64"
  | "float16"
  | "bfloat16"
  | "int8"
  | "uint8"
  | "int16"
  | "int32"
  | "int64"
  | "bool";

/** One element as Python's `tensor.tolist()` would give it (bigint allowed for int64 beyond 2^53). */
export type ReprScalar = number | bigint | boolean;

/** What printing needs to know about a tensor; the Tensor class adapts itself to this. */
export interface ReprInput {
  sizes: readonly number[];
  dtype: ReprDtype;
  /** element at a row-major logical flat index: number for float/int dtypes (exact value; float16/bfloat16 already widened), boolean for bool */
  get(flatIndex: number): ReprScalar;
  device: string; // str(device): 'cpu', 'cuda:0', 'meta'
  isMeta: boolean;
  requiresGrad: boolean;
  gradFnName?: string; // e.g. 'MulBackward0' when the tensor has a grad_fn
  isParameter?: boolean; // nn.Parameter prints "Parameter containing:\n" + repr
}

// ---------------------------------------------------------------------------------------
// Print options: __PrinterOptions / PRINT_OPTS / set_printoptions
// ---------------------------------------------------------------------------------------

export interface PrintOptions {
  precision: number;
  threshold: number;
  edgeitems: number;
  linewidth: number;
  sci_mode: boolean | null;
}

export const PRINT_OPTS: PrintOptions = { precision: 4, threshold: 1000, edgeitems: 3, linewidth: 80, sci_mode: null };

const PROFILES = {
  default: { precision: 4, threshold: 1000, edgeitems: 3, linewidth: 80 },
  short: { precision: 2, threshold: 1000, edgeitems: 2, linewidth: 80 },
  full: { precision: 4, threshold: Infinity, edgeitems: 3, linewidth: 80 },
} as const;

/** torch.set_printoptions: a profile first, then the individual options on top of it. */
export function set_printoptions(opts: {
  precision?: number;
  threshold?: number;
  edgeitems?: number;
  linewidth?: number;
  profile?: "default" | "short" | "full";
  sci_mode?: boolean | null;
}): void {
  if (opts.profile !== undefined) Object.assign(PRINT_OPTS, PROFILES[opts.profile]);
  if (opts.precision !== undefined) PRINT_OPTS.precision = opts.precision;
  if (opts.threshold !== undefined) PRINT_OPTS.threshold = opts.threshold;
  if (opts.edgeitems !== undefined) PRINT_OPTS.edgeitems = opts.edgeitems;
  if (opts.linewidth !== undefined) PRINT_OPTS.linewidth = opts.linewidth;
  // As in PyTorch, sci_mode is always assigned: any call that leaves it out resets it to automatic.
  PRINT_OPTS.sci_mode = opts.sci_mode ?? null;
}

// ---------------------------------------------------------------------------------------
// A read-only view of the elements: the self[i], self[a:b] and tolist() the Python code uses
// ---------------------------------------------------------------------------------------

function isFloatingPoint(dtype: ReprDtype): boolean {
  return dtype === "float32" || dtype === "float64" || dtype === "float16" || dtype === "bfloat16";
}

class TensorView {
  private readonly strides: number[];

  constructor(
    private readonly input: ReprInput,
    readonly sizes: readonly number[],
    private readonly offset: number,
  ) {
    // Row-major (contiguous) strides over the logical flat index.
    this.strides = new Array<number>(sizes.length);
    let stride = 1;
    for (let d = sizes.length - 1; d >= 0; d--) {
      this.strides[d] = stride;
      stride *= sizes[d]!;
    }
  }

  get dtype(): ReprDtype {
    return this.input.dtype;
  }

  dim(): number {
    return this.sizes.length;
  }

  size(d: number): number {
    return this.sizes[d]!;
  }

  numel(): number {
    return this.sizes.reduce((a, b) => a * b, 1);
  }

  /** self[i] */
  select(i: number): TensorView {
    return new TensorView(this.input, this.sizes.slice(1), this.offset + i * this.strides[0]!);
  }

  /** self.item() of a 0-dim view. */
  item(): ReprScalar {
    return this.input.get(this.offset);
  }

  /** self[start:stop].tolist() of a 1-D view, with Python's slice rules (so self[-0:] is everything). */
  slice_tolist(start: number, stop?: number): ReprScalar[] {
    const n = this.size(0);
    const clamp = (i: number) => Math.min(Math.max(i < 0 ? i + n : i, 0), n);
    const out: ReprScalar[] = [];
    for (let i = clamp(start); i < clamp(stop ?? n); i++) out.push(this.input.get(this.offset + i));
    return out;
  }

  /** self.reshape(-1).tolist(): every element, in row-major order. */
  flat_tolist(): ReprScalar[] {
    const out: ReprScalar[] = [];
    for (let i = 0, n = this.numel(); i < n; i++) out.push(this.input.get(this.offset + i));
    return out;
  }
}

// ---------------------------------------------------------------------------------------
// _Formatter: choose int / scientific / fixed notation and one width for all elements
// ---------------------------------------------------------------------------------------

/** str(value) of a Python int or bool. */
function pyStr(value: ReprScalar): string {
  if (typeof value === "boolean") return value ? "True" : "False";
  return String(value);
}

export class _Formatter {
  readonly floating_dtype: boolean;
  int_mode = true;
  sci_mode = false;
  max_width = 1;

  /** `values` are the elements of the (summarized) tensor: widths come from what is shown. */
  constructor(values: readonly ReprScalar[], floating_dtype: boolean) {
    this.floating_dtype = floating_dtype;
    const { precision } = PRINT_OPTS;

    if (!this.floating_dtype) {
      for (const value of values) this.max_width = Math.max(this.max_width, pyStr(value).length);
    } else {
      // Only the finite, non-zero values choose the notation and the width (PyTorch's masked_select).
      const nonzero_finite_vals = (values as number[]).filter((v) => Number.isFinite(v) && v !== 0);

      if (nonzero_finite_vals.length === 0) {
        // no valid number, do nothing (note: the sci_mode option below is not applied either)
        return;
      }

      let nonzero_finite_min = Infinity;
      let nonzero_finite_max = 0;
      for (const value of nonzero_finite_vals) {
        nonzero_finite_min = Math.min(nonzero_finite_min, Math.abs(value));
        nonzero_finite_max = Math.max(nonzero_finite_max, Math.abs(value));
      }

      for (const value of nonzero_finite_vals) {
        if (value !== Math.ceil(value)) {
          this.int_mode = false;
          break;
        }
      }

      if (this.int_mode) {
        // Every value is an integer: print 'N.' (the dot says it is a float tensor), hence the + 1.
        if (nonzero_finite_max / nonzero_finite_min > 1000.0 || nonzero_finite_max > 1.0e8) {
          this.sci_mode = true;
          for (const value of nonzero_finite_vals) {
            this.max_width = Math.max(this.max_width, formatExponent(value, precision).length);
          }
        } else {
          for (const value of nonzero_finite_vals) {
            this.max_width = Math.max(this.max_width, formatFixed(value, 0).length + 1);
          }
        }
      } else {
        // Check if scientific representation should be used.
        if (nonzero_finite_max / nonzero_finite_min > 1000.0 || nonzero_finite_max > 1.0e8 || nonzero_finite_min < 1.0e-4) {
          this.sci_mode = true;
          for (const value of nonzero_finite_vals) {
            this.max_width = Math.max(this.max_width, formatExponent(value, precision).length);
          }
        } else {
          for (const value of nonzero_finite_vals) {
            this.max_width = Math.max(this.max_width, formatFixed(value, precision).length);
          }
        }
      }
    }

    // The option overrides the notation, but the width computed above stays.
    if (PRINT_OPTS.sci_mode !== null) this.sci_mode = PRINT_OPTS.sci_mode;
  }

  width(): number {
    return this.max_width;
  }

  format(value: ReprScalar): string {
    let ret: string;
    if (this.floating_dtype) {
      const v = value as number;
      if (this.sci_mode) {
        ret = formatExponent(v, PRINT_OPTS.precision);
      } else if (this.int_mode) {
        ret = formatFixed(v, 0);
        if (Number.isFinite(v)) ret += ".";
      } else {
        ret = formatFixed(v, PRINT_OPTS.precision);
      }
    } else {
      ret = pyStr(value);
    }
    // Right-align to the common width (a longer string, e.g. 'nan' in int_mode, is left as is).
    return " ".repeat(Math.max(0, this.max_width - ret.length)) + ret;
  }
}

// ---------------------------------------------------------------------------------------
// Laying out the elements
// ---------------------------------------------------------------------------------------

function _scalar_str(self: TensorView, formatter: _Formatter): string {
  return formatter.format(self.item());
}

/** One row: elements separated by ', ', wrapped so lines stay within linewidth. */
function _vector_str(self: TensorView, indent: number, summarize: boolean, formatter: _Formatter): string {
  // length includes spaces and comma between elements
  const element_length = formatter.width() + 2;
  const elements_per_line = Math.max(1, Math.floor((PRINT_OPTS.linewidth - indent) / element_length));

  const { edgeitems } = PRINT_OPTS;
  let data: string[];
  if (summarize && self.size(0) > 2 * edgeitems) {
    data = [
      ...self.slice_tolist(0, edgeitems).map((val) => formatter.format(val)),
      " ...",
      ...self.slice_tolist(-edgeitems).map((val) => formatter.format(val)),
    ];
  } else {
    data = self.slice_tolist(0).map((val) => formatter.format(val));
  }

  const lines: string[] = [];
  for (let i = 0; i < data.length; i += elements_per_line) {
    lines.push(data.slice(i, i + elements_per_line).join(", "));
  }
  return "[" + lines.join(",\n" + " ".repeat(indent + 1)) + "]";
}

/** Nested brackets: dim-1 blank-line-separated slices, each one indented one more column. */
function _tensor_str_with_formatter(self: TensorView, indent: number, summarize: boolean, formatter: _Formatter): string {
  const dim = self.dim();

  if (dim === 0) return _scalar_str(self, formatter);
  if (dim === 1) return _vector_str(self, indent, summarize, formatter);

  const { edgeitems } = PRINT_OPTS;
  const n = self.size(0);
  const sub = (i: number) => _tensor_str_with_formatter(self.select(i), indent + 1, summarize, formatter);
  let slices: string[];
  if (summarize && n > 2 * edgeitems) {
    slices = [...range(0, edgeitems).map(sub), "...", ...range(n - edgeitems, n).map(sub)];
  } else {
    slices = range(0, n).map(sub);
  }

  const tensor_str = slices.join("," + "\n".repeat(dim - 1) + " ".repeat(indent + 1));
  return "[" + tensor_str + "]";
}

function range(start: number, stop: number): number[] {
  const out: number[] = [];
  for (let i = start; i < stop; i++) out.push(i);
  return out;
}

/** The elements a summarized print will show: edgeitems at each end of every dimension. */
function get_summarized_data(self: TensorView): ReprScalar[] {
  const dim = self.dim();
  const { edgeitems } = PRINT_OPTS;
  if (dim === 0) return [self.item()];
  if (dim === 1) {
    // torch.cat((self[:edgeitems], self[-edgeitems:]))
    if (self.size(0) > 2 * edgeitems) return [...self.slice_tolist(0, edgeitems), ...self.slice_tolist(-edgeitems)];
    return self.slice_tolist(0);
  }
  const n = self.size(0);
  const rows = n > 2 * edgeitems ? [...range(0, edgeitems), ...range(n - edgeitems, n)] : range(0, n);
  // PyTorch stacks the rows with torch.stack, which refuses an empty list (edgeitems=0).
  if (rows.length === 0) throw new Error("stack expects a non-empty TensorList");
  return rows.flatMap((i) => get_summarized_data(self.select(i)));
}

/** The bracketed body of the repr; `indent` is the column the opening '[' sits at. */
function _tensor_str(self: TensorView, indent: number): string {
  if (self.numel() === 0) return "[]";

  const summarize = self.numel() > PRINT_OPTS.threshold;

  // PyTorch converts float16/bfloat16 to float32 here (self.float()); ReprInput.get
  // already returns the widened values, which are exactly the same numbers.

  const formatter = new _Formatter(summarize ? get_summarized_data(self) : self.flat_tolist(), isFloatingPoint(self.dtype));
  return _tensor_str_with_formatter(self, indent, summarize, formatter);
}

/** Append ', key=value' suffixes, starting a new line (aligned under the '[') when one would pass linewidth. */
function _add_suffixes(tensor_str: string, suffixes: readonly string[], indent: number, force_newline: boolean): string {
  const tensor_strs = [tensor_str];
  // (sic) PyTorch's arithmetic: rfind returns -1 without a newline, and the +1 is in the original.
  let last_line_len = tensor_str.length - tensor_str.lastIndexOf("\n") + 1;
  for (const suffix of suffixes) {
    const suffix_len = suffix.length;
    if (force_newline || last_line_len + suffix_len + 2 > PRINT_OPTS.linewidth) {
      tensor_strs.push(",\n" + " ".repeat(indent) + suffix);
      last_line_len = indent + suffix_len;
      force_newline = false;
    } else {
      tensor_strs.push(", " + suffix);
      last_line_len += suffix_len + 2;
    }
  }
  tensor_strs.push(")");
  return tensor_strs.join("");
}

/** str(tuple(self.shape)): (3,) for one dimension, () for none. */
function shapeTuple(sizes: readonly number[]): string {
  return sizes.length === 1 ? `(${sizes[0]},)` : `(${sizes.join(", ")})`;
}

/** The whole repr: prefix, body and the device / size / dtype / grad suffixes. */
function _str_intern(inp: ReprInput, defaults: { defaultDtype: ReprDtype; defaultDevice?: string }): string {
  const prefix = "tensor(";
  const indent = prefix.length;
  const suffixes: string[] = [];
  const self = new TensorView(inp, inp.sizes, 0);

  // Note [Print tensor device]: print the device only when it is not the default one.
  const [deviceType, deviceIndex] = inp.device.split(":");
  const [defaultType, defaultIndex] = (defaults.defaultDevice ?? "cpu").split(":");
  if (
    deviceType !== defaultType ||
    (deviceType === "cuda" && Number(deviceIndex ?? 0) !== Number(defaultIndex ?? 0)) ||
    deviceType === "mps"
  ) {
    suffixes.push("device='" + inp.device + "'");
  }

  // int64 and bool are "default" too: torch.tensor([1]) and torch.tensor([True]) don't need a dtype.
  const has_default_dtype = inp.dtype === defaults.defaultDtype || inp.dtype === "int64" || inp.dtype === "bool";
  const dtypeSuffix = "dtype=torch." + inp.dtype;

  let tensor_str: string;
  if (inp.isMeta) {
    suffixes.push("size=" + shapeTuple(inp.sizes));
    if (inp.dtype !== defaults.defaultDtype) suffixes.push(dtypeSuffix);
    tensor_str = "...";
  } else if (self.numel() === 0) {
    // Explicitly print the shape if it is not (0,), to match NumPy behavior
    if (self.dim() !== 1) suffixes.push("size=" + shapeTuple(inp.sizes));
    // In an empty tensor, there are no elements to infer if the dtype
    // should be int64, so it must be shown explicitly.
    if (inp.dtype !== defaults.defaultDtype) suffixes.push(dtypeSuffix);
    tensor_str = "[]";
  } else {
    if (!has_default_dtype) suffixes.push(dtypeSuffix);
    tensor_str = _tensor_str(self, indent);
  }

  if (inp.gradFnName !== undefined) suffixes.push(`grad_fn=<${inp.gradFnName}>`);
  else if (inp.requiresGrad) suffixes.push("requires_grad=True");

  return _add_suffixes(prefix + tensor_str, suffixes, indent, false);
}

/** repr(tensor) exactly as PyTorch 1.13 prints it (nn.Parameter.__repr__ included). */
export function tensorRepr(t: ReprInput, defaults: { defaultDtype: ReprDtype; defaultDevice?: string }): string {
  const string_repr = _str_intern(t, defaults);
  return t.isParameter ? "Parameter containing:\n" + string_repr : string_repr;
}
