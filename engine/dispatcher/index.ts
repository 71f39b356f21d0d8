// The dispatcher layer's public pieces (PyTorch: aten/src/ATen/core/dispatch/ and boxing/).

export {
  Dispatcher,
  OperatorHandle,
  RegistrationHandleRAII,
  type RegistrationDebug,
} from "./Dispatcher.js";
export { OperatorEntry, type BackendFallbackTable } from "./OperatorEntry.js";
export {
  AnnotatedKernel,
  KernelFunction,
  registrationSite,
  type BoxedKernel,
  type KernelKind,
  type KernelRegistrationInfo,
  type UnboxedKernel,
} from "./KernelFunction.js";
export { DispatchKeyExtractor, computeDispatchKeySetRepr, isTensorLike, type TensorLike } from "./DispatchKeyExtractor.js";
export {
  setDispatchObserver,
  type DispatchEvent,
  type DispatchObserver,
  type KernelDebugInfo,
} from "./DispatchObserver.js";
export {
  operatorNameToString,
  parseOperatorName,
  type OperatorName,
  type OperatorSchema,
  type OperatorSchemaArgument,
} from "./OperatorSchema.js";
