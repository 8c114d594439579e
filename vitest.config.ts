import path from "node:path";
import { defineConfig } from "vitest/config";

// Unit tests sit beside the code; integration tests need a database and run one file per worker.
export default defineConfig({
  resolve: { alias: { "~": path.resolve(import.meta.dirname, "app") } },
  test: {
    // Code that falls back on the trial's DATA_DIR (the toast cookie's secret) keeps it in memory,
    // not in the checkout's ./data.
    env: { DATA_DIR: "memory://" },
    // Vitest's default leaves a core to its own process: one worker on our 2-core machines. That
    // process only gathers results; one test file per core halved the suite's time there.
    maxWorkers: "100%",
    projects: [
      {
        extends: true,
        test: { name: "unit", include: ["app/**/*.test.{ts,tsx}", "eslint/**/*.test.ts"], environment: "node" },
      },
      {
        extends: true,
        test: {
          name: "integration",
          include: ["tests/integration/**/*.test.ts"],
          globalSetup: ["tests/setup/database-template.ts"],
          environment: "node",
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
