/**
 * The feed's promise across replicas, short: two replicas on one Redis (and again on one
 * PostgreSQL), a payment service answering in 150 ms, workspaces paid over a few seconds while one
 * replica is paused past the feed's lease and the other is killed with kill -9. Nothing is lost, and
 * at most one message repeats per replica stopped in the middle (the one Slack may hold at that
 * moment). The long version, with figures: `npm run bench -- --replicas`. Runs when TEST_REDIS_URL /
 * TEST_POSTGRES_URL are set; each run has its own workspaces and namespace.
 */
import { describe, expect, it } from "vitest";
import { runFeedReplicas } from "../../sandbox/feed-replicas.js";

const ENGINES = [
  { name: "redis", url: process.env.TEST_REDIS_URL?.trim() || undefined, variable: "TEST_REDIS_URL" },
  {
    name: "postgres",
    url: process.env.TEST_POSTGRES_URL?.trim() || undefined,
    variable: "TEST_POSTGRES_URL",
  },
];
for (const engine of ENGINES)
  if (!engine.url) console.log(`feed replicas: skipping ${engine.name} (${engine.variable} not set)`);

for (const engine of ENGINES) {
  const title = engine.url ? engine.name : `${engine.name} (skipped: ${engine.variable} not set)`;
  describe.skipIf(!engine.url)(`the feed on two replicas, ${title}`, () => {
    it("loses nothing and repeats at most one message per replica paused or killed", async () => {
      const result = await runFeedReplicas({
        storeUrl: engine.url ?? "",
        workspaces: 4,
        paymentsEach: 5,
        spreadMs: 6000,
        latencyMs: 150,
        intervalMs: 500,
        leaseMs: 2000,
        pauseMs: 3000,
        kill: true,
      });
      console.log(
        `feed replicas (${engine.name}): ${result.posted} of ${result.payments} posted, ${result.repeated} repeated; ${result.events.join("; ")}`,
      );
      expect(result.events).toHaveLength(2);
      expect(result.lost).toBe(0);
      expect(result.repeated).toBeLessThanOrEqual(2);
    }, 90_000);
  });
}
