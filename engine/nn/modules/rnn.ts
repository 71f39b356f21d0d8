// torch/nn/modules/rnn.py (PyTorch 1.13): RNNBase, RNN (tanh/relu), LSTM (optional proj_size), GRU, and
// the cells RNNCellBase, RNNCell, LSTMCell, GRUCell.
// The layers call aten::rnn_tanh / rnn_relu / lstm / gru (engine/ops/native_functions/rnn.yaml), as
// PyTorch's call torch._VF; a torch.nn.utils.rnn.PackedSequence input goes to their .data overloads
// (lstm.data, ...) and comes back packed, h_n / c_n in the caller's batch order (permute_hidden).
// The cuDNN-only flatten_parameters is a no-op here.

import type { Tensor } from "../../aten/core/Tensor.js";
import { AssertionError, RuntimeError, ValueError } from "../../c10/Errors.js";
import { isOptionsObject } from "../../aten/core/TensorOptions.js";
import * as T from "../../generated/torch_functions.js";
import * as init from "../init.js";
import { bindArgs } from "../_bind.js";
import { Parameter } from "../parameter.js";
import { Module } from "./module.js";
import { factoryEmpty, pyFloat, pyRepr } from "./_utils.js";
import { PackedSequence } from "../utils/rnn.js";

function warn(message: string): void {
  process.emitWarning(message, "UserWarning");
}

const pyTuple = (xs: readonly number[]) => `(${xs.join(", ")})`;
/** _apply_permutation: the batch dim (1) of a hidden state reordered. */
const applyPermutation = (t: Tensor, permutation: Tensor, dim = 1): Tensor => (t as any).index_select(dim, permutation) as Tensor;
/** int(batch_sizes[0]): the largest batch of a packed sequence (select + item, as Python runs it). */
const firstBatch = (batch_sizes: Tensor): number => Number((batch_sizes as any).get(0).item());
const sameSize = (a: readonly number[], b: readonly number[]) => a.length === b.length && a.every((s, i) => s === b[i]);

const RNN_PARAMS = [
  ["input_size"], ["hidden_size"], ["num_layers", 1], ["bias", true], ["batch_first", false], ["dropout", 0.0], ["bidirectional", false],
  ["proj_size", 0], ["device", null], ["dtype", null],
] as const;

export class RNNBase extends Module {
  declare mode: string;
  declare input_size: number;
  declare hidden_size: number;
  declare num_layers: number;
  declare bias: boolean;
  declare batch_first: boolean;
  declare dropout: number;
  declare bidirectional: boolean;
  declare proj_size: number;
  declare _flat_weights_names: string[];
  declare _all_weights: string[][];

