// torch.nn.utils: gradient clipping.

export { clip_grad_norm_, clip_grad_norm, clip_grad_value_ } from "./clip_grad.js";
