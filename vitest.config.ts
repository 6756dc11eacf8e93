import { existsSync } from "node:fs";
import { defineConfig } from "vitest/config";
import { BaseSequencer, type TestSpecification } from "vitest/node";

/**
 * Files whose state must not leak into another file's (a child process's environment, the process's
 * own start-up, an image's build): each runs in a fresh module graph (vitest's isolation). The store
 * tests were here too; each opens stores of its own, and sharing a module graph took their CPU from
 * 24.5 s to 14.6 s.
 */
const ISOLATED = ["test/docker.test.ts", "test/startup.test.ts", "test/process/**"];

/**
 * The files that take longest (processes of their own, replicas killed, an image built), longest
 * first: started first, they run beside the many short ones instead of after them. Without this a
 * clean clone (no timings cached) starts the biggest files first, and a long one with a small file
 * (feed-replicas: 67 s) was started last and ran alone for the last minute.
 */
const LONGEST_FIRST = [
  "test/e2e/feed-replicas.test.ts",
  "test/e2e/export-replica-killed.test.ts",
  "test/docker.test.ts",
  "test/e2e/replica-killed.test.ts",
  "test/e2e/method-watch.test.ts",
  "test/startup.test.ts",
  "test/e2e/feed.test.ts",
  "test/e2e/live-cards.test.ts",
  "test/e2e/payout-batches-slack.test.ts",
  "test/e2e/live-cards-delivery.test.ts",
  "test/store/backends.test.ts",
  "test/e2e/long-reads.test.ts",
  "test/e2e/method-watch-replicas.test.ts",
  "test/process/supported-node.test.ts",
  "test/e2e/journal.test.ts",
];

for (const path of LONGEST_FIRST)
  if (!existsSync(new URL(path, import.meta.url))) throw new Error(`vitest.config.ts: ${path} is gone`);

class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (spec: TestSpecification) => {
      const index = LONGEST_FIRST.findIndex((path) => spec.moduleId.endsWith(`/${path}`));
      return index < 0 ? LONGEST_FIRST.length : index;
    };
    // Stable: the rest keep the order vitest gave them.
    return sorted
      .map((spec, order) => ({ spec, order, rank: rank(spec) }))
      .sort((a, b) => a.rank - b.rank || a.order - b.order)
      .map(({ spec }) => spec);
  }
}

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
    sequence: { sequencer: LongestFirst },
    projects: [
      {
        // Unit files share one module graph per worker: importing the app's modules anew for each of
        // some 170 files was nearly half of the suite's time (vitest's "import" figure).
        test: {
          name: "unit",
          include: ["test/**/*.test.ts"],
          exclude: [...ISOLATED, "test/e2e/**"],
          isolate: false,
        },
      },
      {
        // The end-to-end files start the app (in this process or a child) and stop it; what they
        // import keeps no state of its own between them, so they share one module graph per worker
        // too: a third less CPU than importing the app anew for each of some 80 files.
        test: { name: "e2e", include: ["test/e2e/**/*.test.ts"], isolate: false },
      },
      { test: { name: "isolated", include: ISOLATED } },
    ],
  },
});
