/**
 * Schema step 6 on every engine (test/support/engines.ts): the live cards' watches of the queues
 * before the claim board move onto it, written as those queues wrote them (SQLite through Keyv into
 * the namespace "watches", the PostgreSQL tables, the Redis keys under P:watch). SQLite always (the store's own prefix, in a file
 * of its own); Redis when TEST_REDIS_URL is set and PostgreSQL when TEST_POSTGRES_URL is, each under a
 * prefix of the run's own. What moved is read and changed by the queue on the board: a state whose
 * text is not JSON.stringify's would fail every compare-and-set.
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { type ClaimBoard, openClaimBoard } from "../../src/store/claims/index.js";
import { type KeyvStore, openStore } from "../../src/store/keyv.js";
import { postgresWatchesMove, sqliteWatchesMove } from "../../src/store/schema/legacy-watches.js";
import { applyPostgresSchema, POSTGRES_STEPS } from "../../src/store/schema/postgres.js";
import { applyRedisSchema } from "../../src/store/schema/redis.js";
import { SQLITE_STEPS } from "../../src/store/schema/sqlite.js";
import { BoardWatchQueue } from "../../src/watch/board-queue.js";
import { cardId, type Watch, type WatchCard } from "../../src/watch/model.js";
import { POSTGRES, REDIS, sayWhatIsSkipped } from "../support/engines.js";
import { unpaidInvoice } from "../support/watch-fixtures.js";
import { dropPrefixTables } from "../support/watch-namespaces.js";

const run = randomBytes(4).toString("hex");
const redisUrl = REDIS.url;
const postgresUrl = POSTGRES.url;
const dir = mkdtempSync(join(tmpdir(), "kassa-schema-watches-"));
const opened: KeyvStore[] = [];
async function open(url: string): Promise<KeyvStore> {
  const store = await openStore(url);
  opened.push(store);
  return store;
}
afterAll(async () => {
  await Promise.all(opened.map((store) => store.close()));
  rmSync(dir, { recursive: true, force: true });
});

const TEAM = "T0OLD";
const STARTED = 1_795_705_000_000;
const DUE = STARTED + 2000;
// What JSON and Keyv escape: quotes, a backslash, a new line, a control character, Cyrillic,
// strings that start with ":" (Keyv adds one) and hold '"::'.
const invoice = {
  ...unpaidInvoice("inv-old"),
  description: ':tada: "Заказ №7" \\ 1/2\n— ✓ "::x',
  extra: "\u0001:",
};
const cards: WatchCard[] = [
  {
    kind: "channel",
    channel: "C0OLD",
    ts: "1795705000.000001",
    user: "U0ONE",
    postedState: "notpayed",
    createdBy: true,
    entered: { value: "1500", currency: "RUB" },
  },
  { kind: "dm", user: "U0TWO", postedState: ":notpayed" },
];
const WATCH: Watch = {
  team: TEAM,
  invoiceId: "inv-old",
  register: "reg:1",
  state: "notpayed",
  amounts: JSON.stringify([invoice.amounts, invoice.commissions]),
  invoice,
  startedAt: STARTED,
  intervalMs: 1000,
  lastCheckedAt: STARTED + 1000,
  cardsUpdatedAt: STARTED,
  cards,
};
const byId = (list: WatchCard[] = []) => [...list].sort((a, b) => (cardId(a) < cardId(b) ? -1 : 1));

/** The moved watch, read, claimed and changed by the queue on the board. */
async function expectMoved(board: ClaimBoard): Promise<void> {
  const queue = new BoardWatchQueue(board);
  expect(await queue.count(TEAM)).toBe(1);
  // Who has a card on it counts towards their share; others have room.
  expect(await queue.room(TEAM, "inv-new", 10, { user: "U0TWO", max: 1 })).toBe("asker_full");
  expect(await queue.room(TEAM, "inv-new", 10, { user: "U0NEW", max: 1 })).toBe("watching");
  expect(await queue.room(TEAM, "inv-new", 1)).toBe("workspace_full");
  expect(await queue.claimDue(DUE - 1, 10, 60_000)).toEqual([]);
  const [watch] = await queue.claimDue(DUE, 10, 60_000);
  expect({ ...watch, cards: byId(watch?.cards) }).toEqual({
    ...WATCH,
    cards: byId(cards),
    lease: watch?.lease,
  });
  const lease = watch?.lease ?? "";
  const paid = { ...invoice, state: "payed" };
  expect(
    await queue.tell(TEAM, "inv-old", WATCH, { state: "payed", amounts: "a1", invoice: paid }, lease),
  ).toBe(true);
  expect(
    await queue.setCard(TEAM, "inv-old", { ...cards[0], owed: { redraw: true } } as WatchCard, lease),
  ).toBe(true);
  const patch = { intervalMs: 2000, lastCheckedAt: DUE };
  expect(await queue.reschedule(TEAM, "inv-old", DUE + 2000, patch, lease)).toBe(true);
  const [again] = await new BoardWatchQueue(board).claimDue(DUE + 2000, 10, 60_000);
  expect(again).toMatchObject({
    state: "payed",
    intervalMs: 2000,
    invoice: { description: invoice.description },
  });
  expect(await queue.remove(TEAM, "inv-old", again?.lease)).toBe(true);
  expect(await queue.count(TEAM)).toBe(0);
}

