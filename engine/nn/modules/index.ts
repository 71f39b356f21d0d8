// torch.nn.modules: the layers, each in the file of its PyTorch module.

export { Module } from "./module.js";
export type { StateDict, IncompatibleKeys } from "./module.js";
export { Identity, Linear, Bilinear } from "./linear.js";
export { Sequential, ModuleList, ModuleDict, ParameterList, ParameterDict } from "./container.js";
export { RNNBase, RNN, LSTM, GRU, RNNCellBase, RNNCell, LSTMCell, GRUCell } from "./rnn.js";
export { MultiheadAttention, NonDynamicallyQuantizableLinear } from "./multihead_attention.js";
