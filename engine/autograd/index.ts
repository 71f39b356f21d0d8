// torch.autograd: backward, grad, the grad-mode switches, and the graph's building blocks.

export { backward, grad } from "./autograd.js";
export { gradcheck, gradgradcheck, GradcheckError } from "./gradcheck.js";
export { no_grad, enable_grad, set_grad_enabled, is_grad_enabled, inference_mode } from "./grad_mode.js";
export { detect_anomaly, set_detect_anomaly } from "./anomaly_mode.js";
export { Node } from "./function.js";
import * as forwardAdNs from "./forward_ad.js";
export const forward_ad = forwardAdNs;
import * as graphNs from "./graph.js";
export const graph = graphNs;
export { Function, FunctionCtx, once_differentiable } from "./custom_function.js";