  constructor(mode: string, ...args: unknown[]) {
    super();
    const a = bindArgs(`${new.target.name}.__init__`, args, RNN_PARAMS);
    const { input_size, hidden_size, num_layers, bias, batch_first, dropout, bidirectional, proj_size } = a;
    this.mode = mode;
    this.input_size = input_size;
    this.hidden_size = hidden_size;
    this.num_layers = num_layers;
    this.bias = bias;
    this.batch_first = batch_first;
    this.dropout = Number(dropout);
    this.bidirectional = bidirectional;
    this.proj_size = proj_size;
    const num_directions = bidirectional ? 2 : 1;

    if (typeof dropout !== "number" || !(0 <= dropout && dropout <= 1)) {
      throw new ValueError("dropout should be a number in range [0, 1] representing the probability of an element being zeroed");
    }
    if (dropout > 0 && num_layers === 1) {
      warn(
        `dropout option adds dropout after all but last recurrent layer, so non-zero dropout expects num_layers greater than 1, but got dropout=${pyFloat(dropout)} and num_layers=${num_layers}`,
      );
    }
    if (proj_size < 0) throw new ValueError("proj_size should be a positive integer or zero to disable projections");
    if (proj_size >= hidden_size) throw new ValueError("proj_size has to be smaller than hidden_size");

    let gate_size: number;
    if (mode === "LSTM") gate_size = 4 * hidden_size;
    else if (mode === "GRU") gate_size = 3 * hidden_size;
    else if (mode === "RNN_TANH" || mode === "RNN_RELU") gate_size = hidden_size;
    else throw new ValueError("Unrecognized RNN mode: " + mode);

    this._flat_weights_names = [];
    this._all_weights = [];
    for (let layer = 0; layer < num_layers; layer++) {
      for (let direction = 0; direction < num_directions; direction++) {
        const real_hidden_size = proj_size > 0 ? proj_size : hidden_size;
        const layer_input_size = layer === 0 ? input_size : real_hidden_size * num_directions;
        // all four are created (as in PyTorch) whether or not bias is used: torch.empty draws nothing
        const w_ih = new Parameter(factoryEmpty([gate_size, layer_input_size], a));
        const w_hh = new Parameter(factoryEmpty([gate_size, real_hidden_size], a));
        const b_ih = new Parameter(factoryEmpty([gate_size], a));
        const b_hh = new Parameter(factoryEmpty([gate_size], a));
        let layer_params: Parameter[];
        if (proj_size === 0) layer_params = bias ? [w_ih, w_hh, b_ih, b_hh] : [w_ih, w_hh];
        else {
          const w_hr = new Parameter(factoryEmpty([proj_size, hidden_size], a));
          layer_params = bias ? [w_ih, w_hh, b_ih, b_hh, w_hr] : [w_ih, w_hh, w_hr];
        }
        const suffix = direction === 1 ? "_reverse" : "";
        const param_names = ["weight_ih_l", "weight_hh_l"];
        if (bias) param_names.push("bias_ih_l", "bias_hh_l");
        if (proj_size > 0) param_names.push("weight_hr_l");
        const names = param_names.map((x) => `${x}${layer}${suffix}`);
        names.forEach((name, i) => ((this as any)[name] = layer_params[i]));
        this._flat_weights_names.push(...names);
        this._all_weights.push(names);
      }
    }
    this.reset_parameters();
  }

  /** _flat_weights: the parameters by _flat_weights_names, read at each call (PyTorch keeps the list in sync in __setattr__/_apply). */
  get _flat_weights(): Tensor[] {
    return this._flat_weights_names.map((n) => (this as any)[n]);
  }

  /** The parameters as lists per layer and direction. */
  get all_weights(): Parameter[][] {
    return this._all_weights.map((ws) => ws.map((w) => (this as any)[w]));
  }

  /** cuDNN's weight flattening; nothing to do on CPU. */
  flatten_parameters(): void {}

  reset_parameters(): void {
    const stdv = this.hidden_size > 0 ? 1.0 / Math.sqrt(this.hidden_size) : 0;
    for (const weight of this.parameters()) init.uniform_(weight, -stdv, stdv);
  }

  check_input(input: Tensor, batch_sizes: Tensor | null): void {
    const expected_input_dim = batch_sizes !== null ? 2 : 3;
    if (input.dim() !== expected_input_dim) throw new RuntimeError(`input must have ${expected_input_dim} dimensions, got ${input.dim()}`);
    if (this.input_size !== input.size(-1)) {
      throw new RuntimeError(`input.size(-1) must be equal to input_size. Expected ${this.input_size}, got ${input.size(-1)}`);
    }
  }

  get_expected_hidden_size(input: Tensor, batch_sizes: Tensor | null): number[] {
    const mini_batch = batch_sizes !== null ? firstBatch(batch_sizes) : this.batch_first ? input.size(0) : input.size(1);
    const num_directions = this.bidirectional ? 2 : 1;
    return [this.num_layers * num_directions, mini_batch, this.proj_size > 0 ? this.proj_size : this.hidden_size];
  }

  check_hidden_size(hx: Tensor, expected: number[], msg = "Expected hidden size {}, got {}"): void {
    if (!sameSize(hx.shape, expected)) {
      const parts = msg.split("{}");
      throw new RuntimeError(parts[0] + pyTuple(expected) + parts[1] + `[${hx.shape.join(", ")}]` + parts[2]);
    }
  }

