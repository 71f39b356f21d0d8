// nll_loss (aten/src/ATen/native/LossNLL.cpp, LossNLL2d.cpp): the structured nll_loss_forward (1-D or
// 2-D input, 0-D or 1-D target), the CPU-only nll_loss2d_forward (N, C, H, W), and the composites
// nll_loss / nll_loss2d (their first output), nll_loss.out / nll_loss2d.out, and nll_loss_nd, which
// picks one by the input's rank and views any other rank as (N, C, 1, -1).

import { RuntimeError, ValueError } from "../../../c10/Errors.js";
import { ScalarType, scalarTypeName } from "../../../c10/ScalarType.js";
import { typedView, toRaw, offsetOf } from "../../../c10/ElementAccess.js";
import { Tensor } from "../../core/Tensor.js";
import { empty_impl, wrap } from "../../core/empty.js";
import { resize_output } from "../Resize.js";
import { typeMetaName } from "../binary/TypeMeta.js";
import type { StructuredMode } from "../unary/UnaryIterator.js";
import { AT_DISPATCH, FLOATING_TYPES_AND_BFLOAT16 } from "../unary/Dispatch.js";
import { nll_loss_forward_default, nll_loss_forward_output } from "../../../generated/nll_loss_forward.js";
import { nll_loss2d_forward_default, nll_loss2d_forward_output } from "../../../generated/nll_loss2d_forward.js";
import { nll_loss_default } from "../../../generated/nll_loss.js";
import { nll_loss2d_default } from "../../../generated/nll_loss2d.js";
import { contiguous_default } from "../../../generated/contiguous.js";
import { view_default } from "../../../generated/view.js";
import { empty_memory_format } from "../../../generated/empty.js";
import { cascadeSum, outOfBounds } from "./NLLKernel.js";
import { Reduction } from "./Reduction.js";
import { DispatchStub } from "../DispatchStub.js";

const list = (s: readonly number[]) => `[${s.join(", ")}]`;
type Pair = [Tensor, Tensor] & { output: Tensor; total_weight: Tensor };
const pair = (a: Tensor, b: Tensor): Pair => Object.assign([a, b] as [Tensor, Tensor], { output: a, total_weight: b });

/** Values of a tensor in row-major order (what .contiguous() lays out). */
const values = (t: Tensor): Float64Array => t._flatNumbers();

function writeScalar(t: Tensor, v: number): void {
  const view = typedView(t._impl.storage, t.dtype) as unknown as (number | bigint)[];
  view[t._impl.storage_offset()] = toRaw(t.dtype.scalarType, v);
}

/** optional_data<scalar_t>(weight) and target.data_ptr<int64_t>(): a dtype other than the kernel's fails. */
function expectDtype(t: Tensor, want: ScalarType): void {
  if (t.dtype.scalarType !== want) throw new RuntimeError(`expected scalar type ${scalarTypeName(want)} but found ${scalarTypeName(t.dtype.scalarType)}`);
}

/** A structured output: allocated (functional), or an out= tensor checked for dtype and resized. */
function structuredOut(self: Tensor, sizes: number[], out: Tensor | null): Tensor {
  if (out === null) return wrap(empty_impl(sizes, self.dtype, self.device));
  if (out.dtype !== self.dtype) throw new RuntimeError(`Expected out tensor to have dtype ${typeMetaName(self.dtype.scalarType)}, but got ${typeMetaName(out.dtype.scalarType)} instead`);
  resize_output(out, sizes);
  return out;
}

// ---- nll_loss_forward (structured) ----

export function nll_loss_forward_out_cpu(
  self: Tensor, target: Tensor, weight: Tensor | null, reduction: number, ignore_index: number,
  output: Tensor | null, total_weight: Tensor | null | StructuredMode, mode: StructuredMode = "out",
): Pair {
  if (typeof total_weight === "string") [mode, total_weight] = [total_weight, null];
  const functional = mode === "functional";
  // TORCH_META_FUNC(nll_loss_forward)
  if (!(self.dim() > 0 && self.dim() <= 2)) throw new RuntimeError("input tensor should be 1D or 2D");
  if (!(target.dim() <= 1)) throw new RuntimeError("0D or 1D target tensor expected, multi-target not supported");
  const noBatchDim = self.dim() === 1 && target.dim() === 0;
  if (!(noBatchDim || self.size(0) === target.size(0))) {
    throw new RuntimeError(`size mismatch (got input: ${list(self._impl.sizes())}, target: ${list(target._impl.sizes())})`);
  }
  const nClasses = self.size(-1);
  if (weight !== null && !(weight.dim() === 1 && weight.numel() === nClasses)) {
    throw new RuntimeError(`weight tensor should be defined either for all ${nClasses} classes or no classes but got weight tensor of shape: ${list(weight._impl.sizes())}`);
  }
  const perSample = reduction === Reduction.None && self.dim() === 2;
  const out = structuredOut(self, perSample ? [self.size(0)] : [], functional ? null : output);
  const tw = structuredOut(self, [], functional ? null : total_weight);
  if (!self._impl.storage.hasData()) return pair(out, tw);

  // nll_loss_forward_out_cpu_template
  const t = self.dtype.scalarType;
  AT_DISPATCH("nll_loss_out_frame", t, FLOATING_TYPES_AND_BFLOAT16);
  writeScalar(tw, 0);
  if (weight !== null) expectDtype(weight, t);
  if (target.dtype.scalarType !== ScalarType.Byte) expectDtype(target, ScalarType.Long);
  if (!perSample && target.numel() === 0) {
    writeScalar(out, reduction === Reduction.Mean ? NaN : 0);
    return pair(out, tw);
  }
  nll_loss_forward_stub.call(self.device.type, out, tw, self, target, weight, reduction, ignore_index, perSample);
  return pair(out, tw);
}

