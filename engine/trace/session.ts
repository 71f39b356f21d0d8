// The process-wide trace session: one recorder, installed as the dispatcher's observer only while
// something wants events, so that with tracing off a dispatch pays one flag check and nothing else.
// trace/ never imports dispatcher/ at runtime: whoever wires the engine together passes the
// dispatcher's setDispatchObserver to attachTo().

import type { TraceEvent } from "./events.js";
import type { SetDispatchObserver } from "./hook.js";
import { TraceRecorder, type RecorderOptions, type TraceListener } from "./recorder.js";
import { textListener } from "./sinks/text.js";

/** The recorder every session API below uses. */
export const recorder = new TraceRecorder();

let setObserver: SetDispatchObserver | null = null;
let installed = false;
let explicitlyOn = false; // startRecording() .. stopRecording()
let holds = 0; // record() calls running + activating subscriptions (the env printer)

/** Whether events are being produced now: kernels and autograd check this before emitting. */
export function isTracing(): boolean {
  return explicitlyOn || holds > 0;
}

function sync(): void {
  if (!setObserver) return;
  const want = isTracing();
  if (want && !installed) setObserver(recorder);
  else if (!want && installed) setObserver(null);
  installed = want;
}

/**
 * Connects the trace to the dispatcher: `attachTo(setDispatchObserver)`. The observer is installed
 * whenever tracing is on (now or later) and removed when it goes off. Returns a detach function.
 */
export function attachTo(set: SetDispatchObserver): () => void {
  if (setObserver && installed) setObserver(null);
  setObserver = set;
  installed = false;
  sync();
  return () => {
    if (setObserver !== set) return;
    if (installed) set(null);
    installed = false;
    setObserver = null;
  };
}

/** A running recording; `using rec = startRecording()` stops it at the end of the block. */
export interface Recording {
  /** Events recorded since this recording started (those still in the ring buffer). */
  events(): TraceEvent[];
  stop(): void;
  [Symbol.dispose](): void;
}

export interface StartOptions extends RecorderOptions {
  /** Empty the ring buffer first. Default true. */
  clear?: boolean;
}

/** Turns tracing on until stopRecording() (or the handle's stop/dispose). */
export function startRecording(opts: StartOptions = {}): Recording {
  const { clear: clearFirst = true, ...recOpts } = opts;
  recorder.configure(recOpts);
  if (clearFirst) recorder.clear();
  const from = recorder.position;
  explicitlyOn = true;
  sync();
  return {
    events: () => recorder.eventsSince(from),
    stop: stopRecording,
    [Symbol.dispose]: stopRecording,
  };
}

export function stopRecording(): void {
  explicitlyOn = false;
  sync();
}

export interface Recorded<T> {
  result: T;
  /** The events `fn` produced (the ring buffer's bound applies). */
  events: TraceEvent[];
}

/**
 * Runs fn with tracing on and returns its result with the events it produced. An async fn is
 * awaited (events of other work running meanwhile are included: the dispatcher is process-wide).
 */
export function record<T>(fn: () => Promise<T>, opts?: RecorderOptions): Promise<Recorded<T>>;
export function record<T>(fn: () => T, opts?: RecorderOptions): Recorded<T>;
export function record<T>(fn: () => T | Promise<T>, opts?: RecorderOptions): Recorded<T> | Promise<Recorded<T>> {
  // opts configure the session recorder and stay set, as startRecording's do.
  if (opts) recorder.configure(opts);
  const from = recorder.position;
  holds++;
  sync();
  let async = false;
  const release = () => {
    holds--;
    sync();
  };
  try {
    const result = fn();
    if (result instanceof Promise) {
      async = true;
      return result.then(
        (r) => (release(), { result: r, events: recorder.eventsSince(from) }),
        (e: unknown) => {
          release();
          throw e;
        },
      );
    }
    return { result, events: recorder.eventsSince(from) };
  } finally {
    if (!async) release();
  }
}

/**
 * Names the API the next call came through ("torch.add", "Tensor.add"). Generated bindings call it
 * just before entering the dispatcher, guarded by isTracing() so untraced calls pay nothing more.
 */
export function noteApiBinding(name: string): void {
  recorder.noteApiBinding(name);
}

/** Buffered events of the session recorder, oldest first. */
export function events(): TraceEvent[] {
  return recorder.events();
}

/** Empties the session recorder's buffer and its dropped count. */
export function clear(): void {
  recorder.clear();
}

export interface SubscribeOptions {
  /** Keep tracing on while subscribed (a live sink, like the env-var printer). Default false:
   * the listener only sees events while something else has tracing on. */
  activate?: boolean;
}

/** Streams every event to `listener` as it is recorded; returns the unsubscribe function. */
export function subscribe(listener: TraceListener, opts: SubscribeOptions = {}): () => void {
  const off = recorder.subscribe(listener);
  if (opts.activate) {
    holds++;
    sync();
  }
  let done = false;
  return () => {
    if (done) return;
    done = true;
    off();
    if (opts.activate) {
      holds--;
      sync();
    }
  };
}

export const TRACE_ENV_VAR = "GLASSTORCH_SHOW_DISPATCH_TRACE";
let envPrinter: (() => void) | null = null;

/**
 * Like PyTorch's TORCH_SHOW_DISPATCH_TRACE=1: when GLASSTORCH_SHOW_DISPATCH_TRACE is "1" (or a
 * higher level "2".."4", as tinygrad's DEBUG), prints every dispatch to stderr as it happens.
 * Returns the function that turns the printer off, or null when the variable is not set.
 */
export function installIfEnv(
  env: Record<string, string | undefined> = process.env,
  write: (s: string) => void = (s) => process.stderr.write(s),
): (() => void) | null {
  const level = Number(env[TRACE_ENV_VAR]);
  if (!(level >= 1 && level <= 4 && Number.isInteger(level))) return null;
  if (envPrinter) return envPrinter; // once per process
  const off = subscribe(textListener(level as 1 | 2 | 3 | 4, write), { activate: true });
  envPrinter = () => {
    off();
    envPrinter = null;
  };
  return envPrinter;
}
