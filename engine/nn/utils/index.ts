// torch.nn.utils: gradient clipping; torch.nn.utils.rnn (PackedSequence and packing).

export { clip_grad_norm_, clip_grad_norm, clip_grad_value_ } from "./clip_grad.js";
export * as rnn from "./rnn.js";
