// The engine host protocol: what the VS Code extension and the engine host process say to each
// other over JSON-RPC (vscode-jsonrpc on the host's stdin/stdout). The extension never imports the
// engine; everything it shows comes through these messages and the trace schema
// (engine/trace/events.ts), which they carry unchanged.
//
// Versioning: HOST_PROTOCOL_VERSION changes when a message or field is removed, renamed or changes
// meaning. Adding an optional field does not change it.

import { NotificationType, RequestType, RequestType0 } from "vscode-jsonrpc";
import type { TraceEvent, TraceHeader } from "../../engine/trace/events.js";

export const HOST_PROTOCOL_VERSION = 1 as const;

// ---------------------------------------------------------------------------------------------
// Settings and session
// ---------------------------------------------------------------------------------------------

/** `glasstorch.cpuKernels`: which CPU kernels the DispatchStubs pick. */
export type CpuKernelPath = "auto" | "typescript" | "native";

export interface HostSettings {
  cpuKernels: CpuKernelPath;
  /** Record the dispatch trace and autograd events of each run. */
  tracing: boolean;
  /** Most trace events kept per run; older ones are dropped (the trace says how many). */
  traceLimit: number;
}

export interface InitializeParams {
  protocolVersion: typeof HOST_PROTOCOL_VERSION;
  settings: HostSettings;
  /** Folder relative imports in cells resolve from (the notebook's folder). */
  cwd: string;
}

export interface InitializeResult {
  protocolVersion: typeof HOST_PROTOCOL_VERSION;
  engineVersion: string;
  pid: number;
  /** What the status bar shows: the CPU kernel path in effect and the devices available. */
  backend: BackendInfo;
  traceHeader: TraceHeader;
  /** The folder the engine sources were read from (the views' `file` paths are relative to it). */
  engineRoot?: string;
}

export interface BackendInfo {
  /** The CPU kernels actually in use ("native" only when the addon loaded). */
  cpuKernels: "typescript" | "native";
  /** Why the native path is not used, when it was asked for or "auto" found no addon. */
  nativeUnavailableReason?: string;
  /** The native kernels' instruction set ("AVX2", "AVX512"), when they are in use. */
  capability?: string;
  devices: string[];
}

// ---------------------------------------------------------------------------------------------
// Running cells
// ---------------------------------------------------------------------------------------------

export interface RunParams {
  /** Chosen by the extension; every notification about this run carries it. */
  runId: number;
  /** The cell's document URI (vscode-notebook-cell:...); error stacks and call sites name it. */
  cellUri: string;
  /** 0-based index of the cell in its notebook, for messages ("cell 3, line 2"). */
  cellIndex: number;
  /** The cell's TypeScript source. Top-level declarations persist into later cells. */
  code: string;
}

export type RunStatus = "ok" | "error" | "interrupted";

export interface RunResult {
  runId: number;
  status: RunStatus;
  /** The value of the cell's last expression statement, if it has one and it is not undefined. */
  value?: CellOutput;
  error?: RunError;
  durationMs: number;
  /** Trace events recorded for this run (delivered by `trace/events`); 0 when tracing is off. */
  traceEvents: number;
  /** For an interrupted run: ms from the interrupt reaching the host to this reply. */
  interruptMs?: number;
}

export interface RunError {
  /** The exception's class name as shown: "RuntimeError", "TypeError", "KeyboardInterrupt". */
  name: string;
  message: string;
  /** The operator that raised it, for engine errors ("aten::mm"). */
  op?: string;
  /** Where in the user's cell it was raised (1-based line and column, mapped through the transpile). */
  location?: { cellUri: string; line: number; column: number };
  /** Stack with frames in the user's cells mapped back to cell lines; engine frames kept as they are. */
  stack?: string;
}

/** One piece of output: console output, a displayed value, a progress bar. */
export type CellOutput =
  | { kind: "text"; stream: "stdout" | "stderr"; text: string }
  | TensorOutput
  /** Any other value, printed as Node's util.inspect prints it. */
  | { kind: "value"; text: string };

/** A tensor: its PyTorch repr plus what the rich view (heat map / histogram) needs. */
export interface TensorOutput {
  kind: "tensor";
  /** str(tensor), exactly as PyTorch prints it. */
  repr: string;
  shape: number[];
  dtype: string;
  device: string;
  requires_grad: boolean;
  grad_fn?: string;
  /** A handle for later requests about this tensor (`tensor/inspect`, `graph/get`). */
  handle: number;
  /** Data for the rich view; absent for non-numeric dtypes, meta tensors and empty tensors. */
  rich?: TensorRichData;
}

export type TensorRichData =
  /** 2-D (after squeezing) and small enough: every value, row-major, as float64. */
  | { view: "heatmap"; rows: number; cols: number; values: (number | null)[]; min: number; max: number }
  /** Otherwise: a histogram of the finite values. */
  | { view: "histogram"; edges: number[]; counts: number[]; min: number; max: number; nonFinite: number };

/** Streamed while a cell runs: console output, displayed values, progress. */
export interface OutputNotification {
  runId: number;
  output: CellOutput;
}

/** A progress bar (torch.utils.progress / the tqdm-style helper), updated as the loop goes. */
export interface ProgressNotification {
  runId: number;
  /** One run can show several bars. */
  barId: number;
  label?: string;
  current: number;
  total?: number;
  /** Rate and remaining time as the helper computes them, for display. */
  rate?: number;
  done: boolean;
}

