// reflection_pad{1,2,3}d and replication_pad{1,2,3}d (aten/src/ATen/native/ReflectionPad.cpp,
// ReplicationPadding.cpp). Each output element reads the input element its index maps to, per spatial
// dim (width last): reflection mirrors around the edges without repeating them (index -1 reads 1),
// replication clamps to the edge. Negative pads crop. The checks (with their argument numbers and
// spacing) are PyTorch 1.13's; reflection_pad2d is the one unstructured op (its own out= kernel).
// float32 and float64 only, as PyTorch 1.13's CPU kernels.

import { RuntimeError, IndexError } from "../../../c10/Errors.js";
import { ScalarType, scalarTypeName } from "../../../c10/ScalarType.js";
import type { Tensor } from "../../core/Tensor.js";
import { empty_impl, wrap } from "../../core/empty.js";
import { resize_output } from "../Resize.js";
import { DispatchStub } from "../DispatchStub.js";
import { gather, writeAll, type StructuredMode } from "../reduce/ReduceUtils.js";
import { cppTensorString } from "./CppPrint.js";
import { typeMetaName } from "../binary/TypeMeta.js";

const list = (xs: readonly number[]): string => `[${xs.join(", ")}]`;

/** input.size(d) as C++ reads it: an out-of-range dim raises IndexError. */
function size(t: Tensor, d: number): number {
  const n = t.dim();
  if (d >= n) throw new IndexError(`Dimension out of range (expected to be in range of [${-Math.max(n, 1)}, ${Math.max(n, 1) - 1}], but got ${d})`);
  return t._impl.sizes()[d];
}

/** The row-major output, each element read from input at the mapped index (per spatial dim). */
type PadKernel = (out: Tensor, input: Tensor, pads: readonly number[], reflect: boolean) => void;
export const pad_stub = new DispatchStub<PadKernel>("reflection_pad / replication_pad", "aten/src/ATen/native/ReflectionPad.cpp");
pad_stub.register("ts", (out, input, pads, reflect) => {
  const src = gather(input, new Array<boolean>(input.dim()).fill(false)); // every element its own group, row-major
  const inSizes = input._impl.sizes(), outSizes = out._impl.sizes();
  const nd = inSizes.length, k = pads.length / 2;
  const inStrides: number[] = [];
  let acc = 1;
  for (let d = nd - 1; d >= 0; d--) { inStrides[d] = acc; acc *= inSizes[d]; }
  const map = (o: number, padL: number, n: number): number => {
    const u = o - padL;
    if (reflect) return u < 0 ? -u : u > n - 1 ? 2 * (n - 1) - u : u;
    return Math.min(Math.max(u, 0), n - 1);
  };
  const total = outSizes.reduce((a, b) => a * b, 1);
  const vals = new Array(total);
  const idx = new Array<number>(nd).fill(0);
  for (let o = 0; o < total; o++) {
    let rem = o;
    for (let d = nd - 1; d >= 0; d--) { idx[d] = rem % outSizes[d]; rem = Math.floor(rem / outSizes[d]); }
    let lin = 0;
    for (let d = 0; d < nd; d++) {
      const s = nd - 1 - d; // spatial position from the last dim: 0 = width
      const i = s < k ? map(idx[d], pads[2 * s], inSizes[d]) : idx[d];
      lin += i * inStrides[d];
    }
    vals[o] = src[lin][0];
  }
  writeAll(out, vals);
});

function checkDtype(input: Tensor, kernel: string): void {
  const st = input.dtype.scalarType;
  if (st !== ScalarType.Float && st !== ScalarType.Double) throw new RuntimeError(`"${kernel}" not implemented for '${scalarTypeName(st)}'`);
}

/** The structured output (set_output_raw_strided): a fresh contiguous tensor, or out= checked and resized. */
function output(input: Tensor, shape: readonly number[], out: Tensor | null, mode: StructuredMode): Tensor {
  if (shape.some((s) => s < 0)) throw new RuntimeError(`Trying to create tensor with negative dimension ${shape.find((s) => s < 0)}: ${list(shape)}`);
  if (mode === "out" && out !== null) {
    if (out.dtype !== input.dtype) {
      throw new RuntimeError(`Expected out tensor to have dtype ${typeMetaName(input.dtype.scalarType)}, but got ${typeMetaName(out.dtype.scalarType)} instead`);
    }
    resize_output(out, shape);
    return out;
  }
  return wrap(empty_impl(shape, input.dtype, input.device));
}

/** The CPU kernel: float32/float64 only (checked on CPU; the Meta kernel takes any dtype). */
function run(input: Tensor, result: Tensor, pads: readonly number[], reflect: boolean, kernel: string): Tensor {
  if (!result._impl.storage.hasData()) return result;
  checkDtype(input, kernel);
  if (result.numel() > 0) pad_stub.call(input.device.type, result, input, pads, reflect);
  return result;
}

