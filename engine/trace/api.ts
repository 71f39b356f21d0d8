// torch.trace: record what the dispatcher does and print or export it.
export { record, startRecording, stopRecording, events, clear, subscribe, isTracing } from "./session.js";
export { formatTrace } from "./sinks/text.js";
export { toJSONL, parseJSONL } from "./sinks/jsonl.js";
export { toChromeTrace, toChromeTraceJSON } from "./sinks/chrome.js";
export { TRACE_SCHEMA_VERSION } from "./events.js";
