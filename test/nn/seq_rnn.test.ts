// nn.RNN / LSTM / GRU and nn.RNNCell / LSTMCell / GRUCell.
// Replayed against PyTorch 1.13 (test/fixtures/gen_nn_seq.py -> nn_seq.json): seeded construction
// (parameter names, shapes, exact values), str(module), forward values and gradients of parameters and
// inputs for a stored upstream gradient, error types and texts (test/support/seq_cases.ts: replay).
// Tolerance for outputs and gradients: float32 round-off, |d| <= 1e-5 + 1e-5*|expected| (summation order
// in matmul/bmm differs from MKL's); parameters after seeding are compared exactly.
import { describe, it, expect, vi } from "vitest";
import * as torch from "../../engine/index.js";
import { loadFixture } from "../support/fixtures.js";
import { replay, replayErrors, z } from "../support/seq_cases.js";

const fx = loadFixture("nn_seq.json");
const nn = (torch as any).nn;

describe("nn.RNN / LSTM / GRU vs PyTorch 1.13", () => {
  for (const c of fx.rnn) it(c.name, () => replay(c));

  replayErrors(fx.rnn_errors, () => {
    const lstm = new nn.LSTM(4, 6);
    const gru = new nn.GRU(4, 6, { num_layers: 2 });
    return {
      "LSTM wrong input size": () => lstm(z(5, 3, 7)),
      "LSTM 4-D input": () => lstm(z(5, 3, 4, 1)),
      "LSTM wrong h0 shape": () => lstm(z(5, 3, 4), [z(1, 2, 6), z(1, 3, 6)]),
      "LSTM wrong c0 shape": () => lstm(z(5, 3, 4), [z(1, 3, 6), z(1, 3, 5)]),
      "GRU wrong hx shape": () => gru(z(5, 3, 4), z(1, 3, 6)),
      "GRU unbatched with batched hx": () => gru(z(5, 4), z(2, 3, 6)),
      "RNN bad nonlinearity": () => new nn.RNN(4, 6, { nonlinearity: "sigmoid" }),
      "LSTM bad proj_size": () => new nn.LSTM(4, 6, { proj_size: 6 }),
      "LSTM negative proj_size": () => new nn.LSTM(4, 6, { proj_size: -1 }),
      "GRU proj_size": () => new nn.GRU(4, 6, { proj_size: 2 }),
      "RNN bad dropout": () => new nn.RNN(4, 6, { dropout: 1.5 }),
      "RNN hidden_size 0": () => new nn.RNN(4, 0),
    };
  });

  it("warns about dropout with one layer, as PyTorch does", () => {
    const spy = vi.spyOn(process, "emitWarning").mockImplementation(() => {});
    try {
      new nn.GRU(4, 6, { dropout: 0.5 });
      expect(spy.mock.calls.map((call) => String(call[0]))).toEqual(fx.rnn_warnings);
    } finally {
      spy.mockRestore();
    }
  });
});

describe("nn.RNNCell / LSTMCell / GRUCell vs PyTorch 1.13", () => {
  for (const c of fx.cells) it(c.name, () => replay(c));

  replayErrors(fx.cell_errors, () => {
    const lc = new nn.LSTMCell(4, 5);
    const gc = new nn.GRUCell(4, 5);
    return {
        "LSTMCell 3-D input": () => lc(z(2, 3, 4)),
        "LSTMCell wrong input size": () => lc(z(3, 7)),
        "LSTMCell hx batch mismatch": () => lc(z(3, 4), [z(2, 5), z(3, 5)]),
        "LSTMCell cx wrong hidden": () => lc(z(3, 4), [z(3, 5), z(3, 6)]),
        "GRUCell wrong hidden size": () => gc(z(3, 4), z(3, 6)),
    };
  });
});
