// The trace event schema: the contract between the engine and the VS Code extension (DESIGN.md §3).
// Every event is plain JSON (no class instances, no NaN/Infinity, no bigint), so a trace can be
// written as JSON lines, sent over JSON-RPC, or saved and replayed later. The extension reads
// nothing else from the engine, so every field is documented here.
//
// Versioning: TRACE_SCHEMA_VERSION changes when a field is removed, renamed or changes meaning.
// Adding an optional field does not change it; readers ignore fields they do not know.
//
// Time: every `ts` is microseconds since `TraceHeader.timeOrigin` (performance.now() * 1000), a
// monotonic clock; every `dur` is microseconds. Both are fractional (sub-microsecond resolution).
//
// Identity: each event has a `seq`, its position in the recorder's stream (0, 1, 2, ... with no
// gaps). A call's `id` and a dispatch step's `id` are the `seq` of the event that opened them, so
// ids are unique within one recording and a gap in `seq` shows where the ring buffer dropped events.

export const TRACE_SCHEMA_VERSION = 1 as const;

// ---------------------------------------------------------------------------------------------
// Value summaries: what the trace says about an argument or a result. Never tensor data.
// ---------------------------------------------------------------------------------------------

/** A tensor, described by its metadata only. */
export interface TensorSummary {
  kind: "tensor";
  /** Identity within this recording: the same TensorImpl always gets the same number. */
  tid: number;
  /** Identity of the Storage: views of one tensor share it (as in the Tensor inspector). */
  storage: number | null;
  /** sizes(), e.g. [2, 3] */
  shape: number[];
  /** strides() in elements, e.g. [3, 1] */
  strides: number[];
  /** dtype name as Python prints it without `torch.`: "float32", "int64" */
  dtype: string;
  /** str(device): "cpu", "cuda:0", "meta" */
  device: string;
  requires_grad: boolean;
  /** The tensor's own dispatch key set as runtime key names, lowest priority first:
   * ["CPU", "ADInplaceOrView", "AutogradCPU", "AutocastCPU"] (torch._C._dispatch_keys). */
  keys: string[];
  /** The version counter (bumped by in-place ops; shared with views). */
  version?: number;
  /** Name of the autograd Node that produced it ("MulBackward0"), once autograd records one. */
  grad_fn?: string;
  /** A tensor made from a JS number for an op (PyTorch's wrapped number). */
  wrapped_number?: boolean;
}

/** A JSON-safe number: NaN and the infinities are spelled as strings, as JSON has no literal for them. */
export type JsonNumber = number | "nan" | "inf" | "-inf";

export type ValueSummary =
  | TensorSummary
  /** Tensor[] / Tensor?[]: every element summarized up to the list cap. */
  | { kind: "tensor_list"; length: number; items: (TensorSummary | { kind: "none" })[]; truncated: boolean }
  /** Any other array (int[] sizes, Scalar[] ...). */
  | { kind: "list"; length: number; items: ValueSummary[]; truncated: boolean }
  | { kind: "number"; value: JsonNumber }
  | { kind: "bigint"; value: string }
  | { kind: "bool"; value: boolean }
  /** Strings are cut at the string cap; `truncated` says so. */
  | { kind: "string"; value: string; truncated?: boolean }
  /** null or undefined (Python's None). */
  | { kind: "none" }
  /** A torch.dtype: "float32". */
  | { kind: "dtype"; name: string }
  /** A torch.device: "cuda:0". */
  | { kind: "device"; value: string }
  /** A plain options object ({dtype, device, keepdim}), fields summarized up to the cap. */
  | { kind: "object"; type: string; fields: Record<string, ValueSummary>; truncated: boolean }
  /** Anything else (a Generator, a function, a deep value past the depth cap). */
  | { kind: "other"; type: string; repr: string };

/** One argument of a call. */
export interface ArgSummary {
  /** The schema's argument name when the operator handle provides it ("self", "other", "alpha"). */
  name?: string;
  value: ValueSummary;
}

/** An error, as thrown through the dispatcher. */
export interface ErrorSummary {
  /** The exception type: "RuntimeError", "NotImplementedError", ... */
  name: string;
  message: string;
  /** The operator the error names, when the engine's error carries one. */
  op?: string;
}

/** A place in a source file. Lines and columns are 1-based, as editors show them. */
export interface SourceLocation {
  /** Absolute file path (or a URL when the frame was not a file, e.g. a notebook cell's uri). */
  file: string;
  line: number;
  column: number;
}

// ---------------------------------------------------------------------------------------------
// Events
// ---------------------------------------------------------------------------------------------

interface EventBase {
  /** Position in the recorder's stream; see "Identity" above. */
  seq: number;
  /** Microseconds since TraceHeader.timeOrigin. */
  ts: number;
}

