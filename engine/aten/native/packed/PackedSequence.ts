// The ops under torch.nn.utils.rnn (aten/src/ATen/native/PackedSequence.cpp, PyTorch 1.13):
//   _pack_padded_sequence (CompositeExplicitAutograd): the padded (T, B, *) input -> (data, batch_sizes),
//     the steps of each length block sliced out and concatenated; batch_sizes a CPU int64 tensor.
//   _pack_padded_sequence_backward: the packed gradient copied back step by step into zeros of the
//     input's size (PackPaddedSequenceBackward0's formula).
//   _pad_packed_sequence: (data, batch_sizes) -> (padded (T, B, *) filled with padding_value, lengths).
//   pad_sequence: a list of (L_i, *) tensors -> (T, B, *) (or (B, T, *)) filled with padding_value.
// All run through the dispatcher op for op as PackedSequence.cpp does, so they serve any device whose
// ops exist (meta included) and the dispatch trace shows PyTorch's calls. batch_sizes and lengths are
// read without a dispatch, as C++ reads them through data_ptr<int64_t>().

import { RuntimeError } from "../../../c10/Errors.js";
import { ScalarType, scalarTypeName } from "../../../c10/ScalarType.js";
import type { Tensor, Scalar } from "../../core/Tensor.js";
import { empty_memory_format } from "../../../generated/empty.js";
import { full_default } from "../../../generated/full.js";
import { zeros_default } from "../../../generated/zeros.js";
import { slice_Tensor } from "../../../generated/slice.js";
import { select_int } from "../../../generated/select.js";
import { narrow_default } from "../../../generated/narrow.js";
import { view_default } from "../../../generated/view.js";
import { contiguous_default } from "../../../generated/contiguous.js";
import { copy__default } from "../../../generated/copy.js";
import { cat_default } from "../../../generated/cat.js";
import { transpose_int } from "../../../generated/transpose.js";
import { elements, indexValues } from "../index/common.js";

const slice = (t: Tensor, dim: number, start: number, end: number): Tensor => slice_Tensor.call(t, dim, start, end, 1) as Tensor;
const transpose01 = (t: Tensor): Tensor => transpose_int.call(t, 0, 1) as Tensor;
/** Tensor::contiguous(): the tensor itself when already contiguous (no dispatch), else aten::contiguous. */
const contiguous = (t: Tensor): Tensor => (t._impl.is_contiguous() ? t : (contiguous_default.call(t) as Tensor));

/** checkLongTensor: lengths / batch_sizes must be a 1-D CPU int64 tensor. */
function checkLongTensor(t: Tensor): void {
  if (!(t.dim() === 1 && t.device.type === "cpu" && t.dtype.scalarType === ScalarType.Long)) {
    throw new RuntimeError(
      `'lengths' argument should be a 1D CPU int64 tensor, but got ${t.dim()}D ${t.device.type} ${scalarTypeName(t.dtype.scalarType)} tensor`,
    );
  }
}

/** A 1-D int64 tensor of n elements with `like`'s options (at::empty(n, like.options())), filled from values. */
function int64Tensor(like: Tensor, values: readonly number[]): Tensor {
  const t = empty_memory_format.call([values.length], like.dtype, null, like.device, null, null) as Tensor;
  const e = elements(t);
  values.forEach((v, i) => e.set(i, BigInt(v)));
  return t;
}

export function _pack_padded_sequence(_input: Tensor, _lengths: Tensor, batch_first: boolean): [Tensor, Tensor] {
  const input = batch_first ? transpose01(_input) : _input;
  const lengths_t = contiguous(_lengths);
  checkLongTensor(lengths_t);
  const batch_size = input.size(1);
  const lengths = indexValues(lengths_t);
  if (!(input._impl.numel() > 0)) throw new RuntimeError("Cannot pack empty tensors.");
  if (lengths.length !== batch_size) {
    throw new RuntimeError(`Expected \`len(lengths)\` to be equal to batch_size, but got ${lengths.length} (batch_size=${batch_size})`);
  }
  if (!(lengths[batch_size - 1] > 0)) {
    throw new RuntimeError("Length of all samples has to be greater than 0, but found an element in 'lengths' that is <= 0");
  }
  for (let i = 0; i < batch_size - 1; i++) {
    if (lengths[batch_size - 1 - i] > lengths[batch_size - 2 - i]) {
      // enforce_sorted lives in Python; the sortedness check lives here (never reached with enforce_sorted=False)
      throw new RuntimeError(
        "`lengths` array must be sorted in decreasing order when `enforce_sorted` is True. You can pass `enforce_sorted=False` " +
          "to pack_padded_sequence and/or pack_sequence to sidestep this requirement if you do not need ONNX exportability.",
      );
    }
  }
  const batch_sizes = new Array<number>(lengths[0]);
  const batch_sizes_t = empty_memory_format.call([lengths[0]], _lengths.dtype, null, _lengths.device, null, null) as Tensor;
  const step_shape = [-1, ...input._impl.sizes().slice(2)];
  // Scan the sequences from the shortest: each time the length grows, the block of steps [prev_l, l) of the
  // batch_size - i longest sequences is sliced out at once (not one step at a time).
  const steps: Tensor[] = [];
  let prev_l = 0;
  let k = 0;
  for (let i = 0; i < batch_size; i++) {
    const l = lengths[batch_size - 1 - i];
    if (l > prev_l) {
      const current_batch_size = batch_size - i;
      const block = slice(slice(input, 0, prev_l, l), 1, 0, current_batch_size);
      steps.push(view_default.call(contiguous(block), step_shape) as Tensor);
      for (let j = 0; j < l - prev_l; j++) batch_sizes[k++] = current_batch_size;
      prev_l = l;
    }
  }
  const e = elements(batch_sizes_t);
  batch_sizes.forEach((v, i) => e.set(i, BigInt(v)));
  return [cat_default.call(steps, 0) as Tensor, batch_sizes_t];
}

