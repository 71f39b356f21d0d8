// The dispatch trace of the rnn ops (aten::lstm / gru / rnn_tanh / rnn_relu and the cells) and of
// F.multi_head_attention_forward against PyTorch 1.13's profiler tree (test/fixtures/gen_nn_seq.py,
// `trees`): the same ops in the same order, aten::lstm -> aten::unbind, aten::linear, ... per step.
// The rnn ops are compared down to the ops they call; multi_head_attention_forward (Python code, no
// aten op of its own) down to the ops it calls itself. Below that the trees are other families' ops.
// Known naming differences, normalised on both sides before comparing (engine/aten/native/rnn/RNN.ts):
// PyTorch's cells split gates with aten::unsafe_chunk and apply sigmoid_/tanh_/add_ in place on the
// chunks, Glasstorch uses aten::chunk and the out-of-place ops; so a trailing "_" is dropped from op
// names and unsafe_chunk reads chunk. aten::cudnn_is_acceptable (a CUDA-only query) is not called here.
import { describe } from "vitest";
import * as torch from "../../engine/index.js";
import { loadFixture } from "../support/fixtures.js";
import { itMatchesPyTorchTrees, type CallNode } from "../support/call_tree.js";

const fx = loadFixture("nn_seq.json");
const T = torch as any;
const F = T.nn.functional;

const rename = (op: string) => op.replace(/_$/, "").replace("aten::unsafe_chunk", "aten::chunk");
function prune(nodes: CallNode[], depth = 2): CallNode[] {
  return nodes
    .filter((n) => n.op !== "aten::cudnn_is_acceptable")
    .map((n) => ({ op: rename(n.op), children: depth > 1 ? prune(n.children, depth - 1) : [] }));
}

describe("rnn ops and multi_head_attention_forward: the op tree PyTorch 1.13 records", () => {
  const r = (...s: number[]) => torch.randn(...s);
  const x = r(2, 1, 3), h = r(1, 1, 4), c = r(1, 1, 4);
  const lw = [r(16, 3), r(16, 4), r(16), r(16)];
  const gw = [r(12, 3), r(12, 4), r(12), r(12)];
  const sw = [r(4, 3), r(4, 4), r(4), r(4)];
  const pw = [r(16, 3), r(16, 2), r(16), r(16), r(2, 4)];
  const x2 = r(1, 3), h2 = r(1, 4);
  const [ph, pc, xb] = [r(2, 1, 2), r(2, 1, 4), x.transpose(0, 1)];
  const q = r(3, 2, 4), kv = r(5, 2, 4);
  const [ipw, ipb, opw, opb] = [r(12, 4), r(12), r(4, 4), r(4)];
  const calls: Record<string, () => () => unknown> = {
    lstm: () => () => T.lstm(x, [h, c], lw, true, 1, 0.0, false, false, false),
    "lstm proj bidirectional": () => () => T.lstm(x, [ph, pc], [...pw, ...pw], true, 1, 0.0, false, true, false),
    gru: () => () => T.gru(x, h, gw, true, 1, 0.0, false, false, false),
    "rnn_tanh batch_first": () => () => T.rnn_tanh(xb, h, sw, true, 1, 0.0, false, false, true),
    "rnn_relu no bias": () => () => T.rnn_relu(x, h, sw.slice(0, 2), false, 1, 0.0, false, false, false),
    lstm_cell: () => () => T.lstm_cell(x2, [h2, h2], lw[0], lw[1], lw[2], lw[3]),
    gru_cell: () => () => T.gru_cell(x2, h2, gw[0], gw[1], gw[2], gw[3]),
    rnn_tanh_cell: () => () => T.rnn_tanh_cell(x2, h2, sw[0], sw[1], sw[2], sw[3]),
    rnn_relu_cell: () => () => T.rnn_relu_cell(x2, h2, sw[0], sw[1]),
    "mha self-attention": () => () => F.multi_head_attention_forward(q, q, q, 4, 2, ipw, ipb, null, null, false, 0.0, opw, opb, { training: false }),
    "mha encoder-decoder with masks": () => () =>
      F.multi_head_attention_forward(q, kv, kv, 4, 2, ipw, ipb, null, null, false, 0.0, opw, opb, {
        training: false,
        key_padding_mask: torch.zeros(2, 5, { dtype: torch.bool }),
        attn_mask: torch.zeros(3, 5, { dtype: torch.bool }),
      }),
  };
  itMatchesPyTorchTrees(fx.trees, calls, (nodes) => prune(nodes, nodes.some((n) => /rnn|lstm|gru/.test(n.op)) ? 2 : 1));
});
