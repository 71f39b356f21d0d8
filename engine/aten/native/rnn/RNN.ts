// aten::lstm / gru / rnn_tanh / rnn_relu and their cells (aten/src/ATen/native/RNN.cpp, PyTorch 1.13).
// All are CompositeImplicitAutograd: RNN.cpp's CPU path, op for op, through the dispatcher.
//   - a layer runs linear(input, w_ih, b_ih) over the whole sequence once, unbinds it into steps and runs
//     the cell on each step with pre_compute_input (FullLayer / FullBidirectionalLayer);
//   - the cells are LSTMCell / GRUCell / SimpleCell;
//   - layers stack with at::dropout(output, p, train=true) between them when training (apply_layer_stack).
//   - the .data overloads (a PackedSequence's data and batch_sizes) run PackedLayer (steps of batch_sizes[t]
//     leading rows; the hidden rows of sequences that ended are narrowed off and kept, then concatenated
//     back as the final hidden), ReversedPackedLayer (from the last step, hidden rows narrowed in as
//     sequences start) and PackedBidirectionalLayer (both, data concatenated on the last dim).
// One difference from PyTorch: the cells split their gates with aten::chunk and apply the gate
// nonlinearities out of place (sigmoid, tanh, add), where PyTorch uses unsafe_chunk and sigmoid_/tanh_/add_
// on the chunks; Glasstorch has no unsafe_chunk/unsafe_split yet, and in-place ops on chunk's views would
// trip autograd's view+inplace check. The values are the same; the trace names differ there.

import { RuntimeError } from "../../../c10/Errors.js";
import type { Tensor } from "../../core/Tensor.js";
import { linear_default } from "../../../generated/linear.js";
import { matmul_default } from "../../../generated/matmul.js";
import { t_default } from "../../../generated/t.js";
import { add_Tensor, add__Tensor } from "../../../generated/add.js";
import { sub_Tensor } from "../../../generated/sub.js";
import { mul_Tensor, mul__Tensor } from "../../../generated/mul.js";
import { sigmoid_default } from "../../../generated/sigmoid.js";
import { tanh_default } from "../../../generated/tanh.js";
import { relu_default } from "../../../generated/relu.js";
import { chunk_default } from "../../../generated/chunk.js";
import { unbind_int } from "../../../generated/unbind.js";
import { stack_default } from "../../../generated/stack.js";
import { cat_default } from "../../../generated/cat.js";
import { transpose_int } from "../../../generated/transpose.js";
import { dropout_default } from "../../../generated/dropout.js";
import { narrow_default } from "../../../generated/narrow.js";
import { indexValues } from "../index/common.js";

/** CellParams: one direction of one layer; b_* and w_hr may be undefined (null). */
interface CellParams {
  w_ih: Tensor;
  w_hh: Tensor;
  b_ih: Tensor | null;
  b_hh: Tensor | null;
  w_hr: Tensor | null;
}

const linear_ih = (p: CellParams, input: Tensor): Tensor => linear_default.call(input, p.w_ih, p.b_ih) as Tensor;
const linear_hh = (p: CellParams, h: Tensor): Tensor => linear_default.call(h, p.w_hh, p.b_hh) as Tensor;
const matmul_hr = (p: CellParams, h: Tensor): Tensor => (p.w_hr ? (matmul_default.call(h, t_default.call(p.w_hr)) as Tensor) : h);

type LSTMHidden = [Tensor, Tensor];
type Cell<H> = (input: Tensor, hidden: H, p: CellParams, pre_compute_input: boolean) => H;

