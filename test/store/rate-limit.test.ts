/**
 * The rate limiter's count on every engine STORE_URL accepts (test/support/engines.ts): SQLite always
 * (one instance, counting in its memory); Redis and PostgreSQL when the run has them (TEST_REDIS_URL,
 * TEST_POSTGRES_URL: the run's own databases). A backend the run lacks is skipped, and says so. Two
 * stores opened on one URL stand for two replicas.
 */
import { randomBytes } from "node:crypto";
import { once } from "node:events";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createClient } from "@keyv/redis";
import { afterAll, describe, expect, it } from "vitest";
import { storeMissedHere, withOneStoreWait } from "../../src/store/deadline.js";
import { type KeyvStore, openStore } from "../../src/store/keyv.js";
import { RateLimiter, type RateVerdict } from "../../src/store/rate-limit.js";
import { ensureSchema } from "../../src/store/schema/index.js";
import { contractEngines, sayWhatIsSkipped } from "../support/engines.js";
import { type StallProxy, startStallProxy } from "../support/stall-proxy.js";

/** This run's table and keys: several runs may share one Redis or PostgreSQL server. */
const RUN = `t${randomBytes(5).toString("hex")}`;
const dir = mkdtempSync(join(tmpdir(), "kassa-rate-"));
const ENGINES = contractEngines({ sqlite: join(dir, "kassa.sqlite") });
sayWhatIsSkipped("rate limits", ENGINES);
const opened: KeyvStore[] = [];
const proxies: StallProxy[] = [];
afterAll(async () => {
  for (const proxy of proxies) proxy.resume();
  // Redis' keys lapse by themselves; PostgreSQL's table of this run goes.
  const postgres = opened.find((store) => store.native?.kind === "postgres");
  if (postgres?.native?.kind === "postgres")
    await postgres.native.pool.query(`DROP TABLE IF EXISTS public.${RUN}_rate_limits`);
  await Promise.all(opened.map((store) => store.close()));
  await Promise.all(proxies.map((proxy) => proxy.close()));
  rmSync(dir, { recursive: true, force: true });
});

async function open(url: string): Promise<KeyvStore> {
  const store = await openStore(url, { timeoutMs: 300 });
  opened.push(store);
  // The run's own prefix: its tables, as the store's own are applied when it opens.
  if (store.native) await ensureSchema(store.native, RUN);
  return store;
}

const passed = (verdicts: RateVerdict[]) => verdicts.filter((verdict) => !verdict.limited).length;

for (const { name, url, skipped } of ENGINES) {
  describe.skipIf(skipped !== undefined)(`rate limits on ${name}`, () => {
    const replicas = async (limits: { userPerMinute: number; teamPerMinute: number }) => {
      if (name === "sqlite") {
        // SQLite serves one instance, which counts in its memory: one limiter stands for "both".
        const one = new RateLimiter(await open(url ?? ""), limits, { timeoutMs: 2000, prefix: RUN });
        return [one, one];
      }
      const stores = await Promise.all([open(url ?? ""), open(url ?? "")]);
      return stores.map((store) => new RateLimiter(store, limits, { timeoutMs: 2000, prefix: RUN }));
    };

    it("of N simultaneous hits from two replicas at a limit of K, exactly K pass", async () => {
      const perUser = await replicas({ userPerMinute: 5, teamPerMinute: 0 });
      const byOneUser = await Promise.all(
        Array.from(
          { length: 20 },
          (_, index) => perUser[index % 2]?.hit(`T1${name}`, "U1") as Promise<RateVerdict>,
        ),
      );
      expect(passed(byOneUser)).toBe(5);
      const refusal = byOneUser.find((verdict) => verdict.limited);
      expect(refusal).toMatchObject({ limited: true, scope: "user" });
      // The window began with this burst's first hit, a moment ago.
      const retryAfter = refusal?.limited ? refusal.retryAfterSeconds : 0;
      expect(retryAfter).toBeGreaterThan(50);
      expect(retryAfter).toBeLessThanOrEqual(60);

      const perTeam = await replicas({ userPerMinute: 0, teamPerMinute: 7 });
      const byMany = await Promise.all(
        Array.from(
          { length: 30 },
          (_, index) => perTeam[index % 2]?.hit(`T2${name}`, `U${index}`) as Promise<RateVerdict>,
        ),
      );
      expect(passed(byMany)).toBe(7);
      expect(byMany.find((verdict) => verdict.limited)).toMatchObject({ scope: "team" });
    });

    it("a refusal uses up no quota; replicas see each other's counts", async () => {
      const [first, second] = await replicas({ userPerMinute: 2, teamPerMinute: 3 });
      if (!first || !second) throw new Error("two replicas expected");
      const team = `T3${name}`;
      expect(await first.hit(team, "U1")).toEqual({ limited: false });
      expect(await second.hit(team, "U1")).toEqual({ limited: false });
      expect(await first.hit(team, "U1")).toMatchObject({ limited: true, scope: "user" });
      // The person's refusal gave the workspace's point back: a third person still passes.
      expect(await second.hit(team, "U2")).toEqual({ limited: false });
      expect(await first.hit(team, "U3")).toMatchObject({ limited: true, scope: "team" });
      expect(await second.hit(`T4${name}`, "U1")).toEqual({ limited: false });
    });

    it.skipIf(name === "sqlite")(
      "while the store hangs, hits are counted in memory within the deadline; in the store again after",
      async () => {
        const target = new URL(url ?? "");
        const proxy = await startStallProxy({
          host: target.hostname,
          port: Number(target.port || (name === "redis" ? 6379 : 5432)),
        });
        proxies.push(proxy);
        const proxied = new URL(url ?? "");
        proxied.hostname = "127.0.0.1";
        proxied.port = String(proxy.port);
        const limits = { userPerMinute: 3, teamPerMinute: 0 };
        const hanging = new RateLimiter(await open(proxied.toString()), limits, {
          timeoutMs: 200,
          prefix: RUN,
        });
        const direct = new RateLimiter(await open(url ?? ""), limits, { timeoutMs: 2000, prefix: RUN });
        expect(await hanging.hit(`T5${name}`, "U0")).toEqual({ limited: false });

        proxy.stall();
        const started = performance.now();
        const verdicts = await Promise.all(Array.from({ length: 6 }, () => hanging.hit(`T5${name}`, "U1")));
        expect(performance.now() - started).toBeLessThan(1500);
        // This process's own count stands in for the store's, with the same limit.
        expect(passed(verdicts)).toBe(3);

        proxy.resume();
        expect(await hanging.hit(`T5${name}`, "U2")).toEqual({ limited: false });
        expect(await hanging.hit(`T5${name}`, "U2")).toEqual({ limited: false });
        expect(await direct.hit(`T5${name}`, "U2")).toEqual({ limited: false });
        expect(await direct.hit(`T5${name}`, "U2")).toMatchObject({ limited: true, scope: "user" });
      },
    );
  });
}

