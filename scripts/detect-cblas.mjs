// binding.gyp asks at configure time whether a system CBLAS is present (cblas.h and a library that
// exports cblas_sgemm): prints "openblas", "cblas" or "none". GLASSTORCH_CBLAS=0 forces "none".
import { existsSync } from "node:fs";

const headers = ["/usr/include/cblas.h", "/usr/include/x86_64-linux-gnu/cblas.h", "/usr/include/aarch64-linux-gnu/cblas.h", "/usr/include/openblas/cblas.h", "/usr/local/include/cblas.h"];
const libDirs = ["/usr/lib/x86_64-linux-gnu", "/usr/lib/aarch64-linux-gnu", "/usr/lib64", "/usr/lib", "/usr/local/lib"];

function find() {
  if (process.env.GLASSTORCH_CBLAS === "0" || process.platform !== "linux") return "none";
  if (!headers.some((h) => existsSync(h))) return "none";
  for (const d of libDirs) if (existsSync(`${d}/libopenblas.so`)) return "openblas";
  for (const d of libDirs) if (existsSync(`${d}/libcblas.so`)) return "cblas";
  return "none";
}

const what = find();
// with an argument: the compiler/linker flags for that result (binding.gyp's include_dirs/libraries)
const arg = process.argv[2];
if (arg === "include") {
  const h = headers.find((x) => existsSync(x));
  process.stdout.write(what === "none" || !h ? "" : h.slice(0, h.lastIndexOf("/")));
} else {
  process.stdout.write(what);
}
