// A recorded trace repeated `times` times, with seq, ids and times shifted so every copy is a new
// call: big traces for the tree and pager tests from one small recorded run.
import type { TraceEvent } from "../../../engine/trace/events.js";

export function repeatedTrace(recorded: readonly TraceEvent[], times: number): TraceEvent[] {
  const n = recorded.length;
  const span = recorded.at(-1)!.ts - recorded[0].ts + 100;
  const events: TraceEvent[] = [];
  for (let k = 0; k < times; k++) {
    for (const e of recorded) {
      const copy = JSON.parse(JSON.stringify(e)) as Record<string, unknown>;
      copy.seq = e.seq + k * n;
      copy.ts = e.ts + k * span;
      for (const f of ["id", "call", "step", "parent", "parentStep"]) if (typeof copy[f] === "number") copy[f] = (copy[f] as number) + k * n;
      events.push(copy as unknown as TraceEvent);
    }
  }
  return events;
}
