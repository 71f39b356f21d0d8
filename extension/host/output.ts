// User output: the host's stdout carries JSON-RPC, so everything a cell prints — console.*,
// process.stdout.write, process.stderr.write — is captured here and sent as Output notifications.
// Writes are coalesced (a loop printing a line per step sends a few messages, not thousands) and a
// run's output is capped so a runaway print loop cannot flood the extension.

import { Console } from "node:console";
import { Writable } from "node:stream";

type Stream = "stdout" | "stderr";
export type OutputSender = (stream: Stream, text: string) => void;

const FLUSH_MS = 25;
/** Characters of output one run may send; the rest is dropped with a note. */
export const OUTPUT_LIMIT = 4_000_000;

export interface OutputCapture {
  /** A writable for JSON-RPC: the real stdout. */
  readonly rpcStdout: Writable;
  /** Writes to the real stderr (host diagnostics). */
  hostLog(text: string): void;
  /** Sends what is buffered now (before a run's result). */
  flush(): void;
  /** A new run starts: reset the per-run cap. */
  resetLimit(): void;
}

export function captureOutput(send: OutputSender): OutputCapture {
  const realStdoutWrite = process.stdout.write.bind(process.stdout);
  const realStderrWrite = process.stderr.write.bind(process.stderr);
  let pending: { stream: Stream; text: string }[] = [];
  let timer: NodeJS.Timeout | null = null;
  let sent = 0;
  let truncated = false;

  const flush = () => {
    if (timer) clearTimeout(timer);
    timer = null;
    const batch = pending;
    pending = [];
    for (const p of batch) send(p.stream, p.text);
  };

  const push = (stream: Stream, text: string) => {
    if (text.length === 0) return;
    if (sent + text.length > OUTPUT_LIMIT) {
      if (!truncated) {
        truncated = true;
        pending.push({ stream: "stderr", text: `\n[output truncated: more than ${OUTPUT_LIMIT} characters]\n` });
      }
      return;
    }
    sent += text.length;
    const last = pending[pending.length - 1];
    if (last && last.stream === stream) last.text += text;
    else pending.push({ stream, text });
    if (!timer) timer = setTimeout(flush, FLUSH_MS);
  };

  const writerFor = (stream: Stream) =>
    function write(chunk: unknown, encoding?: unknown, cb?: unknown): boolean {
      const text = typeof chunk === "string" ? chunk : Buffer.from(chunk as Uint8Array).toString(typeof encoding === "string" ? (encoding as BufferEncoding) : "utf8");
      push(stream, text);
      const done = typeof encoding === "function" ? encoding : cb;
      if (typeof done === "function") queueMicrotask(() => (done as () => void)());
      return true;
    };

  (process.stdout as { write: unknown }).write = writerFor("stdout");
  (process.stderr as { write: unknown }).write = writerFor("stderr");
  // A fresh console bound to the captured streams (the global one keeps references to the real ones).
  const userConsole = new Console({ stdout: process.stdout, stderr: process.stderr, colorMode: false });
  globalThis.console = userConsole;

  const rpcStdout = new Writable({
    write(chunk: Buffer, _enc, cb) {
      realStdoutWrite(chunk, (err?: Error | null) => cb(err ?? null));
    },
  });

  return {
    rpcStdout,
    hostLog: (text) => void realStderrWrite(text),
    flush,
    resetLimit: () => {
      sent = 0;
      truncated = false;
    },
  };
}
