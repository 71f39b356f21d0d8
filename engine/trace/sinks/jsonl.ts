// JSON lines: the header on the first line, then one event per line. The format the engine host
// streams to the extension and the one "export trace as JSON" writes.

import { TRACE_SCHEMA_VERSION, type TraceEvent, type TraceHeader } from "../events.js";

/** One event (or the header) as a line, without the newline. */
export function toJSONLine(e: TraceEvent | TraceHeader): string {
  return JSON.stringify(e);
}

/** A whole trace; every line ends with "\n". */
export function toJSONL(events: readonly TraceEvent[], header?: TraceHeader): string {
  let out = header ? toJSONLine(header) + "\n" : "";
  for (const e of events) out += toJSONLine(e) + "\n";
  return out;
}

/** Reads a JSONL trace back; refuses a header of another schema version. */
export function parseJSONL(text: string): { header: TraceHeader | null; events: TraceEvent[] } {
  let header: TraceHeader | null = null;
  const events: TraceEvent[] = [];
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i].trim();
    if (line === "") continue;
    let obj: { type?: unknown; schemaVersion?: unknown };
    try {
      obj = JSON.parse(line) as typeof obj;
    } catch (err) {
      throw new SyntaxError(`trace line ${i + 1} is not JSON: ${(err as Error).message}`);
    }
    if (obj.type === "header") {
      if (obj.schemaVersion !== TRACE_SCHEMA_VERSION) {
        throw new Error(`trace schema version ${String(obj.schemaVersion)} is not supported (this engine reads version ${TRACE_SCHEMA_VERSION})`);
      }
      header = obj as TraceHeader;
    } else {
      events.push(obj as TraceEvent);
    }
  }
  return { header, events };
}

/** A streaming listener that writes one line per event (e.g. to a file or a socket). */
export function jsonlListener(write: (chunk: string) => void, header?: TraceHeader): (e: TraceEvent) => void {
  if (header) write(toJSONLine(header) + "\n");
  return (e) => write(toJSONLine(e) + "\n");
}