/**
 * nll_loss_out_frame's loop: per sample (reduction 'none' on a batch) -input[i][target[i]] * weight,
 * or the cascaded sum of those (and of the weights) for 'sum' / 'mean'. Targets outside [0, C) raise
 * "Target t is out of bounds." (ignore_index is skipped first).
 */
type NllForwardFn = (out: Tensor, tw: Tensor, self: Tensor, target: Tensor, weight: Tensor | null, reduction: number, ignore_index: number, perSample: boolean) => void;
export const nll_loss_forward_stub = new DispatchStub<NllForwardFn>("nll_loss_out_frame", "aten/src/ATen/native/LossNLL.cpp");
nll_loss_forward_stub.register("ts", (out, tw, self, target, weight, reduction, ignore_index, perSample) => {
  const nClasses = self.size(-1);
  const w = weight === null ? null : values(weight);
  const x = values(self), tg = values(target);
  if (perSample) {
    const results = new Float64Array(self.size(0));
    for (let i = 0; i < results.length; i++) {
      const cur = tg[i];
      if (cur === ignore_index) continue;
      if (!(cur >= 0 && cur < nClasses)) throw outOfBounds(cur);
      results[i] = -x[i * nClasses + cur] * (w ? w[cur] : 1);
    }
    results.forEach((v, i) => writeAt(out, i, v));
    return;
  }
  const batch = self.dim() === 1 ? 1 : self.size(0);
  const r = cascadeSum(batch, nClasses, ignore_index, w, self.dtype.scalarType, reduction, (b) => ({ target: tg[b], value: () => x[b * nClasses + tg[b]] }));
  writeScalar(out, r.output);
  writeScalar(tw, r.totalWeight);
});

function writeAt(t: Tensor, i: number, v: number): void {
  const view = typedView(t._impl.storage, t.dtype) as unknown as (number | bigint)[];
  view[offsetOf(t._impl, i)] = toRaw(t.dtype.scalarType, v);
}

// ---- nll_loss2d_forward (CPU only) ----

function check_inputs_nll_loss2d(input: Tensor, target: Tensor, weight: Tensor | null): void {
  if (target.dim() !== 3) throw new RuntimeError(`only batches of spatial targets supported (3D tensors) but got targets of dimension: ${target.dim()}`);
  if (input.dim() !== 4) throw new RuntimeError(`only batches of spatial inputs supported (4D tensors), but got input of dimension: ${input.dim()}`);
  if (weight !== null && weight.numel() !== input.size(1)) throw new RuntimeError("weight tensor should be defined either for all or no classes");
  const [i0, , i2, i3] = input._impl.sizes(), [t0, t1, t2] = target._impl.sizes();
  if (!(i0 === t0 && i2 === t1 && i3 === t2)) {
    throw new RuntimeError(`size mismatch (got input: ${list(input._impl.sizes())} , target: ${list(target._impl.sizes())}`);
  }
}

export function nll_loss2d_forward_out_cpu(self: Tensor, target: Tensor, weight: Tensor | null, reduction: number, ignore_index: number, output: Tensor, total_weight: Tensor): Pair {
  check_inputs_nll_loss2d(self, target, weight);
  resize_output(total_weight, []);
  const t = self.dtype.scalarType;
  AT_DISPATCH("nll_loss2d_forward_out_frame", t, FLOATING_TYPES_AND_BFLOAT16);
  const [N, C, H, W] = self._impl.sizes();
  writeScalar(total_weight, 0);
  if (weight !== null) expectDtype(weight, t);
  const w = weight === null ? null : values(weight);
  expectDtype(target, ScalarType.Long);
  const x = values(self), tg = values(target);
  if (reduction === Reduction.None) {
    resize_output(output, [N, H, W]);
    for (let i = 0; i < N * H * W; i++) {
      const cur = tg[i];
      if (cur === ignore_index) {
        writeAt(output, i, 0);
        continue;
      }
      if (!(cur >= 0 && cur < C)) throw outOfBounds(cur);
      const b = Math.floor(i / (H * W)), hw = i % (H * W);
      writeAt(output, i, -x[b * C * H * W + cur * H * W + hw] * (w ? w[cur] : 1));
    }
    return pair(output, total_weight);
  }
  resize_output(output, []);
  const mapNelem = H * W;
  const r = cascadeSum(N * mapNelem, C, ignore_index, w, t, reduction, (i) => {
    const b = Math.floor(i / mapNelem), elem = i % mapNelem;
    return { target: tg[i], value: () => x[b * C * mapNelem + tg[i] * mapNelem + elem] };
  });
  writeScalar(total_weight, r.totalWeight);
  writeScalar(output, r.output);
  return pair(output, total_weight);
}