  check_forward_args(input: Tensor, hidden: Tensor, batch_sizes: Tensor | null): void {
    this.check_input(input, batch_sizes);
    this.check_hidden_size(hidden, this.get_expected_hidden_size(input, batch_sizes));
  }

  override extra_repr(): string {
    let s = `${this.input_size}, ${this.hidden_size}`;
    if (this.proj_size !== 0) s += `, proj_size=${this.proj_size}`;
    if (this.num_layers !== 1) s += `, num_layers=${this.num_layers}`;
    if (this.bias !== true) s += `, bias=${pyRepr(this.bias)}`;
    if (this.batch_first !== false) s += `, batch_first=${pyRepr(this.batch_first)}`;
    if (this.dropout !== 0) s += `, dropout=${pyFloat(this.dropout)}`;
    if (this.bidirectional !== false) s += `, bidirectional=${pyRepr(this.bidirectional)}`;
    return s;
  }

  permute_hidden(hx: Tensor, permutation: Tensor | null): Tensor {
    return permutation === null ? hx : applyPermutation(hx, permutation);
  }

  /** RNN.forward and GRU.forward (the same Python in both): padded or packed input, hx checks, zeros for hx,
   * `f` (the .input overload) or `fData` (the .data overload for a PackedSequence). */
  protected _forwardOneHidden(input: Tensor | PackedSequence, hx: Tensor | null, f: any, fData: any): [Tensor | PackedSequence, Tensor] {
    const orig_input = input;
    let batch_sizes: Tensor | null = null;
    let sorted_indices: Tensor | null = null;
    let unsorted_indices: Tensor | null = null;
    let x: Tensor;
    let max_batch_size: number;
    let is_batched = true;
    const batch_dim = this.batch_first ? 0 : 1;
    if (orig_input instanceof PackedSequence) {
      [x, batch_sizes, sorted_indices, unsorted_indices] = [orig_input.data, orig_input.batch_sizes, orig_input.sorted_indices, orig_input.unsorted_indices];
      max_batch_size = firstBatch(batch_sizes);
    } else {
      x = orig_input;
      is_batched = x.dim() === 3;
      if (!is_batched) {
        x = (x as any).unsqueeze(batch_dim);
        if (hx !== null) {
          if (hx.dim() !== 2) throw new RuntimeError(`For unbatched 2-D input, hx should also be 2-D but got ${hx.dim()}-D tensor`);
          hx = (hx as any).unsqueeze(1);
        }
      } else if (hx !== null && hx.dim() !== 3) {
        throw new RuntimeError(`For batched 3-D input, hx should also be 3-D but got ${hx.dim()}-D tensor`);
      }
      max_batch_size = this.batch_first ? x.size(0) : x.size(1);
    }
    if (hx === null) {
      const num_directions = this.bidirectional ? 2 : 1;
      hx = T.zeros([this.num_layers * num_directions, max_batch_size, this.hidden_size], { dtype: x.dtype, device: x.device }) as Tensor;
    } else {
      // each batch of the hidden state should match the input sequence the user believes they are passing in
      hx = this.permute_hidden(hx, sorted_indices);
    }
    this.check_forward_args(x, hx, batch_sizes);
    const result = (batch_sizes === null
      ? f(x, hx, this._flat_weights, this.bias, this.num_layers, this.dropout, this.training, this.bidirectional, this.batch_first)
      : fData(x, batch_sizes, hx, this._flat_weights, this.bias, this.num_layers, this.dropout, this.training, this.bidirectional)) as [Tensor, Tensor];
    let [output, hidden] = result;
    if (orig_input instanceof PackedSequence) {
      return [new PackedSequence(output, batch_sizes, sorted_indices, unsorted_indices), this.permute_hidden(hidden, unsorted_indices)];
    }
    if (!is_batched) {
      output = (output as any).squeeze(batch_dim);
      hidden = (hidden as any).squeeze(1);
    }
    return [output, this.permute_hidden(hidden, unsorted_indices)];
  }
}

export class RNN extends RNNBase {
  declare nonlinearity: string;