describe("schema step 6 on sqlite: the watches of the Keyv namespace move onto the claim board", () => {
  it("moves each watch with its due time, cards and last told state, and empties the namespace", async () => {
    const path = join(dir, "kassa.sqlite");
    const first = await open(`sqlite://${path}`);
    // As c6ce3d1 wrote them: Keyv's own serializer, with its ":" escape.
    await first.namespace("watches").set(`${TEAM}:inv-old`, { watch: WATCH, dueAt: DUE });
    await first.close();
    const db = new Database(path);
    // The version before the watches' step (steps after it run too).
    db.prepare("UPDATE kassa_schema SET version = ?").run(SQLITE_STEPS.indexOf(sqliteWatchesMove));
    db.close();

    const store = await open(`sqlite://${path}`);
    await expectMoved(await openClaimBoard(store));
    const after = new Database(path);
    try {
      expect(after.prepare("SELECT count(*) AS n FROM keyv WHERE key LIKE 'watches:%'").get()).toEqual({
        n: 0,
      });
    } finally {
      after.close();
    }
  });
});

describe.skipIf(!postgresUrl)("schema step 6 on postgres: the watch tables move onto the claim board", () => {
  const prefix = `ksw_${run}`;
  afterAll(async () => {
    const store = await open(postgresUrl ?? "");
    if (store.native?.kind === "postgres") await dropPrefixTables(store.native.pool, prefix);
  });

  it("moves each watch with its due time (or a sooner nudge), cards and last told state, and drops the tables", async () => {
    const store = await open(postgresUrl ?? "");
    if (store.native?.kind !== "postgres") throw new Error("not a PostgreSQL store");
    const pool = store.native.pool;
    await applyPostgresSchema(
      pool,
      prefix,
      POSTGRES_STEPS.slice(0, POSTGRES_STEPS.indexOf(postgresWatchesMove)),
    );
    const w = WATCH;
    await pool.query(
      `INSERT INTO ${prefix}_watches (key, team, invoice_id, register, state, amounts, invoice, started_at,
        interval_ms, last_checked_at, cards_updated_at, due_at, lease, nudged_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, 'old-claim', $13)`,
      [
        ...[`${TEAM}:inv-old`, TEAM, w.invoiceId, w.register, w.state, w.amounts, JSON.stringify(invoice)],
        ...[STARTED, w.intervalMs, w.lastCheckedAt, w.cardsUpdatedAt, DUE + 60_000, DUE],
      ],
    );
    for (const card of cards)
      await pool.query(`INSERT INTO ${prefix}_watch_cards (watch_key, card_id, card) VALUES ($1, $2, $3)`, [
        `${TEAM}:inv-old`,
        cardId(card),
        JSON.stringify(card),
      ]);
    await applyPostgresSchema(pool, prefix);
    await expectMoved(await openClaimBoard(store, prefix));
    for (const table of ["watches", "watch_cards", "watch_next_read"]) {
      const found = await pool.query("SELECT to_regclass($1)::text AS found", [`${prefix}_${table}`]);
      expect(found.rows[0]?.found, table).toBeNull();
    }
  });
});

describe.skipIf(!redisUrl)("schema step 6 on redis: the keys under P:watch move onto the claim board", () => {
  const prefix = `kassa-test-${run}-schema-watches`;
  afterAll(async () => {
    const store = await open(redisUrl ?? "");
    if (store.native?.kind !== "redis") return;
    const script = "for _, key in ipairs(redis.call('KEYS', ARGV[1])) do redis.call('DEL', key) end return 1";
    await store.native.client.eval(script, { arguments: [`${prefix}:*`] });
  });

  it("moves each watch with its due time (or a sooner nudge), cards and last told state, and deletes the keys", async () => {
    const store = await open(redisUrl ?? "");
    if (store.native?.kind !== "redis") throw new Error("not a Redis store");
    const client = store.native.client;
    const old = `${prefix}:watch`;
    const key = `${TEAM}:inv-old`;
    const { cards: _cards, invoice: _invoice, ...fields } = WATCH;
    const text = Object.fromEntries(Object.entries(fields).map(([name, value]) => [name, String(value)]));
    await client.hSet(`${old}:w:${key}`, {
      ...text,
      invoice: JSON.stringify(invoice),
      lease: "x",
      nudgedAt: DUE,
    });
    for (const card of cards) await client.hSet(`${old}:c:${key}`, cardId(card), JSON.stringify(card));
    await client.zAdd(`${old}:due`, { score: DUE + 60_000, value: key });
    await client.sAdd(`${old}:team:${TEAM}`, key);
    await client.set(`${old}:next-read:reg:1`, String(DUE));
    await applyRedisSchema(client, prefix);
    await expectMoved(await openClaimBoard(store, prefix));
    expect(await client.keys(`${old}:*`)).toEqual([]);
  });
});

sayWhatIsSkipped("schema step 6 (watches)", [POSTGRES, REDIS]);