/** LSTMCell: gates = linear_hh(hx) + linear_ih(input); i, f, g, o = chunk(gates, 4, 1); cy = f*cx + i*g; hy = o*tanh(cy). */
const LSTMCell: Cell<LSTMHidden> = (input, [hx, cx], p, pre) => {
  const gates = add__Tensor.call(linear_hh(p, hx), pre ? input : linear_ih(p, input), 1) as Tensor;
  const chunked = chunk_default.call(gates, 4, 1) as Tensor[];
  const ingate = sigmoid_default.call(chunked[0]) as Tensor;
  const forgetgate = sigmoid_default.call(chunked[1]) as Tensor;
  const cellgate = tanh_default.call(chunked[2]) as Tensor;
  const outgate = sigmoid_default.call(chunked[3]) as Tensor;
  const cy = add__Tensor.call(mul_Tensor.call(forgetgate, cx), mul_Tensor.call(ingate, cellgate), 1) as Tensor;
  const hy = mul_Tensor.call(outgate, tanh_default.call(cy)) as Tensor;
  return [matmul_hr(p, hy), cy];
};

/** GRUCell: r = sigmoid(h_r + i_r); z = sigmoid(h_z + i_z); n = tanh(i_n + h_n*r); h' = (h - n)*z + n. */
const GRUCell: Cell<Tensor> = (input, hidden, p, pre) => {
  const chunked_igates = chunk_default.call(pre ? input : linear_ih(p, input), 3, 1) as Tensor[];
  const chunked_hgates = chunk_default.call(linear_hh(p, hidden), 3, 1) as Tensor[];
  const reset_gate = sigmoid_default.call(add_Tensor.call(chunked_hgates[0], chunked_igates[0], 1)) as Tensor;
  const input_gate = sigmoid_default.call(add_Tensor.call(chunked_hgates[1], chunked_igates[1], 1)) as Tensor;
  const new_gate = tanh_default.call(add_Tensor.call(chunked_igates[2], mul_Tensor.call(chunked_hgates[2], reset_gate), 1)) as Tensor;
  return add__Tensor.call(mul__Tensor.call(sub_Tensor.call(hidden, new_gate, 1), input_gate), new_gate, 1) as Tensor;
};

/** SimpleCell<tanh_f / relu_f>: nonlinearity(linear_hh(h) + linear_ih(input)). */
function SimpleCell(nonlinearity: typeof tanh_default): Cell<Tensor> {
  return (input, hidden, p, pre) => nonlinearity.call(add__Tensor.call(linear_hh(p, hidden), pre ? input : linear_ih(p, input), 1)) as Tensor;
}
const RNNTanhCell = SimpleCell(tanh_default);
const RNNReluCell = SimpleCell(relu_default);

const hiddenAsOutput = <H>(h: H): Tensor => (Array.isArray(h) ? (h[0] as Tensor) : (h as unknown as Tensor));

/** FullLayer's unstacked loop over the precomputed step inputs. */
function runSteps<H>(cell: Cell<H>, steps: Tensor[], hidden: H, p: CellParams): { outputs: Tensor[]; final: H } {
  const outputs: Tensor[] = [];
  for (const s of steps) {
    hidden = cell(s, hidden, p, true);
    outputs.push(hiddenAsOutput(hidden));
  }
  return { outputs, final: hidden };
}

const noSteps = () => new RuntimeError("Expected sequence length to be larger than 0 in RNN");

/** FullLayer (CPU): linear_ih over the sequence, unbind(0), the cell per step, stack(outputs, 0). */
function fullLayer<H>(cell: Cell<H>, input: Tensor, hidden: H, p: CellParams): { output: Tensor; final: H } {
  const steps = unbind_int.call(linear_ih(p, input), 0) as Tensor[];
  const r = runSteps(cell, steps, hidden, p);
  if (r.outputs.length === 0) throw noSteps();
  return { output: stack_default.call(r.outputs, 0) as Tensor, final: r.final };
}