/**
 * An operator call entered the dispatcher (Dispatcher::call). Always followed by the
 * DispatchStepEvent of its first step. Calls made from inside a kernel are children.
 */
export interface CallEvent extends EventBase {
  type: "call";
  /** This call's id (= seq). */
  id: number;
  /** The call whose kernel made this call (a composite op calling other ops), or null at top level. */
  parent: number | null;
  /** The step (DispatchStepEvent.id) of the parent whose kernel made this call, or null. */
  parentStep: number | null;
  /** Nesting depth: 0 for a call from user code, parent's depth + 1 otherwise. */
  depth: number;
  /** Operator name with namespace: "aten::add". */
  op: string;
  /** Overload name: "Tensor"; "" for the default overload (torch.ops spells it `default`). */
  overload: string;
  /** op + "." + overload, as PyTorch's trace prints it: "aten::add.Tensor" ("aten::sum" when overload is ""). */
  name: string;
  /** The full schema: "aten::add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor". */
  schema: string;
  /** Positional arguments as the dispatcher received them. */
  args: ArgSummary[];
  /** The first stack frame outside the engine (the user's line), through source maps; null if
   * call sites are off or no such frame exists. */
  callSite: SourceLocation | null;
  /** The API the user called, when the binding reported it: "torch.add", "Tensor.add", "Tensor.__add__". */
  apiBinding: string | null;
}

/** The kernel a dispatch step chose (OperatorEntry's table entry for the key). */
export interface KernelInfo {
  /** The kernel's name as registered: "add_Tensor" (VariableType), "add_out_cpu" ... */
  name: string;
  /** Why this kernel is in the table for this key, PyTorch's words: "kernel", "default backend kernel",
   * "math kernel", "autograd kernel", "backend fallback", "fallthrough", "missing". */
  provenance: string;
  /** Where it was registered, "file:line" (what _dispatch_dump_table prints after "registered at"). */
  registeredAt: string;
  /** "kernel": an op-specific kernel; "fallback": a boxed backend fallback serving every op;
   * "fallthrough": "skip this key" (normally masked away before lookup, so rarely seen here). */
  kind: "kernel" | "fallback" | "fallthrough";
  /** "file:line" of the generated code this kernel is, when it came from codegen; else null. */
  generatedAt: string | null;
  /** The PyTorch source file where the same step lives, when one does:
   * AutogradCPU -> "torch/csrc/autograd/generated/VariableType_*.cpp",
   * ADInplaceOrView -> "torch/csrc/autograd/generated/ADInplaceOrViewType_*.cpp",
   * BackendSelect -> "build/aten/src/ATen/RegisterBackendSelect.cpp",
   * CPU -> "aten/src/ATen/native/<File>.cpp" when known, else "build/aten/src/ATen/RegisterCPU.cpp",
   * fallbacks -> the fallback's file ("aten/src/ATen/core/PythonFallbackKernel.cpp"). */
  pytorchRef: string | null;
}

/**
 * One step of a call through the dispatcher: the key that was chosen and the kernel that ran for
 * it. The first step of a call has redispatch=false; each layer kernel that passes the call down
 * (autograd -> ADInplaceOrView -> CPU) adds a step with redispatch=true.
 */
export interface DispatchStepEvent extends EventBase {
  type: "dispatch";
  /** This step's id (= seq). */
  id: number;
  /** The call this step belongs to. */
  call: number;
  /** "aten::add.Tensor": same as the call's name for ordinary layers. */
  op: string;
  /** false for the call's entry (Dispatcher::call); true for Dispatcher::redispatch. */
  redispatch: boolean;
  /** TLS include set at the time of the step (LocalDispatchKeySet.included_), key names. */
  tlsIncluded: string[];
  /** TLS exclude set (LocalDispatchKeySet.excluded_), key names. */
  tlsExcluded: string[];
  /** The key set the lookup used: for a first step, (OR of tensor key sets | TLS include) - TLS
   * exclude, masked by the op's non-fallthrough keys; for a redispatch, the set the kernel passed. */
  keySet: string[];
  /** The redispatch mask the kernel applied (after_autograd_keyset ...), or null for a first step
   * or when the dispatcher did not report it. */
  mask: string[] | null;
  /** The runtime key that won: the highest-priority key of keySet ("AutogradCPU"). */
  key: string;
  kernel: KernelInfo;
}

/** A redispatch step's kernel returned (a call's first step ends with the call's ReturnEvent). */
export interface StepEndEvent extends EventBase {
  type: "step_end";
  /** The DispatchStepEvent.id that ended. */
  step: number;
  call: number;
  dur: number;
  error?: ErrorSummary;
}

