// Kernels of the rnn operator family (engine/ops/native_functions/rnn.yaml), re-exported into
// at::native (../index.ts) under the names the yaml's `dispatch:` entries use.

export { lstm, gru, rnn_tanh, rnn_relu, lstm_data, gru_data, rnn_tanh_data, rnn_relu_data, lstm_cell, gru_cell, rnn_tanh_cell, rnn_relu_cell } from "./RNN.js";
