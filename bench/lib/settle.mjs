// A settled heap before each JavaScript-side cell and each PyTorch round (run.mjs). A cell leaves
// garbage behind: its inputs (never disposed), and in the "(GC-freed)" rows thousands of results
// whose native blocks wait for the collector. Collected later, that garbage's cost (concurrent
// marking and sweeping on the same two cores, external-memory pressure) landed on whichever cells
// came next, PyTorch's included: a 1e6 add with a disposed result timed 2x slower after the GC-freed
// matmul rows than alone. PyTorch frees by refcount as it goes, so its cells start clean already;
// this gives Glasstorch's and tfjs's cells the same start, and keeps V8's threads off PyTorch's.
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc");

/** A full collection, then a pause for the collector's background threads to finish sweeping. */
export async function settle() {
  gc();
  await new Promise((resolve) => setTimeout(resolve, 20));
}
