// softmax and log_softmax (aten/src/ATen/native/SoftMax.cpp): the structured _softmax/_log_softmax
// (meta: a contiguous result of self's sizes, float when half_to_float; the CPU impl refuses
// half_to_float and runs the last-dim or the inner-dim kernel on self.contiguous()), and the
// softmax.int / log_softmax.int composites that first convert to `dtype`.

import { RuntimeError } from "../../../c10/Errors.js";
import { maybe_wrap_dim } from "../../../c10/WrapDimMinimal.js";
import { contiguousStrides } from "../../../c10/Contiguity.js";
import { float16, float32, scalarTypeName, type dtype } from "../../../c10/ScalarType.js";
import type { Tensor } from "../../core/Tensor.js";
import { empty_strided_impl, wrap } from "../../core/empty.js";
import type { DispatchStub } from "../DispatchStub.js";
import { resize_output } from "../Resize.js";
import { typeMetaName } from "../binary/TypeMeta.js";
import type { StructuredMode } from "../unary/UnaryIterator.js";
import { below_ADInplaceOrView } from "../unary/Nested.js";
import { to_dtype_layout } from "../../../generated/to.js";
import { empty_memory_format } from "../../../generated/empty.js";
import { copy__default } from "../../../generated/copy.js";
import { _softmax_default, _softmax_out } from "../../../generated/_softmax.js";
import { _log_softmax_default, _log_softmax_out } from "../../../generated/_log_softmax.js";
import * as K from "./SoftMaxKernel.js";

type Kernel = DispatchStub<(a: K.SoftmaxArgs) => void>;

/** TORCH_META_FUNC(_softmax) / (_log_softmax): the output, allocated or checked and resized. */
function softmaxMeta(input: Tensor, dim: number, half_to_float: boolean, out: Tensor | null, mode: StructuredMode): Tensor {
  const ndim = input.dim();
  const d = maybe_wrap_dim(dim, ndim);
  if (!(d >= 0 && d < Math.max(ndim, 1))) throw new RuntimeError("dim must be non-negative and less than input dimensions");
  const dt: dtype = half_to_float ? float32 : input.dtype;
  const sizes = [...input._impl.sizes()];
  // uninitialized: the kernels write every element (an empty input allocates nothing)
  if (mode === "functional" || out === null) return wrap(empty_strided_impl(sizes, contiguousStrides(sizes), dt, input.device, true));
  if (out.dtype !== dt) throw new RuntimeError(`Expected out tensor to have dtype ${typeMetaName(dt.scalarType)}, but got ${typeMetaName(out.dtype.scalarType)} instead`);
  resize_output(out, sizes);
  return out;
}

function softmaxImpl(input: Tensor, dim: number, half_to_float: boolean, out: Tensor | null, mode: StructuredMode, log: boolean): Tensor {
  const output = softmaxMeta(input, dim, half_to_float, out, mode);
  if (!output._impl.storage.hasData()) return output;
  if (half_to_float) throw new RuntimeError("softmax with half to float conversion is not supported on CPU"); // log_softmax's text too
  if (input.numel() === 0) return output;
  const sizes = input.dim() === 0 ? [1] : [...input._impl.sizes()]; // a 0-dim input is viewed as (1)
  const d = maybe_wrap_dim(dim, sizes.length);
  const last = d === sizes.length - 1;
  const kernel: Kernel = log ? (last ? K.log_softmax_lastdim_kernel : K.log_softmax_kernel) : last ? K.softmax_lastdim_kernel : K.softmax_kernel;
  const outer = sizes.slice(0, d).reduce((a, b) => a * b, 1);
  const inner = sizes.slice(d + 1).reduce((a, b) => a * b, 1);
  kernel.call(input.device.type, { input, output, dtype: input.dtype.scalarType, outer, dimSize: sizes[d], inner });
  return output;
}

export function softmax_cpu_out(input: Tensor, dim: number, half_to_float: boolean, out: Tensor | null, mode: StructuredMode = "out"): Tensor {
  return softmaxImpl(input, dim, half_to_float, out, mode, false);
}

export function log_softmax_cpu_out(input: Tensor, dim: number, half_to_float: boolean, out: Tensor | null, mode: StructuredMode = "out"): Tensor {
  return softmaxImpl(input, dim, half_to_float, out, mode, true);
}

/** input_.toType(dtype) when a dtype is given (Tensor::toType is to(options().dtype(t))). */
const converted = (input: Tensor, dt: dtype | null): Tensor =>
  dt === null ? input : (to_dtype_layout.call(input, dt, null, null, null, false, false, null) as Tensor);

/** softmax.int (CompositeImplicitAutograd): at::_softmax(input.toType(dtype), dim, false). */
export function softmax(input: Tensor, dim: number, dt: dtype | null): Tensor {
  return _softmax_default.call(converted(input, dt), dim, false) as Tensor;
}

export function log_softmax(input: Tensor, dim: number, dt: dtype | null): Tensor {
  return _log_softmax_default.call(converted(input, dt), dim, false) as Tensor;
}