/** FullBidirectionalLayer (CPU): the forward layer, then the reversed steps with the second params; cat on the last dim. */
function fullBidirectionalLayer<H>(cell: Cell<H>, input: Tensor, hidden: [H, H], p: [CellParams, CellParams]): { output: Tensor; final: [H, H] } {
  const fwSteps = unbind_int.call(linear_ih(p[0], input), 0) as Tensor[];
  const fw = runSteps(cell, fwSteps, hidden[0], p[0]);
  if (fw.outputs.length === 0) throw noSteps();
  const fw_output = stack_default.call(fw.outputs, 0) as Tensor;
  const revSteps = (unbind_int.call(linear_ih(p[1], input), 0) as Tensor[]).reverse();
  const rev = runSteps(cell, revSteps, hidden[1], p[1]);
  rev.outputs.reverse();
  const rev_output = stack_default.call(rev.outputs, 0) as Tensor;
  return { output: cat_default.call([fw_output, rev_output], fw_output.dim() - 1) as Tensor, final: [fw.final, rev.final] };
}

/** gather_params: groups of (w_ih, w_hh[, b_ih, b_hh][, w_hr]). */
function gather_params(params: readonly Tensor[], has_biases: boolean, has_projections = false): CellParams[] {
  const n = (has_biases ? 4 : 2) + (has_projections ? 1 : 0);
  if (params.length % n !== 0) throw new RuntimeError("got an incorrect number of RNN parameters");
  const out: CellParams[] = [];
  for (let i = 0; i < params.length; i += n) {
    out.push({
      w_ih: params[i],
      w_hh: params[i + 1],
      b_ih: has_biases ? params[i + 2] : null,
      b_hh: has_biases ? params[i + 3] : null,
      w_hr: has_projections ? params[i + n - 1] : null,
    });
  }
  return out;
}

/** A layer: one direction (H) or both ([H, H]) of one layer, over a padded sequence or a packed one (IO). */
type Layer<IO, H, P> = (input: IO, hidden: H, params: P) => { output: IO; final: H };

/** _rnn_impl + apply_layer_stack: hiddens/params per (layer, direction); dropout between layers when training. */
function _rnn_impl<IO, H>(
  layer: Layer<IO, H, CellParams>, bidirLayer: Layer<IO, [H, H], [CellParams, CellParams]>, dropout: (x: IO, p: number) => IO,
  input: IO, params: CellParams[], hiddens: H[], num_layers: number, dropout_p: number, train: boolean, bidirectional: boolean,
): { output: IO; final: H[] } {
  const dirs = bidirectional ? 2 : 1;
  if (num_layers * dirs !== hiddens.length) throw new RuntimeError("Expected more hidden states in stacked_rnn");
  let layer_input = input;
  const finals: H[] = [];
  for (let l = 0; l < num_layers; l++) {
    if (bidirectional) {
      const r = bidirLayer(layer_input, [hiddens[2 * l], hiddens[2 * l + 1]], [params[2 * l], params[2 * l + 1]]);
      finals.push(r.final[0], r.final[1]);
      layer_input = r.output;
    } else {
      const r = layer(layer_input, hiddens[l], params[l]);
      finals.push(r.final);
      layer_input = r.output;
    }
    if (dropout_p !== 0 && train && l < num_layers - 1) layer_input = dropout(layer_input, dropout_p);
  }
  return { output: layer_input, final: finals };
}

const dropoutTensor = (x: Tensor, p: number): Tensor => dropout_default.call(x, p, true) as Tensor;

/** _rnn_impl<FullLayer, FullBidirectionalLayer>: a padded (T, B, *) input. */
function _rnn_impl_full<H>(cell: Cell<H>, input: Tensor, params: CellParams[], hiddens: H[], num_layers: number, dropout_p: number, train: boolean, bidirectional: boolean) {
  return _rnn_impl<Tensor, H>(
    (x, h, p) => fullLayer(cell, x, h, p), (x, h, p) => fullBidirectionalLayer(cell, x, h, p), dropoutTensor,
    input, params, hiddens, num_layers, dropout_p, train, bidirectional,
  );
}

// ---- packed sequences (PackedLayer, ReversedPackedLayer, PackedBidirectionalLayer) ----

/** RNN.cpp's PackedSequence: the packed data (sum(batch_sizes), *) and its CPU int64 batch_sizes, read once. */
interface Packed {
  data: Tensor;
  batch_sizes: Tensor;
  sizes: Float64Array;
}

