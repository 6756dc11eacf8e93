/**
 * The audit trail's daily work on two replicas of one store, through the real app: both check every
 * 100 ms, and each UTC day the head is posted in the audit channel once, never twice. SQLite (one
 * file, two servers) always; Redis and PostgreSQL when TEST_REDIS_URL / TEST_POSTGRES_URL are set.
 */
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Stack } from "../../sandbox/stack.js";
import { clockReading } from "../support/manual-clock.js";
import { dropWatchNamespace } from "../support/watch-namespaces.js";

const ADMIN = "U0ADMIN";
const AUDIT_CHANNEL = "C0AUDITREP";
const DAY_MS = 86_400_000;
const run = randomBytes(4).toString("hex");

const ENGINES = [
  { name: "sqlite", url: undefined, namespace: undefined, skipped: undefined },
  {
    name: "redis",
    url: process.env.TEST_REDIS_URL?.trim() || undefined,
    namespace: `kassa-test-${run}:audit`,
    skipped: process.env.TEST_REDIS_URL?.trim() ? undefined : "TEST_REDIS_URL not set",
  },
  {
    name: "postgres",
    url: process.env.TEST_POSTGRES_URL?.trim() || undefined,
    namespace: `kta_${run}`,
    skipped: process.env.TEST_POSTGRES_URL?.trim() ? undefined : "TEST_POSTGRES_URL not set",
  },
];
for (const engine of ENGINES)
  if (engine.skipped) console.log(`audit day on two replicas: skipping ${engine.name} (${engine.skipped})`);

for (const engine of ENGINES) {
  describe.skipIf(engine.skipped !== undefined)(
    `the daily head on two replicas of one ${engine.name} store`,
    () => {
      let clock = Date.now();
      let first: Stack;
      let second: Stack;
      const posts = () =>
        first.slack.callsOf("chat.postMessage").filter((call) => call.body.channel === AUDIT_CHANNEL);

      beforeAll(async () => {
        first = await Stack.start({
          storeMemoMs: 0,
          clock: clockReading(() => new Date(clock)),
          env: { AUDIT_CHECK_MS: "100", ...(engine.url ? { STORE_URL: engine.url } : {}) },
          ...(engine.namespace ? { watchNamespace: engine.namespace } : {}),
        });
        first.slack.users[ADMIN] = { is_admin: true };
        second = await first.replica();
      });
      afterAll(async () => {
        // The shared store keeps no audit channel of this run.
        await first?.ask("audit channel off", { userId: ADMIN });
        await second?.stopApp();
        await first?.stop();
        if (engine.url && engine.namespace) await dropWatchNamespace(engine.url, engine.namespace);
      });

      it("posts once a day, whichever replica claims the day", async () => {
        const set = await first.ask("audit channel", { userId: ADMIN, channelId: AUDIT_CHANNEL });
        expect(JSON.stringify(set.reply.body)).toContain(`<#${AUDIT_CHANNEL}>`);
        // Both replicas' daily work, at once (each claims for itself), the first or the second ahead by turns.
        const bothAtOnce = (day: number) => {
          const replicas = day % 2 === 0 ? [first, second] : [second, first];
          return Promise.all(replicas.map((replica) => replica.pass("auditDay")));
        };
        // The choice is recorded (after its reply): then the workspace has a chain for the daily work to see.
        const verified = async () =>
          JSON.stringify((await first.ask("audit verify", { userId: ADMIN })).reply.body);
        await expect.poll(verified).toContain("The audit trail holds: 1 entries");
        await bothAtOnce(0);
        expect(posts()).toHaveLength(0);
        for (let day = 1; day <= 3; day += 1) {
          clock += DAY_MS;
          await bothAtOnce(day);
          await bothAtOnce(day + 1);
          expect(posts(), `day ${day}`).toHaveLength(day);
        }
      });
    },
  );
}