// ---- reflection ----

function tooBigCheck(arg: number, l: number, r: number, n: number, dim: number, shown: string): void {
  if (!(l < n && r < n)) {
    throw new RuntimeError(`Argument #${arg}: Padding size should be less than the corresponding input dimension, but got: padding (${l}, ${r}) at dimension ${dim} of input ${shown}`);
  }
}

export function reflection_pad1d_out_cpu(input: Tensor, padding: readonly number[], out: Tensor | null, mode: StructuredMode = "out"): Tensor {
  const nd = input.dim();
  if (!((nd === 2 && size(input, 1) !== 0) || (nd === 3 && size(input, 1) !== 0 && size(input, 2) !== 0))) {
    throw new RuntimeError(`2D or 3D (batch mode) tensor expected for input, but got: ${cppTensorString(input)}`);
  }
  const dimW = nd === 3 ? 2 : 1;
  const [l, r] = padding;
  const w = size(input, dimW), ow = w + l + r;
  tooBigCheck(4, l, r, w, dimW, list(input._impl.sizes()));
  if (!(ow >= 1)) throw new RuntimeError(`2input (W: ${w})is too small. Calculated output W: ${ow}`);
  const shape = [...input._impl.sizes()];
  shape[dimW] = ow;
  return run(input, output(input, shape, out, mode), [l, r], true, "reflection_pad1d");
}

/**
 * reflection_pad2d (unstructured, CPU): the out= kernel and the functional one share this template. Its
 * Meta kernel is PyTorch 1.13's Python meta_pad2d: the rank check (the tensor in Python's repr) and the
 * output shape, none of the padding checks.
 */
function reflectionPad2d(input: Tensor, padding: readonly number[], out: Tensor | null): Tensor {
  if (padding.length !== 4) throw new RuntimeError("padding size is expected to be 4");
  const validDims = size(input, 1) !== 0 && size(input, 2) !== 0;
  const nd = input.dim();
  const meta = !input._impl.storage.hasData();
  if (!((nd === 3 && validDims) || (nd === 4 && validDims && size(input, 3) !== 0))) {
    throw new RuntimeError(`3D or 4D (batch mode) tensor expected for input, but got: ${meta ? String(input) : cppTensorString(input)}`);
  }
  if (out !== null && out.dtype !== input.dtype) {
    throw new RuntimeError(`expected scalar type ${scalarTypeName(input.dtype.scalarType)} but found ${scalarTypeName(out.dtype.scalarType)}`);
  }
  if (meta) {
    const shape = [...input._impl.sizes()];
    shape[nd - 1] += padding[0] + padding[1];
    shape[nd - 2] += padding[2] + padding[3];
    return output(input, shape, null, "functional");
  }
  const [dimW, dimH] = nd === 4 ? [3, 2] : [2, 1];
  const [l, r, t, b] = padding;
  const w = size(input, dimW), h = size(input, dimH);
  const [ow, oh] = [w + l + r, h + t + b];
  tooBigCheck(4, l, r, w, dimW, String(nd));
  tooBigCheck(6, t, b, h, dimH, String(nd));
  if (!(ow >= 1 || oh >= 1)) throw new RuntimeError(`input (H: ${h}, W: ${w})is too small.  Calculated output H: ${oh} W: ${ow}`);
  if (ow < 0 || oh < 0) throw new RuntimeError("numel: integer multiplication overflow");
  const shape = [...input._impl.sizes()];
  [shape[dimW], shape[dimH]] = [ow, oh];
  return run(input, output(input, shape, out, out === null ? "functional" : "out"), [l, r, t, b], true, "reflection_pad2d");
}
export const reflection_pad2d_cpu = (input: Tensor, padding: readonly number[]): Tensor => reflectionPad2d(input, padding, null);
export const reflection_pad2d_out_cpu = (input: Tensor, padding: readonly number[], out: Tensor): Tensor => reflectionPad2d(input, padding, out);