/** hidden_slice: rows [start, end) of a hidden state (both h and c of an LSTM's). */
function hidden_slice<H>(h: H, start: number, end: number): H {
  const narrow = (t: Tensor) => narrow_default.call(t, 0, start, end - start) as Tensor;
  return (Array.isArray(h) ? [narrow(h[0]), narrow(h[1])] : narrow(h as unknown as Tensor)) as H;
}

/** hidden_concat: the hidden states' rows concatenated (h and c separately for an LSTM). */
function hidden_concat<H>(hs: H[]): H {
  if (Array.isArray(hs[0])) {
    const pairs = hs as unknown as Tensor[][];
    return [cat_default.call(pairs.map((p) => p[0]), 0), cat_default.call(pairs.map((p) => p[1]), 0)] as H;
  }
  return cat_default.call(hs as unknown as Tensor[], 0) as H;
}

/** PackedLayer: step t takes the next batch_sizes[t] rows; rows of sequences that ended are put aside. */
function packedLayer<H>(cell: Cell<H>, input: Packed, input_hidden: H, p: CellParams): { output: Packed; final: H } {
  const step_outputs: Tensor[] = [];
  const hiddens: H[] = [];
  const batch_sizes = input.sizes;
  let input_offset = 0;
  let last_batch_size = batch_sizes[0];
  const input_w = linear_ih(p, input.data); // CPU: the input projection of all steps at once (pre_compute_input)
  let hidden = input_hidden;
  for (const batch_size of batch_sizes) {
    const step_input = narrow_default.call(input_w, 0, input_offset, batch_size) as Tensor;
    input_offset += batch_size;
    const dec = last_batch_size - batch_size;
    if (dec > 0) {
      hiddens.push(hidden_slice(hidden, last_batch_size - dec, last_batch_size));
      hidden = hidden_slice(hidden, 0, last_batch_size - dec);
    }
    last_batch_size = batch_size;
    hidden = cell(step_input, hidden, p, true);
    step_outputs.push(hiddenAsOutput(hidden));
  }
  hiddens.push(hidden);
  hiddens.reverse();
  return { output: { ...input, data: cat_default.call(step_outputs, 0) as Tensor }, final: hidden_concat(hiddens) };
}

/** ReversedPackedLayer: from the last step back; the hidden rows of sequences are taken in as they start. */
function reversedPackedLayer<H>(cell: Cell<H>, input: Packed, input_hidden: H, p: CellParams): { output: Packed; final: H } {
  const step_outputs: Tensor[] = [];
  const batch_sizes = input.sizes;
  const num_steps = batch_sizes.length;
  let input_offset = input.data.size(0);
  let last_batch_size = batch_sizes[num_steps - 1];
  const input_w = linear_ih(p, input.data);
  let hidden = hidden_slice(input_hidden, 0, batch_sizes[num_steps - 1]);
  for (let i = num_steps - 1; i >= 0; i--) {
    const batch_size = batch_sizes[i];
    const inc = batch_size - last_batch_size;
    if (inc > 0) hidden = hidden_concat([hidden, hidden_slice(input_hidden, last_batch_size, batch_size)]);
    const step_input = narrow_default.call(input_w, 0, input_offset - batch_size, batch_size) as Tensor;
    input_offset -= batch_size;
    last_batch_size = batch_size;
    hidden = cell(step_input, hidden, p, true);
    step_outputs.push(hiddenAsOutput(hidden));
  }
  step_outputs.reverse();
  return { output: { ...input, data: cat_default.call(step_outputs, 0) as Tensor }, final: hidden };
}

/** PackedBidirectionalLayer: the forward and the reversed packed layer, their data concatenated on the last dim. */
function packedBidirectionalLayer<H>(cell: Cell<H>, input: Packed, hidden: [H, H], p: [CellParams, CellParams]): { output: Packed; final: [H, H] } {
  const fw = packedLayer(cell, input, hidden[0], p[0]);
  const rev = reversedPackedLayer(cell, input, hidden[1], p[1]);
  return { output: { ...input, data: cat_default.call([fw.output.data, rev.output.data], -1) as Tensor }, final: [fw.final, rev.final] };
}

