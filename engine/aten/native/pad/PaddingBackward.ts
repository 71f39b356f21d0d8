// The backward ops of reflection_pad{1,2,3}d and replication_pad{1,2,3}d (ReflectionPad.cpp,
// ReplicationPadding.cpp): grad_input has the input's sizes, starts at zero, and every grad_output element
// is added into the input element the forward read it from (the forward's index map), in output order, one
// rounding per add. reflection_pad2d_backward, replication_pad2d_backward and replication_pad3d_backward are
// unstructured in 1.13 (CPU only: no Meta kernel there either); the others are structured (CPU and Meta).
// The checks and their texts are 1.13's (replication_pad3d_backward checks no grad_output size).

import { RuntimeError, IndexError } from "../../../c10/Errors.js";
import { ScalarType, scalarTypeName } from "../../../c10/ScalarType.js";
import type { Tensor } from "../../core/Tensor.js";
import { empty_impl, wrap } from "../../core/empty.js";
import { resize_output } from "../Resize.js";
import { DispatchStub } from "../DispatchStub.js";
import { hasData, readDense, writeDense } from "../conv/Dense.js";
import { contig } from "../conv/Convolution.js";
import { roundTo, type StructuredMode } from "../reduce/ReduceUtils.js";
import { typeMetaName } from "../binary/TypeMeta.js";

const { Double, Float, BFloat16 } = ScalarType;
const list = (xs: readonly number[]): string => `[${xs.join(", ")}]`;

function size(t: Tensor, d: number): number {
  const n = t.dim();
  if (d >= n || d < -n) throw new IndexError(`Dimension out of range (expected to be in range of [${-Math.max(n, 1)}, ${Math.max(n, 1) - 1}], but got ${d})`);
  return t._impl.sizes()[d < 0 ? d + n : d];
}

/** grad_input[map(o)] += grad_output[o] over the last k = pads.length / 2 dims (width last). */
type PadBackwardKernel = (gradInput: Tensor, gradOutput: Tensor, pads: readonly number[], reflect: boolean) => void;
export const pad_backward_stub = new DispatchStub<PadBackwardKernel>("reflection_pad / replication_pad backward", "aten/src/ATen/native/ReflectionPad.cpp");
pad_backward_stub.register("ts", (gi, go, pads, reflect) => {
  const g = readDense(go);
  const inSizes = gi._impl.sizes(), outSizes = go._impl.sizes();
  const nd = inSizes.length, k = pads.length / 2;
  const inStrides: number[] = [];
  let acc = 1;
  for (let d = nd - 1; d >= 0; d--) { inStrides[d] = acc; acc *= inSizes[d]; }
  const map = (o: number, padL: number, n: number): number => {
    const u = o - padL;
    if (reflect) return u < 0 ? -u : u > n - 1 ? 2 * (n - 1) - u : u;
    return Math.min(Math.max(u, 0), n - 1);
  };
  const out = new Float64Array(gi.numel());
  const idx = new Array<number>(nd).fill(0);
  for (let o = 0; o < g.length; o++) {
    let rem = o;
    for (let d = nd - 1; d >= 0; d--) { idx[d] = rem % outSizes[d]; rem = Math.floor(rem / outSizes[d]); }
    let lin = 0;
    for (let d = 0; d < nd; d++) {
      const s = nd - 1 - d;
      lin += (s < k ? map(idx[d], pads[2 * s], inSizes[d]) : idx[d]) * inStrides[d];
    }
    out[lin] = roundTo(gi.dtype, out[lin] + g[o]);
  }
  writeDense(gi, out);
});

function dispatch(name: string, t: Tensor, types: readonly ScalarType[]): void {
  const st = t.dtype.scalarType;
  if (!types.includes(st)) throw new RuntimeError(`"${name}" not implemented for '${scalarTypeName(st)}'`);
}

/** The gradient (set_output_raw_strided(input.sizes()) for the structured ops, zeros_like(input) otherwise). */
function output(input: Tensor, out: Tensor | null, mode: StructuredMode): Tensor {
  if (mode === "out" && out !== null) {
    if (out.dtype !== input.dtype) throw new RuntimeError(`Expected out tensor to have dtype ${typeMetaName(input.dtype.scalarType)}, but got ${typeMetaName(out.dtype.scalarType)} instead`);
    resize_output(out, input._impl.sizes());
    return out;
  }
  return wrap(empty_impl([...input._impl.sizes()], input.dtype, input.device));
}

function run(gi: Tensor, go: Tensor, pads: readonly number[], reflect: boolean, name: string, types: readonly ScalarType[]): Tensor {
  if (!hasData(gi)) return gi;
  dispatch(name, go, types);
  if (go.dtype !== gi.dtype) throw new RuntimeError(`expected scalar type ${scalarTypeName(gi.dtype.scalarType)} but found ${scalarTypeName(go.dtype.scalarType)}`);
  if (gi.numel() > 0) pad_backward_stub.call(gi.device.type, gi, contig(go), pads, reflect);
  else writeDense(gi, []);
  return gi;
}

const expectSize = (what: string, expected: number, got: number, comma = ","): void => {
  if (expected !== got) throw new RuntimeError(`${what} unexpected. Expected: ${expected}${comma} Got: ${got}`);
};

// ---- reflection ----