/** Trace events of a run, streamed in batches as they are recorded. */
export interface TraceEventsNotification {
  runId: number;
  events: TraceEvent[];
  /** Events the per-run limit made the host drop before this batch. */
  dropped: number;
}

// ---------------------------------------------------------------------------------------------
// Inspecting the engine (the views)
// ---------------------------------------------------------------------------------------------

export interface TensorInspectParams {
  handle: number;
}

export interface TensorInspectResult {
  shape: number[];
  strides: number[];
  storage_offset: number;
  dtype: string;
  device: string;
  is_contiguous: boolean;
  /** Storage identity and size, so views of one storage can be grouped. */
  storage: { id: number; nbytes: number };
  version: number;
  requires_grad: boolean;
  is_leaf: boolean;
  grad_fn?: string;
  /** Handle of `_base` for a view. */
  base?: number;
  /** Handle of `.grad`, if set. */
  grad?: number;
}

export interface GraphGetParams {
  /** Graph of grad_fn nodes reachable from this tensor. */
  handle: number;
  /** Nodes beyond this are not sent (`truncated` says so). */
  maxNodes: number;
}

export interface GraphNode {
  /** Stable for the Node's lifetime. */
  id: number;
  /** "MulBackward0", "AccumulateGrad". */
  name: string;
  sequence_nr: number;
  /** Saved tensors as `_saved_<name>` fields show them. */
  saved: { name: string; shape: number[]; dtype: string; version: number }[];
  /** The derivatives.yaml formula(s) the Node evaluates, "self: grad * other". */
  formula?: string;
  /** For AccumulateGrad: the leaf variable and its .grad. */
  variable?: { handle: number; shape: number[]; dtype: string; grad?: { handle: number; repr: string } };
  /** Where the forward op was called (file:line), when known. */
  callSite?: string;
}

export interface GraphEdge {
  from: number;
  to: number;
  input_nr: number;
}

export interface GraphGetResult {
  root: number | null;
  nodes: GraphNode[];
  edges: GraphEdge[];
  truncated: boolean;
}

export interface DispatchTableParams {
  /** "aten::add.Tensor" or "add.Tensor" or "add". */
  op: string;
}

export interface DispatchTableRow {
  /** Runtime key: "CPU", "AutogradCPU", "ADInplaceOrView" ... */
  key: string;
  /** The kernel registered directly at this key, if any. */
  registered?: { name: string; provenance: string; location?: string };
  /** The kernel the dispatch table holds for this key after alias keys and fallbacks are computed. */
  computed?: { name: string; provenance: string; location?: string };
}

export interface DispatchTableResult {
  op: string;
  schema: string;
  rows: DispatchTableRow[];
  /** torch._C._dispatch_dump_table's text, for the "same content as PyTorch" check. */
  dumpTable: string;
}

export interface OpListResult {
  /** Every registered operator: qualified name, overload, and the backends with a kernel. */
  ops: { name: string; overload: string; backends: string[]; hasAutograd: boolean }[];
  backends: string[];
}

export interface GeneratedCodeParams {
  op: string;
}

/** One section of an operator's generated-code document, with where it came from. */
export interface GeneratedCodeSection {
  title: string;
  /** The text shown (yaml declaration, binding, registration, Autograd kernel, Node class...). */
  text: string;
  /** File and 1-based line range the text was taken from (workspace-relative engine paths). */
  source?: { file: string; startLine: number; endLine: number };
  /** Further links: the kernels it names, the PyTorch file with the same step. */
  links?: { label: string; file: string; line?: number }[];
}

export interface GeneratedCodeResult {
  op: string;
  sections: GeneratedCodeSection[];
}

// ---------------------------------------------------------------------------------------------
// Message types
// ---------------------------------------------------------------------------------------------

export const Initialize = new RequestType<InitializeParams, InitializeResult, void>("glasstorch/initialize");
export const Run = new RequestType<RunParams, RunResult, void>("glasstorch/run");
/** Interrupt the run. Sent with SIGINT as well: a cell in a synchronous loop cannot read messages. */
export const Interrupt = new NotificationType<{ runId: number }>("glasstorch/interrupt");
export const UpdateSettings = new NotificationType<HostSettings>("glasstorch/updateSettings");
/** Host -> extension, after UpdateSettings was applied: the backend now in effect (the status bar shows it). */
export const BackendChanged = new NotificationType<BackendInfo>("glasstorch/backendChanged");

export const Output = new NotificationType<OutputNotification>("glasstorch/output");
export const Progress = new NotificationType<ProgressNotification>("glasstorch/progress");
export const TraceEvents = new NotificationType<TraceEventsNotification>("glasstorch/traceEvents");

export const TensorInspect = new RequestType<TensorInspectParams, TensorInspectResult, void>("glasstorch/tensorInspect");
export const GraphGet = new RequestType<GraphGetParams, GraphGetResult, void>("glasstorch/graph");
export const DispatchTable = new RequestType<DispatchTableParams, DispatchTableResult, void>("glasstorch/dispatchTable");
export const OpList = new RequestType0<OpListResult, void>("glasstorch/opList");
export const GeneratedCode = new RequestType<GeneratedCodeParams, GeneratedCodeResult, void>("glasstorch/generatedCode");