/**
 * softmax_out (CompositeExplicitAutograd): _softmax_out into `out`, or into a fresh tensor copied
 * into a non-contiguous `out`.
 */
function softmaxOutComposite(input: Tensor, dim: number, dt: dtype | null, out: Tensor, op: typeof _softmax_out): Tensor {
  return below_ADInplaceOrView(() => {
    const c = converted(input, dt);
    if (out.is_contiguous()) {
      op.call(c, dim, false, out);
      return out;
    }
    const temp = empty_memory_format.call([...out._impl.sizes()], out.dtype, null, out.device, null, null) as Tensor;
    op.call(c, dim, false, temp);
    resize_output(out, [...temp._impl.sizes()]);
    copy__default.call(out, temp, false);
    return out;
  });
}

export const softmax_out = (input: Tensor, dim: number, dt: dtype | null, out: Tensor): Tensor => softmaxOutComposite(input, dim, dt, out, _softmax_out);
export const log_softmax_out = (input: Tensor, dim: number, dt: dtype | null, out: Tensor): Tensor => softmaxOutComposite(input, dim, dt, out, _log_softmax_out);

// ---- _softmax_backward_data, _log_softmax_backward_data (structured) ----

/**
 * TORCH_META_FUNC(_softmax_backward_data) / (_log_softmax_backward_data): grad_input has grad's sizes,
 * contiguous, grad's dtype (Half only for a float grad of a half input, a CUDA case); softmax checks
 * that grad and output have the same size.
 */
function softmaxBackwardMeta(
  grad: Tensor, output: Tensor, dim: number, input_dtype: dtype, out: Tensor | null, mode: StructuredMode, log: boolean,
): Tensor {
  if (!log) {
    const gs = [...grad._impl.sizes()], os = [...output._impl.sizes()];
    if (gs.length !== os.length || gs.some((v, i) => v !== os[i])) {
      throw new RuntimeError(
        `Expected tensor for argument #1 'grad' to have same size as tensor for argument #2 'output'; but [${gs.join(", ")}] does not equal [${os.join(", ")}] (while checking arguments for softmax_backward)`,
      );
    }
  }
  const d = maybe_wrap_dim(dim, grad.dim());
  let dt: dtype = grad.dtype;
  if (grad.dtype !== input_dtype && grad.dtype === float32 && input_dtype === float16) dt = float16;
  if (!(d >= 0 && d < Math.max(grad.dim(), 1))) throw new RuntimeError("dim must be non-negative and less than input dimensions");
  const sizes = [...grad._impl.sizes()];
  // uninitialized: the kernels write every element of grad_input
  if (mode === "functional" || out === null) return wrap(empty_strided_impl(sizes, contiguousStrides(sizes), dt, grad.device, true));
  if (out.dtype !== dt) throw new RuntimeError(`Expected out tensor to have dtype ${typeMetaName(dt.scalarType)}, but got ${typeMetaName(out.dtype.scalarType)} instead`);
  resize_output(out, sizes);
  return out;
}

/** The impl: grad and output made contiguous (0-dim viewed as (1)), then the last-dim or the inner-dim kernel. */
function softmaxBackwardImpl(grad: Tensor, output: Tensor, dim: number, input_dtype: dtype, out: Tensor | null, mode: StructuredMode, log: boolean): Tensor {
  const grad_input = softmaxBackwardMeta(grad, output, dim, input_dtype, out, mode, log);
  if (!grad_input._impl.storage.hasData() || output.numel() === 0) return grad_input;
  // the kernel reads output (and writes grad_input) as grad's scalar_t: TensorBase::data_ptr<scalar_t>'s check
  for (const t of [output, grad_input]) {
    if (t.dtype !== grad.dtype) throw new RuntimeError(`expected scalar type ${scalarTypeName(grad.dtype.scalarType)} but found ${scalarTypeName(t.dtype.scalarType)}`);
  }
  const sizes = grad.dim() === 0 ? [1] : [...grad._impl.sizes()];
  const d = maybe_wrap_dim(dim, sizes.length);
  const last = d === sizes.length - 1;
  const kernel = log ? (last ? K.log_softmax_backward_lastdim_kernel : K.log_softmax_backward_kernel) : last ? K.softmax_backward_lastdim_kernel : K.softmax_backward_kernel;
  const outer = sizes.slice(0, d).reduce((a, b) => a * b, 1);
  const inner = sizes.slice(d + 1).reduce((a, b) => a * b, 1);
  kernel.call(grad.device.type, { grad, output, gradInput: grad_input, dtype: grad.dtype.scalarType, outer, dimSize: sizes[d], inner });
  return grad_input;
}

export function softmax_backward_cpu_out(grad: Tensor, output: Tensor, dim: number, input_dtype: dtype, out: Tensor | null, mode: StructuredMode = "out"): Tensor {
  return softmaxBackwardImpl(grad, output, dim, input_dtype, out, mode, false);
}

export function log_softmax_backward_cpu_out(grad: Tensor, output: Tensor, dim: number, input_dtype: dtype, out: Tensor | null, mode: StructuredMode = "out"): Tensor {
  return softmaxBackwardImpl(grad, output, dim, input_dtype, out, mode, true);
}