  constructor(...args: unknown[]) {
    const last = args[args.length - 1] as Record<string, unknown> | undefined;
    const kw = args.length > 0 && isOptionsObject(last) ? { ...last } : null;
    if (kw && "proj_size" in kw) throw new ValueError("proj_size argument is only supported for LSTM, not RNN or GRU");
    const nonlinearity = (kw?.nonlinearity as string | undefined) ?? "tanh";
    if (kw) delete kw.nonlinearity;
    let mode: string;
    if (nonlinearity === "tanh") mode = "RNN_TANH";
    else if (nonlinearity === "relu") mode = "RNN_RELU";
    else throw new ValueError(`Unknown nonlinearity '${nonlinearity}'`);
    super(mode, ...(kw ? [...args.slice(0, -1), kw] : args));
    this.nonlinearity = nonlinearity;
  }

  override forward(input: Tensor | PackedSequence, hx: Tensor | null = null): [Tensor | PackedSequence, Tensor] {
    const f = this.mode === "RNN_TANH" ? T.rnn_tanh : T.rnn_relu;
    return this._forwardOneHidden(input, hx, f, f); // the binding picks rnn_*.input or rnn_*.data by the arguments
  }
}

function noProjSize(args: unknown[]): void {
  const last = args[args.length - 1] as Record<string, unknown> | undefined;
  if (args.length > 0 && isOptionsObject(last) && "proj_size" in last!) {
    throw new ValueError("proj_size argument is only supported for LSTM, not RNN or GRU");
  }
}

export class GRU extends RNNBase {
  constructor(...args: unknown[]) {
    noProjSize(args);
    super("GRU", ...args);
  }

  override forward(input: Tensor | PackedSequence, hx: Tensor | null = null): [Tensor | PackedSequence, Tensor] {
    return this._forwardOneHidden(input, hx, T.gru, T.gru); // the binding picks gru.input or gru.data by the arguments
  }
}

export class LSTM extends RNNBase {
  constructor(...args: unknown[]) {
    super("LSTM", ...args);
  }

  get_expected_cell_size(input: Tensor, batch_sizes: Tensor | null): number[] {
    const mini_batch = batch_sizes !== null ? firstBatch(batch_sizes) : this.batch_first ? input.size(0) : input.size(1);
    const num_directions = this.bidirectional ? 2 : 1;
    return [this.num_layers * num_directions, mini_batch, this.hidden_size];
  }

  override check_forward_args(input: Tensor, hidden: any, batch_sizes: Tensor | null): void {
    this.check_input(input, batch_sizes);
    this.check_hidden_size(hidden[0], this.get_expected_hidden_size(input, batch_sizes), "Expected hidden[0] size {}, got {}");
    this.check_hidden_size(hidden[1], this.get_expected_cell_size(input, batch_sizes), "Expected hidden[1] size {}, got {}");
  }

  override permute_hidden(hx: any, permutation: Tensor | null): any {
    if (permutation === null) return hx;
    return [applyPermutation(hx[0], permutation), applyPermutation(hx[1], permutation)];
  }