/** _rnn_impl<PackedLayer, PackedBidirectionalLayer>: dropout between layers applies to the packed data. */
function _rnn_impl_packed<H>(cell: Cell<H>, input: Packed, params: CellParams[], hiddens: H[], num_layers: number, dropout_p: number, train: boolean, bidirectional: boolean) {
  return _rnn_impl<Packed, H>(
    (x, h, p) => packedLayer(cell, x, h, p), (x, h, p) => packedBidirectionalLayer(cell, x, h, p),
    (x, dp) => ({ ...x, data: dropoutTensor(x.data, dp) }),
    input, params, hiddens, num_layers, dropout_p, train, bidirectional,
  );
}

const packed = (data: Tensor, batch_sizes: Tensor): Packed => ({ data, batch_sizes, sizes: indexValues(batch_sizes) });

function simpleRnn(cell: Cell<Tensor>) {
  return (
    _input: Tensor, hx: Tensor, _params: readonly Tensor[], has_biases: boolean, num_layers: number, dropout_p: number, train: boolean,
    bidirectional: boolean, batch_first: boolean,
  ): [Tensor, Tensor] => {
    const input = batch_first ? (transpose_int.call(_input, 0, 1) as Tensor) : _input;
    const params = gather_params(_params, has_biases);
    const r = _rnn_impl_full(cell, input, params, unbind_int.call(hx, 0) as Tensor[], num_layers, dropout_p, train, bidirectional);
    const hy = stack_default.call(r.final, 0) as Tensor; // _rnn_impl_with_concat stacks before the caller transposes
    return [batch_first ? (transpose_int.call(r.output, 0, 1) as Tensor) : r.output, hy];
  };
}

export const gru = simpleRnn(GRUCell);
export const rnn_tanh = simpleRnn(RNNTanhCell);
export const rnn_relu = simpleRnn(RNNReluCell);

/** The .data overloads of gru / rnn_tanh / rnn_relu: (data, batch_sizes) in, (output data, h_n) out. */
function simpleRnnData(cell: Cell<Tensor>) {
  return (
    data: Tensor, batch_sizes: Tensor, hx: Tensor, _params: readonly Tensor[], has_biases: boolean, num_layers: number, dropout_p: number,
    train: boolean, bidirectional: boolean,
  ): [Tensor, Tensor] => {
    const input = packed(data, batch_sizes);
    const params = gather_params(_params, has_biases);
    const r = _rnn_impl_packed(cell, input, params, unbind_int.call(hx, 0) as Tensor[], num_layers, dropout_p, train, bidirectional);
    return [r.output.data, stack_default.call(r.final, 0) as Tensor];
  };
}

export const gru_data = simpleRnnData(GRUCell);
export const rnn_tanh_data = simpleRnnData(RNNTanhCell);
export const rnn_relu_data = simpleRnnData(RNNReluCell);

export function lstm(
  _input: Tensor, hx: readonly Tensor[], _params: readonly Tensor[], has_biases: boolean, num_layers: number, dropout_p: number, train: boolean,
  bidirectional: boolean, batch_first: boolean,
): [Tensor, Tensor, Tensor] {
  if (hx.length !== 2) throw new RuntimeError("lstm expects two hidden states");
  const input = batch_first ? (transpose_int.call(_input, 0, 1) as Tensor) : _input;
  const has_projections = hx[0].size(2) !== hx[1].size(2);
  const params = gather_params(_params, has_biases, has_projections);
  const hx_list = unbind_int.call(hx[0], 0) as Tensor[];
  const cx_list = unbind_int.call(hx[1], 0) as Tensor[];
  const hiddens: LSTMHidden[] = hx_list.map((h, i) => [h, cx_list[i]]);
  const r = _rnn_impl_full(LSTMCell, input, params, hiddens, num_layers, dropout_p, train, bidirectional);
  const hy = stack_default.call(r.final.map((h) => h[0]), 0) as Tensor;
  const cy = stack_default.call(r.final.map((h) => h[1]), 0) as Tensor;
  return [batch_first ? (transpose_int.call(r.output, 0, 1) as Tensor) : r.output, hy, cy];
}

