import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // The summary reporter prints the closing line CI reads: "vitest: N passed, N failed, N skipped".
    reporters: ["default", "./test/support/summary-reporter.js"],
  },
});
