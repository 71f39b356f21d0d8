// A run's trace events, streamed to the extension in batches as they are recorded. At most `limit`
// events are sent per run; the rest are counted as dropped (each batch says how many so far).

import type { TraceEvent } from "../../engine/trace/events.js";
import type { TraceEventsNotification } from "./protocol.js";

const FLUSH_MS = 50;
const BATCH_MAX = 1000;

export class TraceStream {
  private batch: TraceEvent[] = [];
  private timer: NodeJS.Timeout | null = null;
  sentCount = 0;
  dropped = 0;
  private droppedSent = 0;

  constructor(
    private readonly runId: number,
    private readonly limit: number,
    private readonly send: (n: TraceEventsNotification) => void,
  ) {}

  readonly push = (ev: TraceEvent): void => {
    if (this.sentCount + this.batch.length >= this.limit) {
      this.dropped++;
      return;
    }
    this.batch.push(ev);
    if (this.batch.length >= BATCH_MAX) this.flush();
    else if (!this.timer) this.timer = setTimeout(() => this.flush(), FLUSH_MS);
  };

  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.batch.length === 0) return;
    const events = this.batch;
    this.batch = [];
    this.sentCount += events.length;
    this.droppedSent = this.dropped;
    this.send({ runId: this.runId, events, dropped: this.dropped });
  }

  /** The run ended: send what is left, and the final dropped count even if no event is left. */
  finish(): void {
    if (this.batch.length > 0 || this.dropped > this.droppedSent) {
      if (this.timer) clearTimeout(this.timer);
      this.timer = null;
      const events = this.batch;
      this.batch = [];
      this.sentCount += events.length;
      this.droppedSent = this.dropped;
      this.send({ runId: this.runId, events, dropped: this.dropped });
    }
  }

  /** Events recorded for the run (sent or waiting to be). */
  get recorded(): number {
    return this.sentCount + this.batch.length;
  }
}
