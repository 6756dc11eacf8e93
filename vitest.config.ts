import { defineConfig } from "vitest/config";

/**
 * Files that start the app, child processes or store servers of their own: each runs in a fresh
 * module graph (vitest's isolation), as their state (timers, servers, environment) must not leak.
 */
const ISOLATED = [
  "test/e2e/**",
  "test/docker.test.ts",
  "test/startup.test.ts",
  "test/store/**",
  "test/process/**",
];

export default defineConfig({
  test: {
    // Store servers of the run's own (a PostgreSQL database, Redis databases): see the file.
    globalSetup: ["test/global-setup.ts"],
    // Most test files wait on local servers and child processes, not the CPU: on the project's 2-core
    // machine vitest's default (cores - 1: one file at a time) left a core idle and took 9.5 minutes;
    // four files at a time took 3. More was measured flakier (a burst of 300 requests refused late).
    maxWorkers: 4,
    testTimeout: 20_000,
    hookTimeout: 20_000,
    // expect.poll waits for something that happens on its own (a watch pass, a reply): on a loaded
    // 2-core machine 1 s (vitest's default) is sometimes too short; a poll that succeeds returns at once.
    expect: { poll: { timeout: 5000 } },
    projects: [
      {
        // Unit files share one module graph per worker: importing the app's modules anew for each of
        // some 170 files was nearly half of the suite's time (vitest's "import" figure).
        test: { name: "unit", include: ["test/**/*.test.ts"], exclude: ISOLATED, isolate: false },
      },
      { test: { name: "isolated", include: ISOLATED } },
    ],
  },
});
