/**
 * The payment methods watch on two replicas of one Redis or PostgreSQL store (each when its
 * TEST_REDIS_URL / TEST_POSTGRES_URL is set): 28 days of healthy history, then 9 of 14 invoices
 * failing in an hour; both replicas check at once, again and again, and the channel hears one alert.
 * Each run has its own workspace and board prefix, so runs sharing a store never meet.
 */
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SANDBOX_LOGIN, SANDBOX_SECRET } from "../../sandbox/fake-payments.js";
import { Stack } from "../../sandbox/stack.js";
import { methodWatchesFor } from "../../src/method-watch/index.js";
import { DEFAULT_FAILURE_RULE, DEFAULT_SILENCE_RULE } from "../../src/method-watch/state.js";
import type { KeyvStore } from "../../src/store/connection.js";
import { openStore } from "../../src/store/keyv.js";
import { clockReading } from "../support/manual-clock.js";
import { healthyHistory, MIN, methodInvoice, postsIn } from "../support/method-history.js";
import { dropWatchNamespace } from "../support/watch-namespaces.js";

const ALERTS = "C0METHODSREP";
const HOUR = 60 * MIN;
const run = randomBytes(4).toString("hex");

const ENGINES = [
  {
    name: "redis",
    url: process.env.TEST_REDIS_URL?.trim() || undefined,
    namespace: `kassa-test-${run}:methods`,
    skipped: process.env.TEST_REDIS_URL?.trim() ? undefined : "TEST_REDIS_URL not set",
  },
  {
    name: "postgres",
    url: process.env.TEST_POSTGRES_URL?.trim() || undefined,
    namespace: `kmw_${run}`,
    skipped: process.env.TEST_POSTGRES_URL?.trim() ? undefined : "TEST_POSTGRES_URL not set",
  },
];
for (const engine of ENGINES)
  if (engine.skipped)
    console.log(`methods watch on two replicas: skipping ${engine.name} (${engine.skipped})`);

for (const engine of ENGINES) {
  describe.skipIf(engine.skipped !== undefined)(
    `the methods watch on two replicas of one ${engine.name} store`,
    () => {
      const T0 = Math.floor(Date.now() / HOUR) * HOUR;
      const team = `T0MW${engine.name.slice(0, 2).toUpperCase()}${run.toUpperCase()}`;
      let at = T0;
      let first: Stack;
      let second: Stack;
      let store: KeyvStore;
      const alerts = () => postsIn(first, ALERTS).filter((post) => post.threadTs === undefined);
      /** Time moves on by one check interval, then both replicas' passes at once (either one ahead). */
      const bothAtOnce = async (round: number) => {
        at += 5 * MIN;
        const replicas = round % 2 === 0 ? [first, second] : [second, first];
        await Promise.all(replicas.map((replica) => replica.pass("methodWatch")));
      };

      beforeAll(async () => {
        first = await Stack.start({
          storeMemoMs: 0,
          clock: clockReading(() => new Date(at)),
          env: { METHOD_CHECK_MS: "300000", ...(engine.url ? { STORE_URL: engine.url } : {}) },
          watchNamespace: engine.namespace,
          fake: { invoices: healthyHistory(T0) },
        });
        const connected = await first.cli(
          ["credentials", "set", "--team", team, "--login", SANDBOX_LOGIN, "--secret", "-"],
          SANDBOX_SECRET,
        );
        expect(connected.code).toBe(0);
        second = await first.replica();
        store = await openStore(engine.url ?? "");
        const rules = { failure: DEFAULT_FAILURE_RULE, silence: DEFAULT_SILENCE_RULE };
        await methodWatchesFor(store, 3000, engine.namespace).set(
          team,
          { channel: ALERTS, mention: [], ...rules, by: "U0ADMIN", at: new Date(at).toISOString() },
          at,
        );
      }, 60_000);
      afterAll(async () => {
        await methodWatchesFor(store, 3000, engine.namespace)
          .forget(team)
          .catch(() => {});
        await store?.close();
        await second?.stopApp();
        await first?.stop();
        if (engine.url) await dropWatchNamespace(engine.url, engine.namespace);
      });

      it("posts one alert for 9 of 14 invoices failing in an hour, whichever replica checks", async () => {
        await bothAtOnce(0);
        await bothAtOnce(1);
        expect(alerts()).toEqual([]);
        for (let i = 0; i < 14; i += 1) {
          const invoice = methodInvoice(
            "BITCOIN",
            i % 3 === 2 || i === 13 ? "payed" : "failed",
            T0 + (i * 3 - 40) * MIN,
          );
          first.fake.invoices.set(invoice.id, invoice);
        }
        for (let round = 2; round < 6; round += 1) await bothAtOnce(round);
        expect(alerts()).toHaveLength(1);
        expect(JSON.stringify(alerts()[0]?.blocks)).toContain("9 of 14 invoices failed or were unavailable");
        // Both checked: the item moved on; the one alert is the only post.
        expect(postsIn(first, ALERTS)).toHaveLength(1);
      }, 60_000);
    },
  );
}
