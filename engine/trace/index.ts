// The trace's public API: event types (the contract with the extension), the session recorder,
// and the sinks that write a trace as JSON lines, a Chrome trace or text.

export * from "./events.js";
export type { DispatchEvent, DispatchObserver, KernelDebugInfo, OperatorHandleLike, SetDispatchObserver } from "./hook.js";
export { TraceRecorder, DEFAULT_CAPACITY, qualifiedName, nowUs, type RecorderOptions, type TraceListener } from "./recorder.js";
export {
  recorder,
  attachTo,
  isTracing,
  startRecording,
  stopRecording,
  record,
  events,
  clear,
  subscribe,
  installIfEnv,
  noteApiBinding,
  TRACE_ENV_VAR,
  type Recording,
  type Recorded,
  type StartOptions,
  type SubscribeOptions,
} from "./session.js";
export { Summarizer, defaultSummaryLimits, isTensorLike, type SummaryLimits } from "./summarize.js";
export { captureCallSite } from "./callsite.js";
export { pytorchRefFor } from "./pytorch_refs.js";
export { toJSONL, toJSONLine, parseJSONL, jsonlListener } from "./sinks/jsonl.js";
export { toChromeTrace, toChromeTraceJSON, type ChromeTrace, type ChromeTraceEvent } from "./sinks/chrome.js";
export { TextPrinter, formatTrace, formatValue, textListener, type TraceLevel } from "./sinks/text.js";
