/**
 * The upgrade from release c6ce3d1 (before the versioned schema and the claim board): this release
 * opens the stores c6ce3d1 wrote (test/fixtures/c6ce3d1/, see its README) on SQLite always, Redis
 * when TEST_REDIS_URL is set and PostgreSQL when TEST_POSTGRES_URL is, and the team carries on: the
 * cash register still connected (its sealed secret opens), Russian and /balance for everyone kept,
 * the feed posting a new payment once and nothing it posted before, a live card turning Paid.
 * The app's clock runs as if the upgrade came a minute after c6ce3d1 stopped (the fixtures are older).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openInvoice } from "../../sandbox/fake-payments.js";
import { freePort } from "../../sandbox/ports.js";
import type { PostedMessage } from "../../sandbox/slack.js";
import { Stack } from "../../sandbox/stack.js";
import { startServer } from "../../src/server.js";
import {
  type Engine,
  type FixtureWorld,
  fixtureWorld,
  loadPostgresFixture,
  loadRedisFixture,
  loadSqliteFixture,
} from "../support/c6ce3d1-fixtures.js";
import { clockReading } from "../support/manual-clock.js";

const MEMBER = "U0UPMEMBER";
const redisUrl = process.env.TEST_REDIS_URL?.trim() || undefined;
const postgresUrl = process.env.TEST_POSTGRES_URL?.trim() || undefined;

const engines: Array<{ engine: Engine; skipped?: string }> = [
  { engine: "sqlite" },
  { engine: "redis", ...(redisUrl ? {} : { skipped: "TEST_REDIS_URL not set" }) },
  { engine: "postgres", ...(postgresUrl ? {} : { skipped: "TEST_POSTGRES_URL not set" }) },
];
for (const { engine, skipped } of engines)
  if (skipped) console.log(`upgrade from c6ce3d1: skipping ${engine} (${skipped})`);

/** The fixture's store, put back into a place of its own; `remove` deletes that place. */
async function loadFixture(engine: Engine): Promise<{ url: string; remove: () => Promise<void> }> {
  if (engine === "redis") {
    const { url, clear } = await loadRedisFixture(redisUrl ?? "");
    return { url, remove: clear };
  }
  if (engine === "postgres") {
    const { url, drop } = await loadPostgresFixture(postgresUrl ?? "");
    return { url, remove: drop };
  }
  const dir = mkdtempSync(join(tmpdir(), "kassa-upgrade-"));
  const path = join(dir, "kassa.sqlite");
  loadSqliteFixture(path);
  return { url: `sqlite://${path}`, remove: async () => rmSync(dir, { recursive: true, force: true }) };
}

