// torch.utils.progress (and its tqdm-style alias): a progress bar for long loops.
//
//   for (const i of torch.utils.progress(100, { desc: "train" })) ...   // range(100)
//   for (const batch of torch.utils.tqdm(loader)) ...                 // any iterable (or async iterable)
//   const bar = torch.utils.progress({ total: 10 }); bar.update(1); bar.close();
//
// In plain Node the bar is drawn on stderr; a notebook host installs a sink (setProgressSink) and
// shows it under the cell instead. Updates are throttled to ten a second either way, plus the first
// and the last. Each step also checks for a pending interrupt, so a loop that reports progress stops
// at Ctrl-C even when it runs no op.

import { checkInterrupt } from "../c10/Interrupt.js";

export interface ProgressOptions {
  /** Steps expected; taken from the iterable's length or size when it has one. */
  total?: number;
  /** Label shown before the bar. */
  desc?: string;
  /** Draw nothing (tqdm's disable=True). */
  disable?: boolean;
}

/** What a sink receives: one bar's state. */
export interface ProgressUpdate {
  barId: number;
  label?: string;
  current: number;
  total?: number;
  /** Steps per second since the bar started. */
  rate?: number;
  done: boolean;
}

export type ProgressSink = (update: ProgressUpdate) => void;

const MIN_INTERVAL_MS = 100;
let sink: ProgressSink | null = null;
let nextBarId = 1;

/** Sends every bar's updates to `s` instead of stderr (null restores the stderr bar). */
export function setProgressSink(s: ProgressSink | null): void {
  sink = s;
}

export class Progress<T = number> implements Iterable<T>, AsyncIterable<T> {
  readonly barId = nextBarId++;
  n = 0;
  total: number | undefined;
  readonly desc: string | undefined;
  private readonly disabled: boolean;
  private readonly started = Date.now();
  private lastShown = -Infinity;
  private closed = false;

  constructor(
    private readonly source: Iterable<T> | AsyncIterable<T> | null,
    opts: ProgressOptions = {},
  ) {
    this.total = opts.total ?? lengthOf(source);
    this.desc = opts.desc;
    this.disabled = opts.disable ?? false;
    this.show(true);
  }

  /** Advances the bar by n steps (tqdm's update). */
  update(n = 1): void {
    checkInterrupt();
    this.n += n;
    this.show(false);
  }

  /** Marks the bar finished (called by the loops below when the iterable ends or the loop breaks). */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.show(true);
  }

  *[Symbol.iterator](): Iterator<T> {
    const src = this.source as Iterable<T> | null;
    if (src === null || typeof (src as Iterable<T>)[Symbol.iterator] !== "function") {
      throw new TypeError("progress(): the source is not iterable (use for await for an async iterable)");
    }
    try {
      for (const item of src) {
        checkInterrupt();
        yield item;
        this.update(1);
      }
    } finally {
      this.close();
    }
  }

  async *[Symbol.asyncIterator](): AsyncIterator<T> {
    const src = this.source;
    if (src === null) throw new TypeError("progress(): no source to iterate");
    try {
      for await (const item of src as AsyncIterable<T>) {
        checkInterrupt();
        yield item;
        this.update(1);
      }
    } finally {
      this.close();
    }
  }

  private show(force: boolean): void {
    if (this.disabled) return;
    const now = Date.now();
    if (!force && now - this.lastShown < MIN_INTERVAL_MS) return;
    this.lastShown = now;
    const elapsed = (now - this.started) / 1000;
    const update: ProgressUpdate = {
      barId: this.barId,
      current: this.n,
      done: this.closed,
      ...(this.desc !== undefined ? { label: this.desc } : {}),
      ...(this.total !== undefined ? { total: this.total } : {}),
      ...(elapsed > 0 ? { rate: this.n / elapsed } : {}),
    };
    if (sink) sink(update);
    else process.stderr.write(formatBar(update, elapsed) + (this.closed ? "\n" : ""));
  }
}

/** tqdm's text: "desc:  40%|████      | 4/10 [00:01, 3.52it/s]", redrawn in place with "\r". */
export function formatBar(u: ProgressUpdate, elapsedSeconds: number): string {
  const prefix = u.label ? `${u.label}: ` : "";
  const rate = u.rate !== undefined ? `${u.rate.toFixed(2)}it/s` : "?it/s";
  const time = clock(elapsedSeconds);
  if (u.total === undefined || u.total <= 0) return `\r${prefix}${u.current}it [${time}, ${rate}]`;
  const frac = Math.min(1, u.current / u.total);
  const width = 20;
  const filled = Math.round(frac * width);
  const bar = "█".repeat(filled) + " ".repeat(width - filled);
  return `\r${prefix}${String(Math.floor(frac * 100)).padStart(3)}%|${bar}| ${u.current}/${u.total} [${time}, ${rate}]`;
}

function clock(s: number): string {
  const m = Math.floor(s / 60);
  const sec = Math.floor(s % 60);
  return `${String(m).padStart(2, "0")}:${String(sec).padStart(2, "0")}`;
}

function lengthOf(source: unknown): number | undefined {
  if (source === null || typeof source !== "object") return undefined;
  const o = source as { length?: unknown; size?: unknown; __len__?: unknown };
  if (typeof o.length === "number") return o.length;
  if (typeof o.size === "number") return o.size;
  if (typeof o.__len__ === "function") return Number((o.__len__ as () => number).call(source));
  return undefined;
}

function* range(n: number): Generator<number> {
  for (let i = 0; i < n; i++) yield i;
}

/**
 * A progress bar over `source`: a number n (iterates 0..n-1), an iterable or an async iterable; or,
 * given only options, a bar advanced by hand with update().
 */
export function progress<T = number>(source: number | Iterable<T> | AsyncIterable<T>, opts?: ProgressOptions): Progress<T>;
export function progress(opts?: ProgressOptions): Progress<number>;
export function progress<T>(source?: number | Iterable<T> | AsyncIterable<T> | ProgressOptions, opts?: ProgressOptions): Progress<T> {
  if (typeof source === "number") return new Progress(range(source) as unknown as Iterable<T>, { total: source, ...opts });
  if (source !== undefined && source !== null && (Symbol.iterator in (source as object) || Symbol.asyncIterator in (source as object))) {
    return new Progress(source as Iterable<T>, opts);
  }
  return new Progress<T>(null, (source as ProgressOptions | undefined) ?? opts);
}

/** The tqdm-style name for progress(). */
export const tqdm = progress;
