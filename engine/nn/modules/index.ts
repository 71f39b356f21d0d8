// torch.nn.modules: the layers, each in the file of its PyTorch module.

export { Module } from "./module.js";
export type { StateDict, IncompatibleKeys } from "./module.js";
export { Identity, Linear, Bilinear } from "./linear.js";
export { Sequential, ModuleList, ModuleDict, ParameterList, ParameterDict } from "./container.js";
export {
  ReLU, ReLU6, SELU, CELU, ELU, LeakyReLU, GELU, SiLU, Mish, Sigmoid, Tanh, LogSigmoid, Softsign, Tanhshrink, Threshold, Hardtanh,
  Hardswish, Hardsigmoid, Softplus, Softmax, LogSoftmax, Softmin, PReLU,
} from "./activation.js";
export { Dropout, Dropout1d, Dropout2d, Dropout3d, AlphaDropout, FeatureAlphaDropout } from "./dropout.js";
export { Flatten, Unflatten } from "./flatten.js";
export { Embedding } from "./sparse.js";
export { Conv1d, Conv2d, ConvTranspose1d, ConvTranspose2d } from "./conv.js";
export { MaxPool1d, MaxPool2d, AvgPool1d, AvgPool2d, AdaptiveAvgPool2d } from "./pooling.js";
export { BatchNorm1d, BatchNorm2d } from "./batchnorm.js";
export { InstanceNorm1d, InstanceNorm2d } from "./instancenorm.js";
export { LayerNorm, GroupNorm } from "./normalization.js";
export { L1Loss, MSELoss, NLLLoss, CrossEntropyLoss, BCELoss, BCEWithLogitsLoss, HuberLoss, SmoothL1Loss, KLDivLoss, CosineEmbeddingLoss, MarginRankingLoss } from "./loss.js";
export { RNNBase, RNN, LSTM, GRU, RNNCellBase, RNNCell, LSTMCell, GRUCell } from "./rnn.js";
export { MultiheadAttention, NonDynamicallyQuantizableLinear } from "./multihead_attention.js";
export { Transformer, TransformerEncoder, TransformerDecoder, TransformerEncoderLayer, TransformerDecoderLayer } from "./transformer.js";
