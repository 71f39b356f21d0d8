// torch.testing: helpers PyTorch ships for tests and learning.
export { LoggingTensorMode } from "./core/logging_tensor_mode.js";
