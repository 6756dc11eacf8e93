/**
 * Schema step 4 on every engine (test/support/engines.ts): the feed's channel states kept in Keyv
 * before the ledger (namespace "feedstate") move onto the claim board. Written with Keyv itself, as
 * the releases before the ledger wrote them. SQLite always, as a file of c6ce3d1 opened by this release; Redis when
 * TEST_REDIS_URL is set and PostgreSQL when TEST_POSTGRES_URL is, each under a prefix and Keyv
 * namespaces of the run's own (the step builders take them; the store's own runs under "kassa").
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import type Keyv from "keyv";
import { afterAll, describe, expect, it } from "vitest";
import { feedStateSchema } from "../../src/feed/model.js";
import type { ClaimBoard } from "../../src/store/claims/board.js";
import { postgresClaimBoard } from "../../src/store/claims/postgres.js";
import { redisClaimBoard } from "../../src/store/claims/redis.js";
import { sqliteClaimBoard } from "../../src/store/claims/sqlite.js";
import { keyvFor } from "../../src/store/connection.js";
import { type KeyvStore, openStore } from "../../src/store/keyv.js";
import {
  LEGACY_FEED_NAMESPACES,
  type LegacyFeedNamespaces,
  postgresLegacyFeedMove,
  redisLegacyFeedMove,
} from "../../src/store/schema/legacy-feed.js";
import { claimTables, redisClaimPrefix, tableName } from "../../src/store/schema/names.js";
import { applyPostgresSchema, POSTGRES_STEPS } from "../../src/store/schema/postgres.js";
import { applyRedisSchema, REDIS_STEPS } from "../../src/store/schema/redis.js";
import { SQLITE_STEPS } from "../../src/store/schema/sqlite.js";
import { SqliteKeyvAdapter } from "../../src/store/sqlite.js";
import { POSTGRES, REDIS, sayWhatIsSkipped } from "../support/engines.js";
import { dropPrefixTables } from "../support/watch-namespaces.js";

const run = randomBytes(4).toString("hex");
const redisUrl = REDIS.url;
const postgresUrl = POSTGRES.url;
const opened: KeyvStore[] = [];
afterAll(async () => {
  await Promise.all(opened.map((store) => store.close()));
});
async function open(url: string): Promise<KeyvStore> {
  const store = await openStore(url);
  opened.push(store);
  return store;
}

const TEAM = "T0OLD";
/** A state from before states noted their subscription: no `since`; ids Keyv escaped on the way in. */
const unnoted = {
  seen: [
    [":odd", "payed", 1_764_000_000],
    ['say "::hi" \\', "notpayed"],
  ],
  owed: [{ id: "::two", state: "payed", isNew: true }],
  unpaid: [],
  goodReads: 0,
  pause: null,
};
const onBoard = { since: 2000, seen: [["new", "payed"]], owed: [], unpaid: [], goodReads: 0, pause: null };

/** What a store of the release before held: subscriptions, legacy states, and one state on the board already. */
async function writeLegacy(keyv: (namespace: string) => Keyv, namespaces: LegacyFeedNamespaces) {
  await keyv(namespaces.subscriptions).set(TEAM, {
    channels: ["C0A", "C0B", "C0C"].map((channel, i) => ({
      channel,
      mode: "paid",
      by: "U0ADMIN",
      since: 1000 * (i + 1),
    })),
  });
  const states = keyv(namespaces.states);
  await states.set(`${TEAM}:C0A`, unnoted);
  await states.set(`${TEAM}:C0B`, { ...onBoard, seen: [["old", "payed"]] });
  await states.set(`${TEAM}:C0C`, { ...unnoted, since: 2500 });
  // No subscription any more: nothing would ever read them.
  await states.set(`${TEAM}:C0GONE`, unnoted);
  await states.set("T0NONE:C0A", unnoted);
  await keyv("settings").set(TEAM, { language: "ru" });
}

async function expectMoved(board: ClaimBoard, keyv: (namespace: string) => Keyv, ns: LegacyFeedNamespaces) {
  const state = (channel: string) => board.readState("feed", TEAM, channel);
  // Its subscription's `since`, and the strings as Keyv gave them back.
  expect(await state("C0A")).toEqual({ ...unnoted, since: 1000 });
  expect(feedStateSchema.safeParse(await state("C0A")).success).toBe(true);
  // The board's own is newer and stays.
  expect(await state("C0B")).toEqual(onBoard);
  // One with a `since` keeps it (another subscription's: the feed starts it afresh, as before).
  expect(await state("C0C")).toEqual({ ...unnoted, since: 2500 });
  expect(await state("C0GONE")).toBeUndefined();
  expect(await board.readState("feed", "T0NONE", "C0A")).toBeUndefined();
  for (const key of [`${TEAM}:C0A`, `${TEAM}:C0B`, `${TEAM}:C0C`, `${TEAM}:C0GONE`, "T0NONE:C0A"])
    expect(await keyv(ns.states).get(key), key).toBeUndefined();
  expect((await keyv(ns.subscriptions).get(TEAM)) as unknown).toMatchObject({
    channels: expect.arrayContaining([expect.objectContaining({ channel: "C0A" })]),
  });
  expect(await keyv("settings").get(TEAM)).toEqual({ language: "ru" });
}

