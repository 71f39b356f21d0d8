// stdin, read by a worker thread: the bytes go to the JSON-RPC reader on the main thread as usual,
// but the worker also spots Interrupt notifications itself and raises a flag in shared memory. The
// main thread may be stuck in user code that never returns to the event loop — an async loop whose
// awaits are all already resolved (`for await` over an in-memory loader, `await null`) runs as one
// endless chain of microtasks — so neither the notification nor SIGINT would ever be handled there.
// The engine's pending-interrupt check, run between ops, reads the flag (interrupt.ts).

import { PassThrough } from "node:stream";
import { Worker } from "node:worker_threads";

/** [0]: 1 when an interrupt arrived and was not consumed yet; [1]: its runId. */
export type InterruptFlag = Int32Array;

// The worker reads fd 0 on its own event loop (a pipe through net.Socket; a file or terminal through
// a read stream) — not with blocking reads, which would keep process.exit() waiting for the worker —
// and parses Content-Length framing just far enough to see each message's method. Plain JavaScript:
// it runs with `eval: true`.
const workerSource = String.raw`
const { parentPort, workerData } = require("node:worker_threads");
const fs = require("node:fs");
const net = require("node:net");
const flag = new Int32Array(workerData.flag);
const method = workerData.interruptMethod;
let pending = Buffer.alloc(0);
function scan() {
  for (;;) {
    const headerEnd = pending.indexOf("\r\n\r\n");
    if (headerEnd < 0) return;
    const m = /Content-Length:\s*(\d+)/i.exec(pending.subarray(0, headerEnd).toString("ascii"));
    if (!m) { pending = pending.subarray(headerEnd + 4); continue; }
    const end = headerEnd + 4 + Number(m[1]);
    if (pending.length < end) return;
    const body = pending.subarray(headerEnd + 4, end);
    pending = pending.subarray(end);
    if (body.includes(method)) {
      try {
        const msg = JSON.parse(body.toString("utf8"));
        if (msg.method === method) {
          Atomics.store(flag, 1, Number(msg.params && msg.params.runId) | 0);
          Atomics.store(flag, 0, 1);
        }
      } catch {}
    }
  }
}
let stat = null;
try { stat = fs.fstatSync(0); } catch {}
const input = stat && (stat.isFIFO() || stat.isSocket())
  ? new net.Socket({ fd: 0, readable: true, writable: false })
  : fs.createReadStream("", { fd: 0 });
input.on("data", (chunk) => {
  parentPort.postMessage({ chunk });
  pending = pending.length ? Buffer.concat([pending, chunk]) : chunk;
  scan();
});
input.on("end", () => parentPort.postMessage({ end: true }));
input.on("error", (e) => { parentPort.postMessage({ error: String(e) }); parentPort.postMessage({ end: true }); });
`;

export interface StdinReader {
  /** What the JSON-RPC reader reads. */
  stream: PassThrough;
  flag: InterruptFlag;
}

export function readStdinInWorker(interruptMethod: string, onError: (message: string) => void): StdinReader {
  const shared = new SharedArrayBuffer(8);
  const flag = new Int32Array(shared);
  const stream = new PassThrough();
  const worker = new Worker(workerSource, { eval: true, workerData: { flag: shared, interruptMethod } });
  worker.on("message", (m: { chunk?: Uint8Array; end?: boolean; error?: string }) => {
    if (m.chunk) stream.write(Buffer.from(m.chunk));
    if (m.error) onError(m.error);
    if (m.end) stream.end();
  });
  worker.on("error", (e) => onError(String(e)));
  return { stream, flag };
}
