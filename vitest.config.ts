import { defineConfig } from "vitest/config";

/**
 * Test files run several at a time: each isolates its PostgreSQL database, Redis keys, ports and
 * temp folders (test/helpers/), and most of a file's time is spent waiting on servers, child
 * processes and Chromium, so more workers than the machine's cores finish sooner (measured on
 * 2 cores: docs/performance.md). `--maxWorkers=N` overrides it for one run.
 */
const WORKERS = 4;

export default defineConfig({
  test: {
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: "forks",
    maxWorkers: WORKERS,
    reporters: ["default", "./test/helpers/summary-reporter.ts"],
  },
});
