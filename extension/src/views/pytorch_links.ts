// The PyTorch source file of each Dispatch Trace step, as a link to github.com/pytorch/pytorch at
// the release Glasstorch follows. Pure (no vscode): the trace model and its tests use it.
//
// Some files the trace names exist only in a PyTorch build tree (build/aten/src/ATen/RegisterCPU.cpp,
// torch/csrc/autograd/generated/VariableType_*.cpp): those link to the template the build generates
// them from, and say so.

export const PYTORCH_TAG = "v1.13.1";
const REPO = "https://github.com/pytorch/pytorch/blob";

/** Files of the dispatcher's own steps (shared/reference/pytorch-internals.md §10). */
export const PYTORCH_FILES = {
  dispatcher: "aten/src/ATen/core/dispatch/Dispatcher.h",
  keyExtractor: "aten/src/ATen/core/dispatch/DispatchKeyExtractor.h",
  keySet: "c10/core/DispatchKeySet.h",
  tensorKeySet: "c10/core/TensorImpl.h",
  localKeySet: "c10/core/impl/LocalDispatchKeySet.h",
  dispatchStub: "aten/src/ATen/native/DispatchStub.h",
} as const;

export interface PyTorchLink {
  /** The file as the trace names it ("torch/csrc/autograd/generated/VariableType_*.cpp"). */
  file: string;
  /** The page opened: the file itself, or the template a generated file comes from. */
  url: string;
  /** For a generated file: the template in the repository that the url shows. */
  template?: string;
}

/** Generated (build-time) files -> the template in the repository that generates them. */
function templateOf(file: string): string | undefined {
  const name = file.slice(file.lastIndexOf("/") + 1);
  if (file.startsWith("torch/csrc/autograd/generated/")) {
    // VariableType_*.cpp, ADInplaceOrViewType_*.cpp, python_torch_functions_*.cpp: sharded outputs of one template.
    const base = name.replace(/_(\*|\d+)(\.\w+)$/, "$2");
    return `tools/autograd/templates/${base}`;
  }
  if (file.startsWith("build/aten/src/ATen/")) {
    if (name === "RegisterBackendSelect.cpp") return "aten/src/ATen/templates/RegisterBackendSelect.cpp";
    // RegisterCPU.cpp, RegisterMeta.cpp, RegisterCompositeImplicitAutograd.cpp ...: one template per dispatch key.
    if (/^Register\w+\.cpp$/.test(name)) return "aten/src/ATen/templates/RegisterDispatchKey.cpp";
    return `aten/src/ATen/templates/${name}`;
  }
  return undefined;
}

/** A PyTorch path (relative to a pytorch/pytorch checkout) -> the page to open. */
export function pytorchLink(file: string): PyTorchLink {
  const template = templateOf(file);
  return { file, url: `${REPO}/${PYTORCH_TAG}/${template ?? file}`, ...(template ? { template } : {}) };
}

/** Paths the open command accepts from a link (a tooltip's command: URI is a string anyone can write). */
export function isPyTorchPath(v: unknown): v is string {
  return typeof v === "string" && v.length < 200 && /^(aten|c10|torch|tools|build|caffe2|third_party)\/[\w./*-]+\.(cpp|h|cu|py|yaml)$/.test(v) && !v.includes("..");
}

/** The generated Python binding a call went through ("Tensor.mul" -> python_variable_methods.cpp). */
export function bindingFile(apiBinding: string): string {
  const gen = "torch/csrc/autograd/generated/";
  if (apiBinding.startsWith("Tensor.")) return `${gen}python_variable_methods.cpp`;
  const m = /^torch\.(?:_C\._)?(nn|linalg|special|fft|sparse|nested)\./.exec(apiBinding) ?? /^torch\.nn\.(functional)\./.exec(apiBinding);
  if (m) return `${gen}python_${m[1] === "functional" ? "nn" : m[1]}_functions.cpp`;
  return `${gen}python_torch_functions_*.cpp`;
}
