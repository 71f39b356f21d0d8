import { spawnSync } from "node:child_process";
import { defineConfig } from "vitest/config";

// The native CPU backend (native/, issue #8): where a C++ compiler is present `npm install` builds the
// addon, and the tests require it (GLASSTORCH_REQUIRE_NATIVE=1: a failed build fails the run instead of
// silently testing the TypeScript kernels twice). The whole suite then runs with the native kernels
// wherever they cover an op, and the op families they cover run a second time on the TypeScript
// reference kernels (GLASSTORCH_CPU_CAPABILITY=ts), so both paths are checked against the PyTorch fixtures.
const hasCompiler = spawnSync("c++", ["--version"], { stdio: "ignore" }).status === 0;
const nativeFamilies = [
  ...["binary", "unary", "reduce", "reduce2", "reduce3", "ops", "activation", "normalization", "pooling", "index", "layers_backward", "loss", "linalg", "conv", "select", "vision"].map(
    (f) => `test/aten/native/${f}.test.ts`,
  ),
  "test/nn/train_parity.test.ts", // 100-step training parity: holds on the native and the TypeScript kernels
  "test/aten/Distributions.test.ts", // PyTorch's random streams: the native random kernels and the TypeScript ones
  "test/aten/RangeFactories.test.ts", // arange / linspace: the native arange_stub / linspace_stub and the TypeScript ones
  "test/aten/RangeFactoriesFast.test.ts",
];

export default defineConfig({
  test: {
    // The summary reporter prints the closing line CI reads: "vitest: N passed, N failed, N skipped".
    reporters: ["default", "./test/support/summary-reporter.js"],
    projects: [
      {
        extends: true,
        test: { name: "default", include: ["test/**/*.test.ts"], env: hasCompiler ? { GLASSTORCH_REQUIRE_NATIVE: "1" } : {} },
      },
      ...(hasCompiler
        ? [{ extends: true, test: { name: "ts-kernels", include: nativeFamilies, env: { GLASSTORCH_CPU_CAPABILITY: "ts" } } }]
        : []),
    ],
  },
});
