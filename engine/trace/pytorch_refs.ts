// Where in PyTorch's source the same dispatch step lives (shared/reference/pytorch-internals.md §10).
// Paths are relative to a pytorch/pytorch checkout; "build/..." and "*_N.cpp" files are generated
// there, as ours are under engine/generated/.

/** Boxed backend fallbacks and fallthroughs, per runtime key. */
const fallbackFiles: Record<string, string> = {
  BackendSelect: "aten/src/ATen/core/BackendSelectFallbackKernel.cpp",
  Python: "aten/src/ATen/core/PythonFallbackKernel.cpp",
  PythonTLSSnapshot: "aten/src/ATen/core/PythonFallbackKernel.cpp",
  ADInplaceOrView: "aten/src/ATen/core/VariableFallbackKernel.cpp",
  AutogradOther: "aten/src/ATen/core/VariableFallbackKernel.cpp",
  AutogradCPU: "aten/src/ATen/core/VariableFallbackKernel.cpp",
  AutogradCUDA: "aten/src/ATen/core/VariableFallbackKernel.cpp",
  AutogradMeta: "aten/src/ATen/core/VariableFallbackKernel.cpp",
  AutocastCPU: "aten/src/ATen/autocast_mode.cpp",
  AutocastCUDA: "aten/src/ATen/autocast_mode.cpp",
};

/** The native/*.cpp file holding an op's CPU/CUDA implementation, by base name (no namespace,
 * no trailing "_"). Only ops whose file is certain are listed; others fall back to RegisterCPU.cpp. */
const nativeFiles: Record<string, string> = {};
function files(file: string, ops: string): void {
  for (const op of ops.split(" ")) nativeFiles[op] = `aten/src/ATen/native/${file}`;
}
files("BinaryOps.cpp", "add sub mul div rsub remainder fmod eq ne lt le gt ge maximum minimum logical_and logical_or logical_xor atan2");
files("UnaryOps.cpp", "neg abs exp log log2 log10 log1p expm1 sqrt rsqrt sin cos tan sinh cosh tanh asin acos atan sigmoid ceil floor round trunc sign reciprocal erf frac");
files("ReduceOps.cpp", "sum mean prod amax amin max min argmax argmin std var norm cumsum cumprod logsumexp all any");
files("LinearAlgebra.cpp", "mm bmm matmul addmm addmv addbmm baddbmm dot vdot mv outer");
files("TensorShape.cpp", "view reshape transpose permute expand select slice squeeze unsqueeze as_strided cat stack split chunk t flatten narrow unbind diagonal");
files("TensorFactories.cpp", "empty empty_strided zeros ones full eye empty_like zeros_like ones_like full_like randperm clone tril triu");
files("RangeFactories.cpp", "arange linspace logspace range");
files("Distributions.cpp", "normal uniform bernoulli random exponential multinomial");
files("Copy.cpp", "copy");
files("Fill.cpp", "fill");
files("TensorConversions.cpp", "_to_copy to contiguous");
files("Activation.cpp", "relu gelu threshold hardtanh elu leaky_relu silu softplus relu6 selu celu mish hardsigmoid hardswish log_sigmoid log_sigmoid_forward");
files("SoftMax.cpp", "softmax log_softmax _softmax _log_softmax");
files("Pow.cpp", "pow");
files("TensorCompare.cpp", "where clamp clamp_min clamp_max isclose allclose");
files("TensorAdvancedIndexing.cpp", "index index_select gather scatter scatter_add index_put masked_fill");
files("Embedding.cpp", "embedding");
files("Dropout.cpp", "dropout feature_dropout alpha_dropout feature_alpha_dropout");
files("Linear.cpp", "linear einsum bilinear");
files("Convolution.cpp", "convolution conv1d conv2d conv3d");
files("layer_norm.cpp", "layer_norm native_layer_norm");
files("Normalization.cpp", "batch_norm native_batch_norm");
files("Loss.cpp", "mse_loss binary_cross_entropy binary_cross_entropy_with_logits l1_loss smooth_l1_loss huber_loss kl_div");
files("LossNLL.cpp", "nll_loss cross_entropy cross_entropy_loss nll_loss_nd nll_loss_forward");
files("LossNLL2d.cpp", "nll_loss2d nll_loss2d_forward");

function baseName(opName: string): string {
  const bare = opName.includes("::") ? opName.slice(opName.indexOf("::") + 2) : opName;
  return bare.endsWith("_") && !bare.startsWith("_") ? bare.slice(0, -1) : bare;
}

/** The PyTorch file of the native implementation of an aten op, if listed. */
export function nativeFileOf(opName: string): string | null {
  if (!opName.startsWith("aten::")) return null;
  return nativeFiles[baseName(opName)] ?? null;
}

/**
 * The PyTorch file where the step (key, kernel) of an op lives.
 * @param op the operator name without overload ("aten::add")
 * @param key the runtime key name ("AutogradCPU")
 */
export function pytorchRefFor(op: string, key: string, kind: "kernel" | "fallback" | "fallthrough", provenance: string): string | null {
  // No kernel ran: the error comes from the dispatcher itself (OperatorEntry::reportError).
  if (provenance === "missing" || provenance.startsWith("ambiguous")) return "aten/src/ATen/core/dispatch/OperatorEntry.cpp";
  if (kind !== "kernel" || provenance === "backend fallback" || provenance === "fallthrough") return fallbackFiles[key] ?? null;
  // A user's own operator (torch.library) has its kernels in the user's code, not in PyTorch.
  if (!op.startsWith("aten::")) return null;
  // Alias-key kernels live in the alias's generated registration file, whatever the runtime key.
  if (provenance === "math kernel") return "build/aten/src/ATen/RegisterCompositeImplicitAutograd.cpp";
  if (provenance === "default backend kernel") return "build/aten/src/ATen/RegisterCompositeExplicitAutograd.cpp";
  if (provenance === "autograd kernel" || key.startsWith("Autograd")) return "torch/csrc/autograd/generated/VariableType_*.cpp";
  switch (key) {
    case "ADInplaceOrView":
      return "torch/csrc/autograd/generated/ADInplaceOrViewType_*.cpp";
    case "BackendSelect":
      return "build/aten/src/ATen/RegisterBackendSelect.cpp";
    case "AutocastCPU":
    case "AutocastCUDA":
      return "aten/src/ATen/autocast_mode.cpp";
    case "Python":
    case "PythonTLSSnapshot":
      return "aten/src/ATen/core/PythonFallbackKernel.cpp";
    case "CPU":
    case "CUDA":
      return nativeFileOf(op) ?? `build/aten/src/ATen/Register${key}.cpp`;
    case "Meta":
      return "build/aten/src/ATen/RegisterMeta.cpp";
    case "Undefined":
      return null;
  }
  return null;
}