export function reflection_pad3d_out_cpu(input: Tensor, padding: readonly number[], out: Tensor | null, mode: StructuredMode = "out"): Tensor {
  if (padding.length !== 6) throw new RuntimeError("padding size is expected to be 6");
  const validDims = size(input, 1) !== 0 && size(input, 2) !== 0 && size(input, 3) !== 0;
  const nd = input.dim();
  if (!((nd === 4 && size(input, 0) !== 0 && validDims) || (nd === 5 && validDims && size(input, 4) !== 0))) {
    throw new RuntimeError(`Expected 4D or 5D (batch mode) tensor with possibly 0 batch size and other non-zero dimensions for input, but got: ${list(input._impl.sizes())}`);
  }
  const [dimW, dimH, dimD] = nd === 5 ? [4, 3, 2] : [3, 2, 1];
  const [l, r, t, b, f, k] = padding;
  const w = size(input, dimW), h = size(input, dimH), d = size(input, dimD);
  const shown = list(input._impl.sizes());
  tooBigCheck(4, l, r, w, dimW, shown);
  tooBigCheck(6, t, b, h, dimH, shown);
  tooBigCheck(8, f, k, d, dimD, shown);
  const [ow, oh, od] = [w + l + r, h + t + b, d + f + k];
  if (!(ow >= 1 || oh >= 1 || od >= 1)) throw new RuntimeError(`input (D: ${d} H: ${h}, W: ${w}) is too small. Calculated output D: ${od} H: ${oh} W: ${ow}`);
  const shape = [...input._impl.sizes()];
  [shape[dimW], shape[dimH], shape[dimD]] = [ow, oh, od];
  return run(input, output(input, shape, out, mode), padding, true, "reflection_pad3d_cpu");
}

// ---- replication ----

export function replication_pad1d_out_cpu(input: Tensor, padding: readonly number[], out: Tensor | null, mode: StructuredMode = "out"): Tensor {
  if (padding.length !== 2) throw new RuntimeError("padding size is expected to be 2");
  const nd = input.dim();
  if (!((nd === 2 && size(input, 0) !== 0 && size(input, 1) !== 0) || (nd === 3 && size(input, 1) !== 0 && size(input, 2) !== 0))) {
    throw new RuntimeError(`Expected 2D or 3D (batch mode) tensor with possibly 0 batch size and other non-zero dimensions for input, but got: ${list(input._impl.sizes())}`);
  }
  const dimW = nd === 3 ? 2 : 1;
  const [l, r] = padding;
  const w = size(input, dimW), ow = w + l + r;
  if (!(ow >= 1)) throw new RuntimeError(`input (W: ${w}) is too small. Calculated output W: ${ow}`);
  const shape = [...input._impl.sizes()];
  shape[dimW] = ow;
  return run(input, output(input, shape, out, mode), padding, false, "replication_pad1d_cpu");
}

export function replication_pad2d_out_cpu(input: Tensor, padding: readonly number[], out: Tensor | null, mode: StructuredMode = "out"): Tensor {
  if (padding.length !== 4) throw new RuntimeError("padding size is expected to be 4");
  const validDims = size(input, 1) !== 0 && size(input, 2) !== 0;
  const nd = input.dim();
  if (!((nd === 3 && size(input, 0) !== 0 && validDims) || (nd === 4 && validDims && size(input, 3) !== 0))) {
    throw new RuntimeError(`Expected 3D or 4D (batch mode) tensor with possibly 0 batch size and other non-zero dimensions for input, but got: ${list(input._impl.sizes())}`);
  }
  const [dimW, dimH] = nd === 4 ? [3, 2] : [2, 1];
  const [l, r, t, b] = padding;
  const w = size(input, dimW), h = size(input, dimH);
  const [ow, oh] = [w + l + r, h + t + b];
  if (!(ow >= 1 || oh >= 1)) throw new RuntimeError(`input (H: ${h}, W: ${w} ) is too small. Calculated output H: ${oh} W: ${ow}`);
  const shape = [...input._impl.sizes()];
  [shape[dimW], shape[dimH]] = [ow, oh];
  return run(input, output(input, shape, out, mode), padding, false, "replication_pad2d_cpu");
}

export function replication_pad3d_out_cpu(input: Tensor, padding: readonly number[], out: Tensor | null, mode: StructuredMode = "out"): Tensor {
  if (padding.length !== 6) throw new RuntimeError("padding size is expected to be 6");
  const validDims = size(input, 1) !== 0 && size(input, 2) !== 0 && size(input, 3) !== 0;
  const nd = input.dim();
  if (!((nd === 4 && size(input, 0) !== 0 && validDims) || (nd === 5 && validDims && size(input, 4) !== 0))) {
    throw new RuntimeError(`Expected 4D or 5D (batch mode) tensor with possibly 0 batch size and other non-zero dimensions for input, but got: ${list(input._impl.sizes())}`);
  }
  const [dimW, dimH, dimD] = nd === 5 ? [4, 3, 2] : [3, 2, 1];
  const [l, r, t, b, f, k] = padding;
  const w = size(input, dimW), h = size(input, dimH), d = size(input, dimD);
  const [ow, oh, od] = [w + l + r, h + t + b, d + f + k];
  if (!(ow >= 1 || oh >= 1 || od >= 1)) throw new RuntimeError(`input (D: ${d} H: ${h}, W: ${w}) is too small. Calculated output D: ${od} H: ${oh} W: ${ow}`);
  const shape = [...input._impl.sizes()];
  [shape[dimW], shape[dimH], shape[dimD]] = [ow, oh, od];
  return run(input, output(input, shape, out, mode), padding, false, "replication_pad3d_cpu");
}
