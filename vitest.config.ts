import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
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
  },
});
