/**
 * Two replicas of the real app sharing one Redis or one PostgreSQL, both watching: the change of a
 * watched invoice is told exactly once (one thread reply, one card update) whichever reads it.
 * Runs when TEST_REDIS_URL / TEST_POSTGRES_URL are set; each run uses its own workspace id and
 * watch namespace, so runs can share a server.
 */
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { moscowTime, openInvoice, SANDBOX_LOGIN, SANDBOX_SECRET } from "../../sandbox/fake-payments.js";
import { Stack } from "../../sandbox/stack.js";
import { type RunningServer, startServer } from "../../src/server.js";
import { dropWatchNamespace } from "../support/watch-namespaces.js";

const redisUrl = process.env.TEST_REDIS_URL?.trim() || undefined;
const postgresUrl = process.env.TEST_POSTGRES_URL?.trim() || undefined;
const run = randomBytes(4).toString("hex");

const ENGINES = [
  {
    name: "redis",
    url: redisUrl,
    namespace: `kassa-test-${run}:watch`,
    skipped: redisUrl ? undefined : "TEST_REDIS_URL not set",
  },
  {
    name: "postgres",
    url: postgresUrl,
    namespace: `kt_${run}`,
    skipped: postgresUrl ? undefined : "TEST_POSTGRES_URL not set",
  },
];
for (const engine of ENGINES) {
  if (engine.skipped) console.log(`live cards on two replicas: skipping ${engine.name} (${engine.skipped})`);
}

for (const engine of ENGINES) {
  const title = engine.skipped ? `${engine.name} (skipped: ${engine.skipped})` : engine.name;
  describe.skipIf(engine.skipped !== undefined)(`live cards on two replicas, ${title}`, () => {
    const team = `T0REP${run.toUpperCase()}`;
    let stack: Stack;
    let second: RunningServer;
    const secondLogs: string[] = [];

    beforeAll(async () => {
      stack = await Stack.start({
        connect: false,
        env: { STORE_URL: engine.url ?? "", WATCH_INTERVAL_MS: "100", FEED_INTERVAL_MS: "150" },
        watchNamespace: engine.namespace,
      });
      const connected = await stack.cli(
        ["credentials", "set", "--team", team, "--login", SANDBOX_LOGIN, "--secret", "-"],
        SANDBOX_SECRET,
      );
      expect(connected.code).toBe(0);
      second = await startServer(stack.env, {
        logDestination: { write: (line: string) => void secondLogs.push(line) },
        paymentsRetryDelayMs: 20,
        watchNamespace: engine.namespace,
      });
    });
    afterAll(async () => {
      // Unsubscribed through the app, so the shared store keeps no feed of this run.
      await stack?.ask("unsubscribe", { teamId: team, channelId: "C0REPFEED", userId: "U0REPADMIN" });
      await stack?.cli(["credentials", "remove", "--team", team]);
      await second?.stop();
      await stack?.stop();
      await dropWatchNamespace(engine.url ?? "", engine.namespace);
    });

    it("tells the change once: one card update and one thread reply in total", async () => {
      const id = `replica_${engine.name}_${run}`;
      const hours = (h: number) => moscowTime(new Date(Date.now() + h * 3_600_000));
      stack.fake.invoices.set(id, {
        id,
        state: "notpayed",
        currency: "RUB",
        amount: "1500",
        createdAt: hours(-1),
        expiredAt: hours(5),
      });
      const { reply } = await stack.ask(id, { teamId: team, channelId: "C0REPLICA" });
      const card = stack.slack.messages.get(`C0REPLICA:${String(reply.body.ts)}`);
      if (!card) throw new Error("no card posted");
      // Both replicas are reading it before the customer pays.
      const reads = () => stack.fake.requests.filter((request) => request.body?.id === id).length;
      await expect.poll(reads, { timeout: 10_000 }).toBeGreaterThanOrEqual(4);

      stack.fake.pay(id);
      await stack.slack.waitForMessages(() => stack.slack.threadOf("C0REPLICA", card.ts).length >= 1);
      const after = reads();
      for (let round = 0; round < 2; round += 1) {
        await stack.pass("liveCards");
        await second.passes.liveCards();
      }
      expect(stack.slack.threadOf("C0REPLICA", card.ts)).toHaveLength(1);
      expect(card.updates).toBe(1);
      expect(card.text).toContain("Paid");
      // The watch ended: neither replica reads it again (one read already under way may finish).
      expect(reads() - after).toBeLessThanOrEqual(1);
      const changed = [...stack.logs, ...secondLogs].filter(
        (line) => line.includes('"outcome":"watch_changed"') && line.includes(id),
      );
      expect(changed).toHaveLength(1);
    });

    it("posts a payment in the feed once, whichever replica reads the history", async () => {
      stack.slack.users.U0REPADMIN = { is_admin: true };
      const ack = await stack.command("subscribe", {
        teamId: team,
        channelId: "C0REPFEED",
        userId: "U0REPADMIN",
      });
      await stack.slack.waitForReply(ack.responseId, { count: 2 });
      const id = `replica_feed_${engine.name}_${run}`;
      stack.fake.invoices.set(id, openInvoice(id, { amount: "700" }));
      const posts = () =>
        [...stack.slack.messages.values()].filter((m) => m.channel === "C0REPFEED" && m.text.includes(id));
      const historyReads = () =>
        stack.fake.requests.filter((request) => request.path.includes("history")).length;
      const before = historyReads();
      await expect.poll(historyReads, { timeout: 10_000 }).toBeGreaterThanOrEqual(before + 4);
      stack.fake.pay(id);
      await expect.poll(() => posts().length, { timeout: 10_000 }).toBe(1);
      for (let round = 0; round < 2; round += 1) {
        await stack.pass("feed");
        await second.passes.feed();
      }
      expect(posts()).toHaveLength(1);
      const posted = [...stack.logs, ...secondLogs].filter(
        (line) => line.includes('"outcome":"feed_posted"') && line.includes(id),
      );
      expect(posted).toHaveLength(1);
    });
  });
}