  override forward(input: Tensor | PackedSequence, hx: [Tensor, Tensor] | null = null): [Tensor | PackedSequence, [Tensor, Tensor]] {
    const orig_input = input;
    let batch_sizes: Tensor | null = null;
    let sorted_indices: Tensor | null = null;
    let unsorted_indices: Tensor | null = null;
    let x: Tensor;
    let max_batch_size: number;
    let is_batched = true;
    const batch_dim = this.batch_first ? 0 : 1;
    if (orig_input instanceof PackedSequence) {
      [x, batch_sizes, sorted_indices, unsorted_indices] = [orig_input.data, orig_input.batch_sizes, orig_input.sorted_indices, orig_input.unsorted_indices];
      max_batch_size = firstBatch(batch_sizes);
    } else {
      x = orig_input;
      is_batched = x.dim() === 3;
      if (!is_batched) x = (x as any).unsqueeze(batch_dim);
      max_batch_size = this.batch_first ? x.size(0) : x.size(1);
    }
    let h: [Tensor, Tensor];
    if (hx === null) {
      const num_directions = this.bidirectional ? 2 : 1;
      const real_hidden_size = this.proj_size > 0 ? this.proj_size : this.hidden_size;
      const opts = { dtype: x.dtype, device: x.device };
      h = [
        T.zeros([this.num_layers * num_directions, max_batch_size, real_hidden_size], opts) as Tensor,
        T.zeros([this.num_layers * num_directions, max_batch_size, this.hidden_size], opts) as Tensor,
      ];
    } else {
      h = [hx[0], hx[1]];
      if (batch_sizes === null) {
        if (is_batched) {
          if (hx[0].dim() !== 3 || hx[1].dim() !== 3) {
            throw new RuntimeError(`For batched 3-D input, hx and cx should also be 3-D but got (${hx[0].dim()}-D, ${hx[1].dim()}-D) tensors`);
          }
        } else {
          if (hx[0].dim() !== 2 || hx[1].dim() !== 2) {
            throw new RuntimeError(`For unbatched 2-D input, hx and cx should also be 2-D but got (${hx[0].dim()}-D, ${hx[1].dim()}-D) tensors`);
          }
          h = [(hx[0] as any).unsqueeze(1), (hx[1] as any).unsqueeze(1)];
        }
      }
      // each batch of the hidden state should match the input sequence the user believes they are passing in
      h = this.permute_hidden(h, sorted_indices);
    }
    this.check_forward_args(x, h, batch_sizes);
    const result = (batch_sizes === null
      ? (T.lstm as any)(x, h, this._flat_weights, this.bias, this.num_layers, this.dropout, this.training, this.bidirectional, this.batch_first)
      : (T.lstm as any)(x, batch_sizes, h, this._flat_weights, this.bias, this.num_layers, this.dropout, this.training, this.bidirectional)) as [Tensor, Tensor, Tensor];
    const output = result[0];
    let hidden: [Tensor, Tensor] = [result[1], result[2]];
    if (orig_input instanceof PackedSequence) {
      return [new PackedSequence(output, batch_sizes, sorted_indices, unsorted_indices), this.permute_hidden(hidden, unsorted_indices)];
    }
    if (!is_batched) return [(output as any).squeeze(batch_dim), [(hidden[0] as any).squeeze(1), (hidden[1] as any).squeeze(1)]];
    hidden = this.permute_hidden(hidden, unsorted_indices);
    return [output, hidden];
  }
}

export class RNNCellBase extends Module {
  declare input_size: number;
  declare hidden_size: number;
  declare bias: boolean;
  declare weight_ih: Parameter;
  declare weight_hh: Parameter;
  declare bias_ih: Parameter | null;
  declare bias_hh: Parameter | null;

  constructor(input_size: number, hidden_size: number, bias: boolean, num_chunks: number, kw: { device?: unknown; dtype?: unknown } = {}) {
    super();
    this.input_size = input_size;
    this.hidden_size = hidden_size;
    this.bias = bias;
    this.weight_ih = new Parameter(factoryEmpty([num_chunks * hidden_size, input_size], kw));
    this.weight_hh = new Parameter(factoryEmpty([num_chunks * hidden_size, hidden_size], kw));
    if (bias) {
      this.bias_ih = new Parameter(factoryEmpty([num_chunks * hidden_size], kw));
      this.bias_hh = new Parameter(factoryEmpty([num_chunks * hidden_size], kw));
    } else {
      this.register_parameter("bias_ih", null);
      this.register_parameter("bias_hh", null);
    }
    this.reset_parameters();
  }

  override extra_repr(): string {
    let s = `${this.input_size}, ${this.hidden_size}`;
    if (this.bias !== true) s += `, bias=${pyRepr(this.bias)}`;
    const nl = (this as any).nonlinearity;
    if (nl !== undefined && nl !== "tanh") s += `, nonlinearity=${nl}`;
    return s;
  }