describe("rate limits on a store that never answers", () => {
  it("let commands through within one deadline each, counted in memory with the same limits", async () => {
    // A Redis that takes the connection (node-redis' CLIENT SETINFO handshake) and answers nothing after.
    const sockets = new Set<Socket>();
    let asked = 0;
    const server = createServer((socket) => {
      sockets.add(socket);
      socket.on("data", (data) => {
        const text = data.toString();
        for (const _ of text.matchAll(/CLIENT/g)) socket.write("+OK\r\n");
        asked += [...text.matchAll(/EVAL/g)].length;
      });
    });
    server.listen(0, "127.0.0.1");
    await once(server, "listening");
    const address = server.address();
    if (typeof address !== "object" || address === null) throw new Error("no port");
    const client = createClient({ url: `redis://127.0.0.1:${address.port}`, disableOfflineQueue: true });
    client.on("error", () => {});
    await client.connect();
    try {
      const limiter = new RateLimiter(
        { native: { kind: "redis", client } },
        { userPerMinute: 2, teamPerMinute: 4 },
        { timeoutMs: 100 },
      );
      const started = performance.now();
      const verdicts = await Promise.all(Array.from({ length: 5 }, () => limiter.hit("T1", "U1")));
      expect(performance.now() - started).toBeLessThan(1000);
      expect(passed(verdicts)).toBe(2);
      expect(verdicts.find((verdict) => verdict.limited)).toMatchObject({ scope: "user" });
      // Each hit asked the store once (its workspace's count) and waited one deadline: once that
      // failed, its person's count and any giving back were made in memory without asking.
      expect(asked).toBe(5);
      // A later command asks the store again (it may be back), and waits one deadline at most.
      expect(await limiter.hit("T1", "U2")).toEqual({ limited: false });
      expect(asked).toBe(6);
      // Within a request (withOneStoreWait), a count that waited out its deadline makes the
      // request's other store calls fail at once; a request that already saw the store miss counts
      // in memory without asking it.
      await withOneStoreWait(async () => {
        expect(await limiter.hit("T2", "U3")).toEqual({ limited: false });
        expect(storeMissedHere(100)).toBe(true);
        expect(await limiter.hit("T2", "U3")).toEqual({ limited: false });
      });
      expect(asked).toBe(7);
      // A store that refuses at once (a closed client) is no stall: the request's calls go on asking.
      const closed = createClient({ url: `redis://127.0.0.1:${address.port}` });
      const refusing = new RateLimiter(
        { native: { kind: "redis", client: closed } },
        { userPerMinute: 2, teamPerMinute: 4 },
        { timeoutMs: 100 },
      );
      await withOneStoreWait(async () => {
        expect(await refusing.hit("T3", "U4")).toEqual({ limited: false });
        expect(storeMissedHere(100)).toBe(false);
      });
    } finally {
      client.destroy();
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