/** lstm.data: the packed overload; hx is (h_0, c_0), projections when their last sizes differ. */
export function lstm_data(
  data: Tensor, batch_sizes: Tensor, hx: readonly Tensor[], _params: readonly Tensor[], has_biases: boolean, num_layers: number, dropout_p: number,
  train: boolean, bidirectional: boolean,
): [Tensor, Tensor, Tensor] {
  if (hx.length !== 2) throw new RuntimeError("lstm expects two hidden states");
  const input = packed(data, batch_sizes);
  const has_projections = hx[0].size(2) !== hx[1].size(2);
  const params = gather_params(_params, has_biases, has_projections);
  const hx_list = unbind_int.call(hx[0], 0) as Tensor[];
  const cx_list = unbind_int.call(hx[1], 0) as Tensor[];
  const hiddens: LSTMHidden[] = hx_list.map((h, i) => [h, cx_list[i]]);
  const r = _rnn_impl_packed(LSTMCell, input, params, hiddens, num_layers, dropout_p, train, bidirectional);
  const hy = stack_default.call(r.final.map((h) => h[0]), 0) as Tensor;
  const cy = stack_default.call(r.final.map((h) => h[1]), 0) as Tensor;
  return [r.output.data, hy, cy];
}

function check_rnn_cell_forward_input(input: Tensor, input_size: number): void {
  if (input.size(1) !== input_size) throw new RuntimeError(`input has inconsistent input_size: got ${input.size(1)} expected ${input_size}`);
}

function check_rnn_cell_forward_hidden(input: Tensor, hx: Tensor, hidden_size: number, hidden_label: number): void {
  if (input.size(0) !== hx.size(0)) {
    throw new RuntimeError(`Input batch size ${input.size(0)} doesn't match hidden${hidden_label} batch size ${hx.size(0)}`);
  }
  if (hx.size(1) !== hidden_size) {
    throw new RuntimeError(`hidden${hidden_label} has inconsistent hidden_size: got ${hx.size(1)}, expected ${hidden_size}`);
  }
}

const cellParams = (w_ih: Tensor, w_hh: Tensor, b_ih: Tensor | null, b_hh: Tensor | null): CellParams => ({ w_ih, w_hh, b_ih, b_hh, w_hr: null });

export function lstm_cell(input: Tensor, hx: readonly Tensor[], w_ih: Tensor, w_hh: Tensor, b_ih: Tensor | null = null, b_hh: Tensor | null = null): [Tensor, Tensor] {
  if (hx.length !== 2) throw new RuntimeError("lstm_cell expects two hidden states");
  check_rnn_cell_forward_input(input, w_ih.size(1));
  const hidden_size = w_hh.size(1);
  check_rnn_cell_forward_hidden(input, hx[0], hidden_size, 0);
  check_rnn_cell_forward_hidden(input, hx[1], hidden_size, 0); // label 0 for cx too, as 1.13 has it
  return LSTMCell(input, [hx[0], hx[1]], cellParams(w_ih, w_hh, b_ih, b_hh), false);
}

function simpleCell(cell: Cell<Tensor>) {
  return (input: Tensor, hx: Tensor, w_ih: Tensor, w_hh: Tensor, b_ih: Tensor | null = null, b_hh: Tensor | null = null): Tensor => {
    check_rnn_cell_forward_input(input, w_ih.size(1));
    check_rnn_cell_forward_hidden(input, hx, w_hh.size(1), 0);
    return cell(input, hx, cellParams(w_ih, w_hh, b_ih, b_hh), false);
  };
}

export const gru_cell = simpleCell(GRUCell);
export const rnn_tanh_cell = simpleCell(RNNTanhCell);
export const rnn_relu_cell = simpleCell(RNNReluCell);