  reset_parameters(): void {
    const stdv = this.hidden_size > 0 ? 1.0 / Math.sqrt(this.hidden_size) : 0;
    for (const weight of this.parameters()) init.uniform_(weight, -stdv, stdv);
  }

  /** The shared prologue: 1-D or 2-D input (an assert in PyTorch), the batch dim of an unbatched input. */
  protected _batched(name: string, input: Tensor): [Tensor, boolean] {
    if (input.dim() !== 1 && input.dim() !== 2) throw new AssertionError(`${name}: Expected input to be 1-D or 2-D but received ${input.dim()}-D tensor`);
    const is_batched = input.dim() === 2;
    return [is_batched ? input : (input as any).unsqueeze(0), is_batched];
  }

  protected _zeros(input: Tensor): Tensor {
    return T.zeros([input.size(0), this.hidden_size], { dtype: input.dtype, device: input.device }) as Tensor;
  }
}

const CELL_PARAMS = [["input_size"], ["hidden_size"], ["bias", true], ["device", null], ["dtype", null]] as const;

export class RNNCell extends RNNCellBase {
  declare nonlinearity: string;

  constructor(...args: unknown[]) {
    const a = bindArgs("RNNCell.__init__", args, [["input_size"], ["hidden_size"], ["bias", true], ["nonlinearity", "tanh"], ["device", null], ["dtype", null]]);
    super(a.input_size, a.hidden_size, a.bias, 1, a);
    this.nonlinearity = a.nonlinearity;
  }

  override forward(input: Tensor, hx: Tensor | null = null): Tensor {
    const [x, is_batched] = this._batched("RNNCell", input);
    const h = hx === null ? this._zeros(x) : is_batched ? hx : ((hx as any).unsqueeze(0) as Tensor);
    let ret: Tensor;
    if (this.nonlinearity === "tanh") ret = T.rnn_tanh_cell(x, h, this.weight_ih, this.weight_hh, this.bias_ih, this.bias_hh) as Tensor;
    else if (this.nonlinearity === "relu") ret = T.rnn_relu_cell(x, h, this.weight_ih, this.weight_hh, this.bias_ih, this.bias_hh) as Tensor;
    else throw new RuntimeError(`Unknown nonlinearity: ${this.nonlinearity}`);
    return is_batched ? ret : ((ret as any).squeeze(0) as Tensor);
  }
}

export class LSTMCell extends RNNCellBase {
  constructor(...args: unknown[]) {
    const a = bindArgs("LSTMCell.__init__", args, CELL_PARAMS);
    super(a.input_size, a.hidden_size, a.bias, 4, a);
  }

  override forward(input: Tensor, hx: [Tensor, Tensor] | null = null): [Tensor, Tensor] {
    const [x, is_batched] = this._batched("LSTMCell", input);
    let h: Tensor[];
    if (hx === null) {
      const zeros = this._zeros(x);
      h = [zeros, zeros];
    } else h = is_batched ? [hx[0], hx[1]] : [(hx[0] as any).unsqueeze(0), (hx[1] as any).unsqueeze(0)];
    const ret = (T.lstm_cell as any)(x, h, this.weight_ih, this.weight_hh, this.bias_ih, this.bias_hh) as [Tensor, Tensor];
    return is_batched ? ret : [(ret[0] as any).squeeze(0), (ret[1] as any).squeeze(0)];
  }
}

export class GRUCell extends RNNCellBase {
  constructor(...args: unknown[]) {
    const a = bindArgs("GRUCell.__init__", args, CELL_PARAMS);
    super(a.input_size, a.hidden_size, a.bias, 3, a);
  }

  override forward(input: Tensor, hx: Tensor | null = null): Tensor {
    const [x, is_batched] = this._batched("GRUCell", input);
    const h = hx === null ? this._zeros(x) : is_batched ? hx : ((hx as any).unsqueeze(0) as Tensor);
    const ret = T.gru_cell(x, h, this.weight_ih, this.weight_hh, this.bias_ih, this.bias_hh) as Tensor;
    return is_batched ? ret : ((ret as any).squeeze(0) as Tensor);
  }
}
