import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["tests/**/*.test.ts"],
    pool: "forks",
    // The end-to-end tests spawn the CLI from its sources (tsx) several times each; with the whole suite on
    // two shared cores some take 25–40 s, so 30 s failed good runs. A hang still fails within a minute.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Tests start their own redis-server per file; two cores are shared, so keep parallelism modest.
    maxWorkers: 2,
  },
});
