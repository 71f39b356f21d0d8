// Loads TensorFlow.js for the benchmark: tfjs-core with the cpu and wasm backends, plus tfjs-core's
// gradient functions. Those live only in tfjs-core's ES-module build (dist/register_all_gradients.js,
// imported by the full @tensorflow/tfjs package, which is not installed); its extensionless imports do
// not load in Node, so esbuild bundles that one entry in memory and it is imported as a data: URL. The
// bundle registers tfjs-core 4.22's own gradients into the global registry the loaded tfjs-core reads.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

const require = createRequire(import.meta.url);

export async function loadTf() {
  const tf = await import("@tensorflow/tfjs-core");
  await import("@tensorflow/tfjs-backend-cpu");
  const wasm = await import("@tensorflow/tfjs-backend-wasm");
  const coreDir = dirname(require.resolve("@tensorflow/tfjs-core/package.json"));
  const { build } = await import("esbuild");
  const r = await build({ entryPoints: [join(coreDir, "dist", "register_all_gradients.js")], bundle: true, format: "esm", platform: "node", write: false, logLevel: "error" });
  await import(`data:text/javascript;base64,${Buffer.from(r.outputFiles[0].text).toString("base64")}`);
  const version = (p) => JSON.parse(readFileSync(require.resolve(`@tensorflow/${p}/package.json`), "utf8")).version;
  return { tf, wasm, versions: { "tfjs-core": version("tfjs-core"), "tfjs-backend-cpu": version("tfjs-backend-cpu"), "tfjs-backend-wasm": version("tfjs-backend-wasm") } };
}

/** setBackend + ready; the cpu backend's one-time "install tfjs-node" banner is kept off the output. */
export async function useBackend(tf, name) {
  if (!(await tf.setBackend(name))) throw new Error(`setBackend('${name}') returned false`);
  await tf.ready();
  const warn = console.warn;
  console.warn = () => {};
  try { tf.tensor([0]).dispose(); } finally { console.warn = warn; }
}