export function _pack_padded_sequence_backward(grad: Tensor, input_size: readonly number[], _batch_sizes: Tensor, batch_first: boolean): Tensor {
  const size = [...input_size];
  if (batch_first) {
    if (!(input_size.length >= 2)) {
      throw new RuntimeError("Expected input_size.size() >= 2 to be true, but got false.  (Could this error message be improved?  If so, please report an enhancement request to PyTorch.)");
    }
    [size[0], size[1]] = [size[1], size[0]];
  }
  let grad_input = zeros_default.call(size, grad.dtype, null, grad.device, null) as Tensor;
  const batch_sizes_t = contiguous(_batch_sizes);
  checkLongTensor(batch_sizes_t);
  const batch_sizes = indexValues(batch_sizes_t);
  let offset = 0;
  for (let i = 0; i < batch_sizes.length; i++) {
    const dst = slice(select_int.call(grad_input, 0, i) as Tensor, 0, 0, batch_sizes[i]);
    copy__default.call(dst, slice(grad, 0, offset, offset + batch_sizes[i]), false);
    offset += batch_sizes[i];
  }
  if (batch_first) grad_input = transpose01(grad_input);
  return grad_input;
}

export function _pad_packed_sequence(data: Tensor, _batch_sizes: Tensor, batch_first: boolean, padding_value: Scalar, total_length: number): [Tensor, Tensor] {
  const batch_sizes_t = contiguous(_batch_sizes);
  checkLongTensor(batch_sizes_t);
  const batch_sizes = indexValues(batch_sizes_t);
  const max_batch_size = batch_sizes[0];
  const max_real_seq_length = batch_sizes.length;
  let max_seq_length = max_real_seq_length;
  if (total_length > 0) {
    if (!(total_length >= max_seq_length)) {
      throw new RuntimeError(
        `Expected total_length to be at least the length of the longest sequence in input, but got total_length=${total_length} and max sequence length being ${max_seq_length}`,
      );
    }
    max_seq_length = total_length;
  }
  const trailing = data._impl.sizes().slice(1);
  let output = full_default.call([max_seq_length, max_batch_size, ...trailing], padding_value, data.dtype, null, data.device, null) as Tensor;
  const lengths = new Array<number>(max_batch_size);
  const lengths_t = empty_memory_format.call([max_batch_size], batch_sizes_t.dtype, null, batch_sizes_t.device, null, null) as Tensor;
  let li = max_batch_size - 1; // lengths are written from the last (shortest) sequence backwards
  let data_offset = 0;
  let prev_batch_size = max_batch_size;
  let prev_i = 0;
  for (let i = 0; i <= max_real_seq_length; i++) {
    const batch_size = i !== max_real_seq_length ? batch_sizes[i] : 0;
    if (batch_size !== prev_batch_size) {
      // output[prev_i:i, :prev_batch_size] = data[data_offset : data_offset + l].view(i - prev_i, prev_batch_size, *)
      const l = prev_batch_size * (i - prev_i);
      const tmp = slice(data, 0, data_offset, data_offset + l);
      const dst = slice(slice(output, 0, prev_i, i), 1, 0, prev_batch_size);
      copy__default.call(dst, view_default.call(tmp, [i - prev_i, prev_batch_size, ...trailing]), false);
      data_offset += l;
      prev_i = i;
    }
    for (let j = 0; j < prev_batch_size - batch_size; j++) lengths[li--] = i;
    prev_batch_size = batch_size;
  }
  const e = elements(lengths_t);
  lengths.forEach((v, i) => e.set(i, BigInt(v)));
  if (batch_first) output = transpose01(output);
  return [output, lengths_t];
}

export function pad_sequence(sequences: readonly Tensor[], batch_first: boolean, padding_value: number): Tensor {
  if (!(sequences.length > 0)) throw new RuntimeError("received an empty list of sequences");
  const trailing = sequences[0]._impl.sizes().slice(1);
  // std::max_element: the first longest sequence
  let max_len = sequences[0].size(0);
  for (const s of sequences) if (s.size(0) > max_len) max_len = s.size(0);
  const out_dims = batch_first ? [sequences.length, max_len, ...trailing] : [max_len, sequences.length, ...trailing];
  const out = full_default.call(out_dims, padding_value, sequences[0].dtype, null, sequences[0].device, null) as Tensor;
  sequences.forEach((seq, i) => {
    const length_i = seq.size(0);
    const dst = batch_first
      ? (narrow_default.call(select_int.call(out, 0, i), 0, 0, length_i) as Tensor)
      : (select_int.call(narrow_default.call(out, 0, 0, length_i), 1, i) as Tensor);
    copy__default.call(dst, seq, false);
  });
  return out;
}