export function reflection_pad1d_backward_out_cpu(gradOutput: Tensor, input: Tensor, padding: readonly number[], gradInput: Tensor | null, mode: StructuredMode = "out"): Tensor {
  const dimW = input.dim() === 3 ? 2 : 1;
  const [l, r] = padding;
  const w = size(input, dimW);
  if (!(l < w && r < w)) {
    throw new RuntimeError(`Argument #4: Padding size should be less than the corresponding input dimension, but got: padding (${l}, ${r}) at dimension ${dimW} of input ${list(input._impl.sizes())}`);
  }
  expectSize("grad_output width", w + l + r, size(gradOutput, dimW));
  return run(output(input, gradInput, mode), gradOutput, [l, r], true, "reflection_pad1d_backward_cpu", [Double, Float]);
}

function reflectionPad2dBackward(gradOutput: Tensor, input: Tensor, padding: readonly number[], gradInput: Tensor | null): Tensor {
  const [dimW, dimH] = input.dim() === 4 ? [3, 2] : [2, 1];
  const [l, r, t, b] = padding;
  expectSize("gradOutput width", size(input, dimW) + l + r, size(gradOutput, dimW));
  expectSize("gradOutput height", size(input, dimH) + t + b, size(gradOutput, dimH));
  const gi = gradInput === null ? output(input, null, "functional") : output(input, gradInput, "out");
  return run(gi, gradOutput, padding, true, "reflection_pad2d_backward", [Double, Float]);
}
export const reflection_pad2d_backward_cpu = (gradOutput: Tensor, input: Tensor, padding: readonly number[]): Tensor => reflectionPad2dBackward(gradOutput, input, padding, null);
export const reflection_pad2d_backward_out_cpu = (gradOutput: Tensor, input: Tensor, padding: readonly number[], gradInput: Tensor): Tensor => reflectionPad2dBackward(gradOutput, input, padding, gradInput);

export function reflection_pad3d_backward_out_cpu(gradOutput: Tensor, input: Tensor, padding: readonly number[], gradInput: Tensor | null, mode: StructuredMode = "out"): Tensor {
  if (padding.length !== 6) throw new RuntimeError("padding size is expected to be 6");
  if (!(input.dim() > 3)) throw new RuntimeError("Expected input.dim() > 3 to be true, but got false.  (Could this error message be improved?  If so, please report an enhancement request to PyTorch.)");
  if (gradOutput.dim() !== input.dim()) throw new RuntimeError("Expected grad_output.dim() == input.dim() to be true, but got false.  (Could this error message be improved?  If so, please report an enhancement request to PyTorch.)");
  const [dimW, dimH, dimD] = input.dim() === 5 ? [4, 3, 2] : [3, 2, 1];
  const [l, r, t, b, f, k] = padding;
  expectSize("grad_output width", size(input, dimW) + l + r, size(gradOutput, dimW));
  expectSize("grad_output height", size(input, dimH) + t + b, size(gradOutput, dimH));
  expectSize("grad_output depth", size(input, dimD) + f + k, size(gradOutput, dimD));
  return run(output(input, gradInput, mode), gradOutput, padding, true, "reflection_pad3d_backward_cpu", [Double, Float, BFloat16]);
}

// ---- replication ----

export function replication_pad1d_backward_out_cpu(gradOutput: Tensor, input: Tensor, padding: readonly number[], gradInput: Tensor | null, mode: StructuredMode = "out"): Tensor {
  if (padding.length !== 2) throw new RuntimeError("padding size is expected to be 2");
  const dimW = input.dim() === 3 ? 2 : 1;
  const [l, r] = padding;
  expectSize("gradOutput width", size(input, dimW) + l + r, size(gradOutput, dimW), "");
  return run(output(input, gradInput, mode), gradOutput, padding, false, "replication_pad1d_backward_cpu", [Double, Float]);
}

function replicationPad2dBackward(gradOutput: Tensor, input: Tensor, padding: readonly number[], gradInput: Tensor | null): Tensor {
  if (padding.length !== 4) throw new RuntimeError("padding size is expected to be 4");
  const [dimW, dimH] = input.dim() === 4 ? [3, 2] : [2, 1];
  const [l, r, t, b] = padding;
  expectSize("gradOutput width", size(input, dimW) + l + r, size(gradOutput, dimW));
  expectSize("gradOutput height", size(input, dimH) + t + b, size(gradOutput, dimH));
  const gi = gradInput === null ? output(input, null, "functional") : output(input, gradInput, "out");
  return run(gi, gradOutput, padding, false, "replication_pad2d_backward_cpu", [Double, Float]);
}
export const replication_pad2d_backward_cpu = (gradOutput: Tensor, input: Tensor, padding: readonly number[]): Tensor => replicationPad2dBackward(gradOutput, input, padding, null);
export const replication_pad2d_backward_out_cpu = (gradOutput: Tensor, input: Tensor, padding: readonly number[], gradInput: Tensor): Tensor => replicationPad2dBackward(gradOutput, input, padding, gradInput);

function replicationPad3dBackward(gradOutput: Tensor, input: Tensor, padding: readonly number[], gradInput: Tensor | null): Tensor {
  if (padding.length !== 6) throw new RuntimeError("padding size is expected to be 6");
  // 1.13 checks no grad_output size here (shapeCheck3d looks at the input only)
  const gi = gradInput === null ? output(input, null, "functional") : output(input, gradInput, "out");
  return run(gi, gradOutput, padding, false, "replication_pad3d_backward_cpu", [Double, Float]);
}
export const replication_pad3d_backward_cpu = (gradOutput: Tensor, input: Tensor, padding: readonly number[]): Tensor => replicationPad3dBackward(gradOutput, input, padding, null);
export const replication_pad3d_backward_out_cpu = (gradOutput: Tensor, input: Tensor, padding: readonly number[], gradInput: Tensor): Tensor => replicationPad3dBackward(gradOutput, input, padding, gradInput);
