import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // Store servers of the run's own (a PostgreSQL database, Redis databases): see the file.
    globalSetup: ["test/global-setup.ts"],
    testTimeout: 20_000,
    hookTimeout: 20_000,
    // expect.poll waits for something that happens on its own (a watch pass, a reply): on a loaded
    // 2-core machine 1 s (vitest's default) is sometimes too short; a poll that succeeds returns at once.
    expect: { poll: { timeout: 5000 } },
  },
});