/** nll_loss2d_forward_cpu: the out= kernel into two empty tensors. */
export function nll_loss2d_forward_cpu(self: Tensor, target: Tensor, weight: Tensor | null, reduction: number, ignore_index: number): Pair {
  const output = wrap(empty_impl([0], self.dtype, self.device)), total_weight = wrap(empty_impl([0], self.dtype, self.device));
  return nll_loss2d_forward_out_cpu(self, target, weight, reduction, ignore_index, output, total_weight);
}

// ---- the composites ----

/** nll_loss: std::get<0>(at::nll_loss_forward(...)). */
export const nll_loss = (self: Tensor, target: Tensor, weight: Tensor | null, reduction: number, ignore_index: number): Tensor =>
  (nll_loss_forward_default.call(self, target, weight, reduction, ignore_index) as Pair)[0];

export const nll_loss2d = (self: Tensor, target: Tensor, weight: Tensor | null, reduction: number, ignore_index: number): Tensor =>
  (nll_loss2d_forward_default.call(self, target, weight, reduction, ignore_index) as Pair)[0];

/** nll_loss.out: nll_loss_forward_out into `out` and a scratch total_weight (at::empty({0})). */
export function nll_loss_out(self: Tensor, target: Tensor, weight: Tensor | null, reduction: number, ignore_index: number, out: Tensor): Tensor {
  const total_weight = empty_memory_format.call([0], self.dtype, null, self.device, null, null) as Tensor;
  return (nll_loss_forward_output.call(self, target, weight, reduction, ignore_index, out, total_weight) as Pair)[0];
}

export function nll_loss2d_out(self: Tensor, target: Tensor, weight: Tensor | null, reduction: number, ignore_index: number, out: Tensor): Tensor {
  const total_weight = empty_memory_format.call([0], self.dtype, null, self.device, null, null) as Tensor;
  return (nll_loss2d_forward_output.call(self, target, weight, reduction, ignore_index, out, total_weight) as Pair)[0];
}

/** nll_loss_nd: 1-D/2-D input to nll_loss, 4-D to nll_loss2d, any other rank viewed as (N, C, 1, -1) for nll_loss2d. */
export function nll_loss_nd(self: Tensor, target: Tensor, weight: Tensor | null, reduction: number, ignore_index: number): Tensor {
  if (self.dim() < 1) throw new ValueError(`Expected 1 or more dimensions (got ${self.dim()})`);
  const sizes = self._impl.sizes(), tsizes = target._impl.sizes();
  if (self.dim() !== 1 && sizes[0] !== tsizes[0]) {
    throw new ValueError(`Expected input batch_size (${sizes[0]}) to match target batch_size (${tsizes[0]}).`);
  }
  if (self.dim() === 1 || self.dim() === 2) return nll_loss_default.call(self, target, weight, reduction, ignore_index) as Tensor;
  if (self.dim() === 4) return nll_loss2d_default.call(self, target, weight, reduction, ignore_index) as Tensor;
  const [n, c] = sizes;
  const outSize = [n, ...sizes.slice(2)];
  if (list(tsizes.slice(1)) !== list(sizes.slice(2))) throw new RuntimeError(`Expected target size ${list(outSize)}, got ${list(tsizes)}`);
  // Tensor::contiguous() dispatches only for a tensor that is not contiguous already
  const contiguous = (t: Tensor) => (t.is_contiguous() ? t : (contiguous_default.call(t, "contiguous_format") as Tensor));
  let input = contiguous(self);
  let tgt = contiguous(target);
  input = view_default.call(input, input.numel() > 0 ? [n, c, 1, -1] : [n, c, 0, 0]) as Tensor;
  tgt = view_default.call(tgt, tgt.numel() > 0 ? [n, 1, -1] : [n, 0, 0]) as Tensor;
  const ret = nll_loss2d_default.call(input, tgt, weight, reduction, ignore_index) as Tensor;
  return reduction !== Reduction.None ? ret : (view_default.call(ret, outSize) as Tensor);
}

