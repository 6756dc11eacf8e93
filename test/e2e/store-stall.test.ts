import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Stack } from "../../sandbox/stack.js";
import { openFeedLedger } from "../../src/feed/ledger.js";
import { StoreCallError } from "../../src/store/deadline.js";
import { openStore } from "../../src/store/keyv.js";
import { type StallProxy, startStallProxy } from "../support/stall-proxy.js";
import { dropWatchNamespace } from "../support/watch-namespaces.js";

const redisUrl = process.env.TEST_REDIS_URL?.trim() || undefined;
const postgresUrl = process.env.TEST_POSTGRES_URL?.trim() || undefined;
if (!redisUrl) console.log("store stall: skipping Redis (TEST_REDIS_URL not set)");
if (!postgresUrl) console.log("store stall: skipping PostgreSQL (TEST_POSTGRES_URL not set)");

/** The same URL, through the proxy: host and port replaced. */
function throughProxy(url: string, port: number): string {
  const proxied = new URL(url);
  proxied.hostname = "127.0.0.1";
  proxied.port = String(port);
  return proxied.toString();
}

function targetOf(url: string, defaultPort: number): { host: string; port: number } {
  const parsed = new URL(url);
  return { host: parsed.hostname, port: Number(parsed.port || defaultPort) };
}

/** STORE_TIMEOUT_MS of the stalled Redis stack: short, so the stall tests are quick. */
const DEADLINE_MS = 600;
/** What a reply may take beyond the one deadline it waits (the command's own work on a busy machine). */
const SLACK_MS = 0.75 * DEADLINE_MS;

describe.skipIf(!redisUrl)("a Redis store that stalls while Kassa runs", () => {
  let proxy: StallProxy;
  let stack: Stack;
  beforeAll(async () => {
    proxy = await startStallProxy(targetOf(redisUrl ?? "", 6379));
    // A database of its own, so the sandbox team's keys do not meet other tests' on a shared server.
    const url = new URL(throughProxy(redisUrl ?? "", proxy.port));
    url.pathname = `/${process.env.TEST_REDIS_STALL_DB ?? "13"}`;
    stack = await Stack.start({
      env: {
        STORE_URL: url.toString(),
        STORE_TIMEOUT_MS: String(DEADLINE_MS),
        RATE_LIMIT_USER_PER_MIN: "1000",
      },
      storeMemoMs: 0,
    });
  });
  afterAll(async () => {
    proxy?.resume();
    await stack?.stop();
    await proxy?.close();
  });

  it("answers 'storage is not answering' after one store deadline, and /readyz 503 within 2 s", async () => {
    proxy.stall();
    const { ack, reply } = await stack.ask("715308958_rPwTzvsvCm");
    // Nothing is cached (storeMemoMs 0): the replay claim, the rate count, the register directory
    // and the language each ask the store, and the reply waits one deadline for all of them (it
    // waited one per call in turn: 4 deadlines).
    expect(reply.at - ack.sentAt).toBeGreaterThanOrEqual(DEADLINE_MS);
    expect(reply.at - ack.sentAt).toBeLessThan(DEADLINE_MS + SLACK_MS);
    const text = JSON.stringify(reply.body);
    expect(text).toContain("Kassa's storage is not answering right now. Try again in a minute.");
    expect(text).not.toContain("Something went wrong");
    await expect
      .poll(() => stack.logEntries().some((entry) => entry.outcome === "store_unavailable"))
      .toBe(true);

    const ready = Date.now();
    const response = await fetch(`${stack.url}/readyz`);
    expect(response.status).toBe(503);
    expect(Date.now() - ready).toBeLessThan(2000);

    proxy.resume();
    await expect.poll(async () => (await fetch(`${stack.url}/readyz`)).status, { timeout: 5000 }).toBe(200);
    const after = await stack.ask("715308958_rPwTzvsvCm");
    expect(JSON.stringify(after.reply.body)).toContain("Invoice 715308958_rPwTzvsvCm");
  });

  it("answers fifty commands sent while Redis hangs, each after one store deadline, none waiting it out", async () => {
    proxy.stall();
    try {
      const answered = await Promise.all(
        Array.from({ length: 50 }, async (_, index) => {
          const ack = await stack.command("715308958_rPwTzvsvCm", { userId: `U0STALL${index}` });
          expect(ack.status).toBe(200);
          const reply = await stack.slack.waitForReply(ack.responseId, { timeoutMs: 15_000 });
          return { ms: reply.at - ack.sentAt, text: JSON.stringify(reply.body) };
        }),
      );
      // Each waits one deadline for the store, as one command alone does, plus its turn among fifty
      // failure replies written at once (up to two more deadlines on a busy 2-core machine: 1.86 s
      // was seen beside a full suite); they waited four deadlines each before (2.4 s). Before the
      // rate limiter failed fast, the workspace's queue made the 50th wait 50 deadlines.
      const slow = answered.filter((entry) => entry.ms > 3.5 * DEADLINE_MS).map((entry) => entry.ms);
      expect(slow).toEqual([]);
      for (const entry of answered) expect(entry.text).toContain("storage is not answering");
    } finally {
      proxy.resume();
    }
    await expect.poll(async () => (await fetch(`${stack.url}/readyz`)).status, { timeout: 5000 }).toBe(200);
    const after = await stack.ask("715308958_rPwTzvsvCm", { userId: "U0AFTERSTALL" });
    expect(JSON.stringify(after.reply.body)).toContain("Invoice 715308958_rPwTzvsvCm");
  });
});

describe.skipIf(!postgresUrl)("a PostgreSQL store that stalls", () => {
  it("fails a read, and a feed turn's claim, with StoreCallError after the time-out instead of waiting", async () => {
    const proxy = await startStallProxy(targetOf(postgresUrl ?? "", 5432));
    const store = await openStore(throughProxy(postgresUrl ?? "", proxy.port), { timeoutMs: 300 });
    const namespace = `ks_${process.pid}`;
    try {
      const keyv = store.namespace(`stall-${process.pid}`);
      await keyv.set("k", "v");
      const ledger = await openFeedLedger(store, namespace, 300);
      proxy.stall();
      const claimedAt = Date.now();
      await expect(ledger.claim(Date.now(), 10_000, 5)).rejects.toBeInstanceOf(StoreCallError);
      expect(Date.now() - claimedAt).toBeLessThan(1500);
      const error = await keyv.get("k").then(
        () => undefined,
        (failure: unknown) => failure,
      );
      expect(error).toBeInstanceOf(StoreCallError);
      expect((error as StoreCallError).reason).toBe("timeout");
      await expect(store.ping()).rejects.toBeInstanceOf(StoreCallError);
      proxy.resume();
      await expect.poll(() => keyv.get("k"), { timeout: 5000 }).toBe("v");
      await keyv.clear();
    } finally {
      proxy.resume();
      await store.close();
      await proxy.close();
      await dropWatchNamespace(postgresUrl ?? "", namespace);
    }
  });
});