describe.each(engines.filter((entry) => !entry.skipped))(
  "a $engine store written by c6ce3d1",
  ({ engine }) => {
    const world: FixtureWorld = fixtureWorld(engine);
    let stack: Stack;
    let store: { url: string; remove: () => Promise<void> } | undefined;
    /** The app's clock: a minute after c6ce3d1 stopped, running on from there. */
    let shift = 0;
    const appNow = () => new Date(Date.now() - shift);
    const feedPosts = (id: string): PostedMessage[] =>
      [...stack.slack.messages.values()].filter(
        (m) => m.channel === world.feed.channel && !m.threadTs && m.text.includes(id),
      );
    const historyReads = (since = 0) =>
      stack.fake.requests.filter((request) => request.at >= since && request.path.includes("history")).length;
    const card = (where: { channel: string; ts: string }) =>
      stack.slack.messages.get(`${where.channel}:${where.ts}`);

    beforeAll(async () => {
      store = await loadFixture(engine);
      shift = Date.now() - (world.writtenAt + 60_000);
      const port = await freePort();
      let started = false;
      stack = await Stack.start({
        connect: false,
        fake: { invoices: structuredClone(world.invoices) },
        env: {
          STORE_URL: store.url,
          PORT: String(port),
          PUBLIC_URL: `http://127.0.0.1:${port}/`,
          FEED_INTERVAL_MS: "200",
          WATCH_INTERVAL_MS: "200",
        },
        // Started only once Slack holds the old cards again (below): the first start is a stand-in.
        startApp: async (env) => {
          if (!started) return { port: 0, stop: async () => {} };
          return startServer(env, {
            logDestination: { write: (line: string) => void stack.logs.push(line) },
            paymentsRetryDelayMs: 20,
            storeMemoMs: 0,
            clock: clockReading(appNow),
          });
        },
      });
      stack.slack.users[world.admin] = { is_admin: true };
      for (const message of world.messages)
        stack.slack.messages.set(`${message.channel}:${message.ts}`, structuredClone(message));
      started = true;
      await stack.restart();
    });
    afterAll(async () => {
      await stack?.stop();
      await store?.remove();
    });

    it("has the cash register connected: /invoice status says so, and its sealed secret opens (an invoice is read)", async () => {
      const status = JSON.stringify((await stack.ask("status", { userId: world.admin })).reply.body);
      expect(status).toContain(`*Подключена* касса \`sa***er\`, подключил(а) <@${world.admin}>`);
      expect(status).toContain("Счетов, отслеживаемых в реальном времени: 2.");
      expect(status).toContain(`<#${world.feed.channel}>`);
      expect(status).not.toContain("не может открыть");
      const { reply } = await stack.ask(world.feed.paidBefore[0] ?? "", {
        userId: MEMBER,
        channelId: "C0UPLOOK",
      });
      expect(JSON.stringify(reply.body)).toContain(`Счёт ${world.feed.paidBefore[0]}`);
      expect(JSON.stringify(reply.body)).toContain("Оплачен");
    });

    it("keeps the workspace's settings: Russian, and /balance for everyone", async () => {
      const { reply } = await stack.ask("", { command: "/balance", userId: MEMBER, channelId: "C0UPBAL" });
      const text = JSON.stringify(reply.body);
      expect(text).toContain("Баланс кассы");
      expect(text).not.toContain("Cash register balance");
    });

    it("carries the feed on: a payment made after the upgrade is posted once, none posted before again", async () => {
      for (const id of world.feed.paidBefore) expect(feedPosts(id)).toHaveLength(1);
      const id = "730000010_AfterUpgrade";
      const made = Date.now();
      stack.fake.invoices.set(
        id,
        openInvoice(id, { amount: "3100", description: "After the upgrade" }, appNow()),
      );
      await expect.poll(() => historyReads(made), { timeout: 10_000 }).toBeGreaterThanOrEqual(2);
      stack.fake.pay(id);
      await expect.poll(() => feedPosts(id).length, { timeout: 10_000 }).toBe(1);
      expect(feedPosts(id)[0]?.text).toContain("Оплачен");
      // More passes over the same history: still once, and the payments of before never again.
      const posted = Date.now();
      await expect.poll(() => historyReads(posted), { timeout: 10_000 }).toBeGreaterThanOrEqual(4);
      expect(feedPosts(id)).toHaveLength(1);
      for (const before of world.feed.paidBefore) expect(feedPosts(before)).toHaveLength(1);
    });

    it("keeps the live card live: paid, its card turns Paid and its thread tells it once", async () => {
      const before = card(world.card)?.updates ?? 0;
      stack.fake.pay(world.card.invoice);
      await expect.poll(() => card(world.card)?.updates ?? 0, { timeout: 10_000 }).toBeGreaterThan(before);
      await expect
        .poll(() => JSON.stringify(card(world.card)?.blocks), { timeout: 10_000 })
        .toContain("Оплачен");
      await expect
        .poll(() => stack.slack.threadOf(world.card.channel, world.card.ts).length, { timeout: 10_000 })
        .toBe(1);
      expect(stack.slack.threadOf(world.card.channel, world.card.ts)[0]?.text).toContain(
        "Не оплачен → Оплачен",
      );
      // The feed, which had noted it unpaid, posts its payment once too.
      await expect.poll(() => feedPosts(world.card.invoice).length, { timeout: 10_000 }).toBe(1);
    });

    // The callback address: its key, stored by c6ce3d1, still names the workspace (later schema
    // steps that move callback keys must keep this passing).
    it("routes the payment service's notification to the invoice created with the callback address", async () => {
      const status = JSON.stringify((await stack.ask("status", { userId: world.admin })).reply.body);
      expect(status).toContain(`${stack.url}${world.created.callbackPath}`);
      const invoice = stack.fake.invoices.get(world.created.invoice);
      if (!invoice) throw new Error("the fixture has no created invoice");
      // The public address is the same before and after an upgrade; here the port is this run's.
      invoice.callbackUrl = `${stack.url}${world.created.callbackPath}`;
      stack.fake.pay(world.created.invoice);
      await expect
        .poll(() => stack.fake.callbacks.find((sent) => sent.invoiceId === world.created.invoice)?.status)
        .toBe(200);
      await expect
        .poll(() =>
          stack
            .logEntries()
            .some((entry) => entry.outcome === "callback_nudged" && entry.invoice === world.created.invoice),
        )
        .toBe(true);
      await expect
        .poll(() => JSON.stringify(card(world.created)?.blocks), { timeout: 10_000 })
        .toContain("Оплачен");
    });
  },
);