/** A call returned or threw. */
export interface ReturnEvent extends EventBase {
  type: "return";
  /** The CallEvent.id that ended. */
  call: number;
  /** Time from the CallEvent to this event, including nested calls. */
  dur: number;
  /** The result summary when it returned (absent when it threw). */
  result?: ValueSummary;
  /** The error when it threw. */
  error?: ErrorSummary;
}

/**
 * Which implementation a CPU/CUDA kernel's DispatchStub chose and how long it ran (DESIGN.md §2,
 * "Kernels"). Emitted by the kernel layer, attached to the dispatch step that is running.
 */
export interface KernelEvent extends EventBase {
  type: "kernel";
  /** The call and step running when the kernel ran, or null if none was open. */
  call: number | null;
  step: number | null;
  /** The stub's name: "add_stub". */
  stub: string;
  /** "ts": the TypeScript reference kernel; "native": the C++ addon; "cuda": a CUDA kernel. */
  impl: "ts" | "native" | "cuda";
  /** The capability the stub picked: "DEFAULT", "AVX2", "AVX512" (ATEN_CPU_CAPABILITY) or "sm_90". */
  capability: string;
  /** true when a setting forced the choice rather than capability and size. */
  forced: boolean;
  /** Time the kernel ran, µs; `ts` is when it started (the event is emitted when it ends, so its
   * ts can be earlier than the events before it in the stream). */
  dur: number;
  /** The PyTorch file of the same kernel ("aten/src/ATen/native/cpu/BinaryOpsKernel.cpp"), if known. */
  pytorchRef: string | null;
}

/** An autograd Node as events name it. */
export interface NodeRef {
  /** Identity of the Node within this recording. */
  id: number;
  /** Class name: "MulBackward0", "AccumulateGrad". */
  name: string;
}

/** Forward: the autograd kernel created a Node (torch/csrc/autograd/generated/Functions.h). */
export interface AutogradNodeCreatedEvent extends EventBase {
  type: "autograd.node";
  node: NodeRef;
  /** The call and step whose autograd kernel created it, or null. */
  call: number | null;
  step: number | null;
  /** sequence_nr: backward runs ready Nodes in descending order of it. */
  sequenceNr: number;
  /** The saved variables by the name the formula uses ("self", "other", "result"). */
  saved: { name: string; value: ValueSummary }[];
  /** next_edges: where each input's gradient goes; null node = an input that needs no grad. */
  nextEdges: { node: NodeRef | null; inputNr: number }[];
  pytorchRef: string | null;
}

/** Backward: the engine ran a Node (torch/csrc/autograd/engine.cpp, evaluate_function). */
export interface AutogradNodeExecutedEvent extends EventBase {
  type: "autograd.exec";
  node: NodeRef;
  /** Gradients flowing in (one per output of the forward op). */
  gradsIn: ValueSummary[];
  /** Gradients flowing out (one per next edge). */
  gradsOut: ValueSummary[];
  /** Time the Node ran, µs; `ts` is when it started (the event is emitted when it ends). */
  dur: number;
  pytorchRef: string | null;
}

/** Backward: AccumulateGrad wrote into a leaf's .grad (accumulate_grad.cpp). */
export interface AutogradAccumulateGradEvent extends EventBase {
  type: "autograd.accumulate";
  node: NodeRef;
  /** The leaf tensor whose .grad was written. */
  variable: TensorSummary;
  /** The gradient added. */
  grad: ValueSummary;
  /** true when .grad existed and was added to; false when it was set. */
  accumulated: boolean;
  pytorchRef: string | null;
}

/** A hook fired (tensor pre-hooks, retain_grad, node pre/post hooks, post-accumulate hooks). */
export interface AutogradHookEvent extends EventBase {
  type: "autograd.hook";
  node: NodeRef | null;
  hook: "tensor_pre" | "retain_grad" | "pre" | "post" | "post_accumulate";
  /** The hook function's name when it has one. */
  name: string | null;
  pytorchRef: string | null;
}

export type AutogradEvent =
  | AutogradNodeCreatedEvent
  | AutogradNodeExecutedEvent
  | AutogradAccumulateGradEvent
  | AutogradHookEvent;

/** Everything a recorder emits. Switch on `type`. */
export type TraceEvent = CallEvent | DispatchStepEvent | StepEndEvent | ReturnEvent | KernelEvent | AutogradEvent;

/** Describes a recording; the first line of a JSONL trace, `otherData` in a Chrome trace. */
export interface TraceHeader {
  type: "header";
  schemaVersion: typeof TRACE_SCHEMA_VERSION;
  engine: "glasstorch";
  /** performance.timeOrigin: the epoch milliseconds at which ts = 0. */
  timeOrigin: number;
  /** Wall-clock time the header was made, ISO 8601. */
  createdAt: string;
  /** The ring buffer's capacity in events. */
  capacity: number;
  /** Events the ring buffer dropped (oldest first) before this trace was taken. */
  dropped: number;
}