describe("schema step 4 on sqlite: a file of c6ce3d1 with states from before the ledger", () => {
  const dir = mkdtempSync(join(tmpdir(), "kassa-legacy-feed-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("moves them onto the claim board when this release opens it, and removes them", async () => {
    const path = join(dir, "kassa.sqlite");
    const db = new Database(path);
    // c6ce3d1's Keyv table and its ledger's states table, holding C0B's state.
    db.exec("CREATE TABLE IF NOT EXISTS keyv(key VARCHAR(255) PRIMARY KEY, value TEXT )");
    db.exec(`CREATE TABLE IF NOT EXISTS kassa_feed_states (
      team TEXT NOT NULL, channel TEXT NOT NULL, state TEXT NOT NULL, PRIMARY KEY (team, channel))`);
    db.prepare("INSERT INTO kassa_feed_states VALUES (?, ?, ?)").run(TEAM, "C0B", JSON.stringify(onBoard));
    const written = new Map<string, Keyv>();
    const writer = (namespace: string) => {
      const keyv = written.get(namespace) ?? keyvFor(new SqliteKeyvAdapter(db), namespace, 5000);
      written.set(namespace, keyv);
      return keyv;
    };
    await writeLegacy(writer, LEGACY_FEED_NAMESPACES);
    // Keyv's own text, as the step reads it.
    expect(db.prepare("SELECT value FROM keyv WHERE key = ?").get(`feedstate:${TEAM}:C0A`)).toEqual({
      value: expect.stringMatching(/^\{"value":\{"seen":\[\["::odd",/),
    });
    db.close();

    const store = await open(`sqlite://${path}`);
    const native = store.native;
    if (native?.kind !== "sqlite") throw new Error("not a SQLite store");
    await expectMoved(
      sqliteClaimBoard(native.db, claimTables("kassa")),
      (namespace) => store.namespace(namespace),
      LEGACY_FEED_NAMESPACES,
    );
    expect(native.db.prepare("SELECT version FROM kassa_schema").get()).toEqual({
      version: SQLITE_STEPS.length,
    });
  });
});

describe.skipIf(!postgresUrl)("schema step 4 on postgres", () => {
  const name = `ks_${run}_legacy`;
  const ns = { states: `${name}-feedstate`, subscriptions: `${name}-feedsubs` };
  const mine = (namespace: string) => (namespace === "settings" ? `${name}-settings` : namespace);
  afterAll(async () => {
    const store = await open(postgresUrl ?? "");
    if (store.native?.kind !== "postgres") return;
    await dropPrefixTables(store.native.pool, name);
    await store.native.pool.query("DELETE FROM public.kassa WHERE starts_with(key, $1)", [name]);
  });

  it("runs under the store's own prefix only", () => {
    expect(POSTGRES_STEPS[3]?.("kassa")).toEqual(postgresLegacyFeedMove("kassa", LEGACY_FEED_NAMESPACES));
    expect(POSTGRES_STEPS[3]?.(name)).toEqual([]);
  });

  it("moves the states onto the claim board and removes them", async () => {
    const store = await open(postgresUrl ?? "");
    if (store.native?.kind !== "postgres") throw new Error("not a PostgreSQL store");
    const pool = store.native.pool;
    const before = POSTGRES_STEPS.slice(0, 3);
    expect(await applyPostgresSchema(pool, name, before)).toBe(3);
    await pool.query(`INSERT INTO ${tableName(name, "claim_states")} VALUES ('feed', $1, 'C0B', $2)`, [
      TEAM,
      JSON.stringify(onBoard),
    ]);
    await writeLegacy((namespace) => store.namespace(mine(namespace)), ns);
    const step4 = (prefix: string) => postgresLegacyFeedMove(prefix, ns);
    expect(await applyPostgresSchema(pool, name, [...before, step4])).toBe(4);
    await expectMoved(
      postgresClaimBoard(pool, claimTables(name)),
      (namespace) => store.namespace(mine(namespace)),
      ns,
    );
  });
});

describe.skipIf(!redisUrl)("schema step 4 on redis", () => {
  const name = `kassa-test-${run}-legacy`;
  const ns = { states: `${name}-feedstate`, subscriptions: `${name}-feedsubs` };
  const mine = (namespace: string) => (namespace === "settings" ? `${name}-settings` : namespace);
  afterAll(async () => {
    const store = await open(redisUrl ?? "");
    if (store.native?.kind !== "redis") return;
    await store.native.client.eval(
      "for _, key in ipairs(redis.call('KEYS', ARGV[1])) do redis.call('DEL', key) end return 1",
      { arguments: [`${name}*`] },
    );
  });

  it("runs under the store's own prefix only", () => {
    expect(REDIS_STEPS[3]?.lua).toContain(redisLegacyFeedMove(LEGACY_FEED_NAMESPACES));
    expect(REDIS_STEPS[3]?.lua).toMatch(/^if ARGV\[1\] == 'kassa' then/);
  });

  it("moves the states onto the claim board and removes them", async () => {
    const store = await open(redisUrl ?? "");
    if (store.native?.kind !== "redis") throw new Error("not a Redis store");
    const client = store.native.client;
    const before = REDIS_STEPS.slice(0, 3);
    expect(await applyRedisSchema(client, name, before)).toBe(3);
    await client.hSet(`${redisClaimPrefix(name)}:s:feed:${TEAM}`, "C0B", JSON.stringify(onBoard));
    await writeLegacy((namespace) => store.namespace(mine(namespace)), ns);
    expect(await client.get(`${ns.states}::${TEAM}:C0A`)).toMatch(/^\{"value":\{"seen":\[\["::odd",/);
    const step4 = { purpose: "the test's legacy feed states", lua: redisLegacyFeedMove(ns) };
    expect(await applyRedisSchema(client, name, [...before, step4])).toBe(4);
    await expectMoved(
      redisClaimBoard(client, redisClaimPrefix(name)),
      (namespace) => store.namespace(mine(namespace)),
      ns,
    );
  });
});

sayWhatIsSkipped("schema step 4", [POSTGRES, REDIS]);
