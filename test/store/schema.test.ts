/**
 * The store's versioned schema on every engine (test/support/engines.ts): SQLite always; Redis when
 * TEST_REDIS_URL is set and PostgreSQL when TEST_POSTGRES_URL is (each run under its own prefix,
 * removed afterwards). Two connections opened at once stand for two replicas starting together.
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { openFeedLedger } from "../../src/feed/ledger.js";
import { callbackKeysFor } from "../../src/store/callback-keys.js";
import { type KeyvStore, openStore, StoreUnavailableError } from "../../src/store/keyv.js";
import { leasesFor } from "../../src/store/leases.js";
import { ensureSchema, SchemaTooNewError } from "../../src/store/schema/index.js";
import { tableName } from "../../src/store/schema/names.js";
import {
  applyPostgresSchema,
  POSTGRES_AUDIT_ENTRIES,
  POSTGRES_STEPS,
} from "../../src/store/schema/postgres.js";
import { applyRedisSchema, REDIS_STEPS } from "../../src/store/schema/redis.js";
import { applySqliteSchema, SQLITE_AUDIT_ENTRIES, SQLITE_STEPS } from "../../src/store/schema/sqlite.js";
import { POSTGRES, REDIS, sayWhatIsSkipped } from "../support/engines.js";
import { dropPrefixTables } from "../support/watch-namespaces.js";

const run = randomBytes(4).toString("hex");
const dir = mkdtempSync(join(tmpdir(), "kassa-schema-"));
const redisUrl = REDIS.url;
const postgresUrl = POSTGRES.url;
const opened: KeyvStore[] = [];
let files = 0;

async function open(url: string): Promise<KeyvStore> {
  const store = await openStore(url);
  opened.push(store);
  return store;
}
const sqliteUrl = () => {
  files += 1;
  return `sqlite://${join(dir, `kassa-${files}.sqlite`)}`;
};

afterAll(async () => {
  await Promise.all(opened.map((store) => store.close()));
  rmSync(dir, { recursive: true, force: true });
});

/** The tables c6ce3d1 created in a SQLite file, as it created them (no schema version). */
const C6CE3D1_SQLITE = [
  "CREATE TABLE IF NOT EXISTS keyv(key VARCHAR(255) PRIMARY KEY, value TEXT )",
  "CREATE TABLE IF NOT EXISTS kassa_claims (key TEXT PRIMARY KEY, expires INTEGER NOT NULL)",
  "CREATE TABLE IF NOT EXISTS kassa_leases (key TEXT PRIMARY KEY, owner TEXT NOT NULL, info TEXT NOT NULL, expires INTEGER NOT NULL)",
  `CREATE TABLE IF NOT EXISTS kassa_feed_turns (
      team TEXT PRIMARY KEY, due_at INTEGER NOT NULL, owner TEXT NOT NULL DEFAULT '',
      lease_until INTEGER NOT NULL DEFAULT 0, nudged INTEGER NOT NULL DEFAULT 0)`,
  "CREATE INDEX IF NOT EXISTS kassa_feed_turns_due ON kassa_feed_turns (due_at)",
  `CREATE TABLE IF NOT EXISTS kassa_feed_states (
      team TEXT NOT NULL, channel TEXT NOT NULL, state TEXT NOT NULL, PRIMARY KEY (team, channel))`,
];

/** A step after the last, counting how often it ran (in a table of the prefix's own). */
const countingSql = (prefix: string) => [
  `CREATE TABLE IF NOT EXISTS ${prefix}_counted (n INTEGER NOT NULL)`,
  `INSERT INTO ${prefix}_counted (n) VALUES (1)`,
];

describe("the schema on sqlite", () => {
  const names = (db: Database.Database) =>
    (db.prepare("SELECT name FROM sqlite_master ORDER BY name").all() as Array<{ name: string }>).map(
      (row) => row.name,
    );

  it("gives a new file every table and index, at the last version, and applying again changes nothing", async () => {
    const url = sqliteUrl();
    const store = await open(url);
    const db = new Database(url.slice("sqlite://".length));
    try {
      expect(names(db)).toEqual(
        expect.arrayContaining([
          "keyv",
          "kassa_claim_items",
          "kassa_claim_items_due",
          "kassa_claim_states",
          "kassa_audit_entries",
          "kassa_audit_entries_at",
          "kassa_schema",
        ]),
      );
      // The tables of the releases before the claim board are moved onto it and dropped.
      expect(names(db)).not.toEqual(expect.arrayContaining(["kassa_claims"]));
      expect(names(db)).not.toEqual(expect.arrayContaining(["kassa_feed_turns"]));
      expect(db.prepare("SELECT id, version FROM kassa_schema").all()).toEqual([
        { id: 1, version: SQLITE_STEPS.length },
      ]);
      expect(applySqliteSchema(db, "kassa")).toBe(SQLITE_STEPS.length);
      expect(await ensureSchema(store.native ?? { kind: "sqlite", db })).toBe(SQLITE_STEPS.length);
      expect(db.prepare("SELECT count(*) AS n FROM kassa_schema").get()).toEqual({ n: 1 });
    } finally {
      db.close();
    }
  });

  it("runs a new step once when two connections open the file together", async () => {
    const url = sqliteUrl();
    await open(url);
    const path = url.slice("sqlite://".length);
    const [one, two] = [new Database(path, { timeout: 5000 }), new Database(path, { timeout: 5000 })];
    try {
      const steps = [...SQLITE_STEPS, countingSql];
      const versions = await Promise.all([
        Promise.resolve().then(() => applySqliteSchema(one, "kassa", steps)),
        Promise.resolve().then(() => applySqliteSchema(two, "kassa", steps)),
      ]);
      expect(versions).toEqual([steps.length, steps.length]);
      expect(one.prepare("SELECT count(*) AS n FROM kassa_counted").get()).toEqual({ n: 1 });
      expect(applySqliteSchema(two, "kassa", steps)).toBe(steps.length);
      expect(one.prepare("SELECT count(*) AS n FROM kassa_counted").get()).toEqual({ n: 1 });
    } finally {
      one.close();
      two.close();
    }
  });

  it("adopts a file written by c6ce3d1 (tables, no version) and keeps its rows", async () => {
    const url = sqliteUrl();
    const db = new Database(url.slice("sqlite://".length));
    for (const sql of C6CE3D1_SQLITE) db.exec(sql);
    db.exec(`INSERT INTO keyv VALUES ('settings:T0OLD', '{"value":{"language":"ru"}}')`);
    const later = Date.now() + 60_000;
    db.exec(`INSERT INTO kassa_claims VALUES ('event:Ev0OLD', ${later})`);
    db.exec(`INSERT INTO kassa_claims VALUES ('digest:T0OLD:w1', ${later})`);
    db.exec(`INSERT INTO kassa_claims VALUES ('digest:T0OLD:w1#owner:tok1', ${later})`);
    db.exec(`INSERT INTO kassa_leases VALUES ('export:T0OLD', 'o1', 'U0OLD 1', ${later})`);
    db.exec(`INSERT INTO kassa_feed_turns VALUES ('T0OLD', 5, 'turn1', ${later}, 0)`);
    db.exec(`INSERT INTO kassa_feed_states VALUES ('T0OLD', 'C0OLD', '{"since":1}')`);
    const [given, leftBehind] = ["G".repeat(32), "L".repeat(32)];
    db.exec(`INSERT INTO keyv VALUES ('callbacks:team:T0OLD', '{"value":"${given}"}')`);
    db.exec(`INSERT INTO keyv VALUES ('callbacks:key:${given}', '{"value":"T0OLD"}')`);
    db.exec(`INSERT INTO keyv VALUES ('callbacks:key:${leftBehind}', '{"value":"T0OLD"}')`);
    db.close();

    const store = await open(url);
    expect(await store.namespace("settings").get("T0OLD")).toEqual({ language: "ru" });
    // Claims, their owners, leases and the feed's turns and states carry on on the claim board.
    expect(await store.claimOnce("event:Ev0OLD", 60_000)).toBe(false);
    expect(await store.claimOnce("digest:T0OLD:w1", 60_000, "tok2")).toBe(false);
    expect(await store.claimOnce("digest:T0OLD:w1", 60_000, "tok1")).toBe(true);
    const leases = await leasesFor(store);
    expect(await leases.acquire("export:T0OLD", "o2", "U0NEW 2", 60_000)).toEqual({
      held: false,
      info: "U0OLD 1",
    });
    const ledger = await openFeedLedger(store);
    expect(await ledger.readState("T0OLD", "C0OLD")).toEqual({ since: 1 });
    expect(await ledger.writeState("T0OLD", "C0OLD", "turn1", { since: 2 })).toBe(true);
    // The callback address given out before keeps routing (one a racing rotation left does not).
    const callbackKeys = callbackKeysFor(store, 3000);
    expect(await callbackKeys.teamOf(given)).toBe("T0OLD");
    expect(await callbackKeys.teamOf(leftBehind)).toBeUndefined();
    expect(await store.namespace("callbacks").get("team:T0OLD")).toBeUndefined();
    const after = new Database(url.slice("sqlite://".length));
    try {
      expect(after.prepare("SELECT version FROM kassa_schema").get()).toEqual({
        version: SQLITE_STEPS.length,
      });
      expect(
        after.prepare("SELECT family, key, field FROM kassa_claim_states ORDER BY family").all(),
      ).toEqual([
        { family: "callback", key: "T0OLD", field: "key" },
        { family: "callback-route", key: given, field: "team" },
        { family: "feed", key: "T0OLD", field: "C0OLD" },
      ]);
    } finally {
      after.close();
    }
  });

  it("gives a file at the step before the audit trail's its table, one entry per team and number", async () => {
    const url = sqliteUrl();
    const db = new Database(url.slice("sqlite://".length));
    try {
      const step = SQLITE_STEPS.indexOf(SQLITE_AUDIT_ENTRIES) + 1;
      expect(step).toBeGreaterThan(0);
      applySqliteSchema(db, "kassa", SQLITE_STEPS.slice(0, step - 1));
      expect(names(db)).not.toContain("kassa_audit_entries");
      expect(applySqliteSchema(db, "kassa")).toBe(SQLITE_STEPS.length);
      const insert = db.prepare(
        "INSERT INTO kassa_audit_entries (team, seq, at, actor, action, entry, prev_hash, hash) VALUES (?, ?, 1, 'cli', 'export.asked', '{}', 'p', 'h')",
      );
      insert.run("T0ONE", 1);
      insert.run("T0TWO", 1);
      expect(() => insert.run("T0ONE", 1)).toThrow(/UNIQUE/);
    } finally {
      db.close();
    }
  });

  it("refuses to open a file a newer release upgraded, in one line", async () => {
    const url = sqliteUrl();
    const db = new Database(url.slice("sqlite://".length));
    db.exec("CREATE TABLE kassa_schema (id INTEGER PRIMARY KEY, version INTEGER NOT NULL)");
    db.exec(`INSERT INTO kassa_schema VALUES (1, ${SQLITE_STEPS.length + 1})`);
    db.close();
    const refusal = await openStore(url).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(refusal).toBeInstanceOf(SchemaTooNewError);
    expect(refusal).toBeInstanceOf(StoreUnavailableError);
    const message = (refusal as Error).message;
    expect(message).not.toContain("\n");
    expect(message).toContain(`version ${SQLITE_STEPS.length + 1}`);
    expect(message).toContain("a newer release has upgraded it");
  });
});

describe.skipIf(!postgresUrl)("the schema on postgres", () => {
  const prefix = (name: string) => `ks_${run}_${name}`;
  const prefixes: string[] = [];
  const fresh = (name: string) => {
    prefixes.push(prefix(name));
    return prefix(name);
  };
  const pool = async () => {
    const store = await open(postgresUrl ?? "");
    if (store.native?.kind !== "postgres") throw new Error("not a PostgreSQL store");
    return store.native.pool;
  };
  afterAll(async () => {
    const one = await pool();
    for (const name of prefixes) {
      await dropPrefixTables(one, name);
      await one.query(`DROP TABLE IF EXISTS ${name}_counted`);
    }
  });

  it("gives a new prefix every table and index, at the last version, and applying again changes nothing", async () => {
    const db = await pool();
    const name = fresh("new");
    expect(await ensureSchema({ kind: "postgres", pool: db }, name)).toBe(POSTGRES_STEPS.length);
    const tables = [
      "kassa",
      ...["claim_items", "claim_states", "audit_entries", "schema"].map((table) => `${name}_${table}`),
      `${name}_audit_entries_at`,
      `${name}_claim_items_due`,
    ];
    for (const table of tables) {
      const found = await db.query("SELECT to_regclass($1)::text AS found", [table]);
      expect(found.rows[0]?.found, table).toBe(table);
    }
    // The live cards' tables of the releases before the claim board: made by step 1, moved and dropped by step 6.
    for (const table of ["watches", "watch_cards", "watch_next_read"]) {
      const found = await db.query("SELECT to_regclass($1)::text AS found", [`${name}_${table}`]);
      expect(found.rows[0]?.found, table).toBeNull();
    }
    expect(await applyPostgresSchema(db, name)).toBe(POSTGRES_STEPS.length);
    const rows = await db.query(`SELECT id, version FROM ${tableName(name, "schema")}`);
    expect(rows.rows).toEqual([{ id: 1, version: POSTGRES_STEPS.length }]);
  });

  it("runs a new step once when two replicas' pools apply it at the same moment", async () => {
    const [one, two] = [await pool(), await pool()];
    const name = fresh("race");
    const steps = [...POSTGRES_STEPS, countingSql];
    const versions = await Promise.all([
      applyPostgresSchema(one, name, steps),
      applyPostgresSchema(two, name, steps),
    ]);
    expect(versions).toEqual([steps.length, steps.length]);
    expect((await one.query(`SELECT count(*)::int AS n FROM ${name}_counted`)).rows).toEqual([{ n: 1 }]);
  });

  it("adopts tables made the c6ce3d1 way (no version) and keeps their rows", async () => {
    const db = await pool();
    const name = fresh("old");
    await db.query(
      `CREATE TABLE ${name}_leases (key TEXT PRIMARY KEY, owner TEXT NOT NULL, info TEXT NOT NULL, expires BIGINT NOT NULL)`,
    );
    // The watches table of the first release, before its lease and nudged_at columns.
    await db.query(`CREATE TABLE ${name}_watches (
      key TEXT PRIMARY KEY, team TEXT NOT NULL, invoice_id TEXT NOT NULL, register TEXT NOT NULL,
      state TEXT NOT NULL, amounts TEXT NOT NULL, invoice JSONB NOT NULL, started_at BIGINT NOT NULL,
      interval_ms BIGINT NOT NULL, last_checked_at BIGINT NOT NULL, cards_updated_at BIGINT NOT NULL,
      due_at BIGINT NOT NULL)`);
    await db.query(`CREATE TABLE ${name}_watch_reads (register TEXT, second BIGINT)`);
    await db.query(`INSERT INTO ${name}_leases VALUES ('export:T0OLD', 'o1', 'U0OLD 1', 1)`);
    await db.query(
      `INSERT INTO ${name}_watches VALUES ('T0OLD:inv1', 'T0OLD', 'inv1', 'r1', 'notpayed', 'a0', '{}', 1, 2, 3, 4, 5)`,
    );

    expect(await applyPostgresSchema(db, name)).toBe(POSTGRES_STEPS.length);
    // Moved onto the claim board, and the old table dropped.
    expect(
      (await db.query(`SELECT family, key, owner, info FROM ${name}_claim_items WHERE family = 'lease'`))
        .rows,
    ).toEqual([{ family: "lease", key: "export:T0OLD", owner: "o1", info: "U0OLD 1" }]);
    const leases = await db.query("SELECT to_regclass($1)::text AS found", [`${name}_leases`]);
    expect(leases.rows[0]?.found).toBeNull();
    // The watch (of the first release's table, before its lease and nudged_at columns) is on the
    // claim board, its table dropped (test/store/schema-watches.test.ts reads such a watch back).
    expect(
      (await db.query(`SELECT family, key, due_at FROM ${name}_claim_items WHERE family = 'watch'`)).rows,
    ).toEqual([{ family: "watch", key: "T0OLD:inv1", due_at: "5" }]);
    const watches = await db.query("SELECT to_regclass($1)::text AS found", [`${name}_watches`]);
    expect(watches.rows[0]?.found).toBeNull();
    const gone = await db.query("SELECT to_regclass($1)::text AS found", [`${name}_watch_reads`]);
    expect(gone.rows[0]?.found).toBeNull();
  });

  it("gives a store at the step before the audit trail's its table, one entry per team and number", async () => {
    const db = await pool();
    const name = fresh("audit");
    const step = POSTGRES_STEPS.indexOf(POSTGRES_AUDIT_ENTRIES) + 1;
    expect(step).toBeGreaterThan(0);
    await applyPostgresSchema(db, name, POSTGRES_STEPS.slice(0, step - 1));
    const table = tableName(name, "audit_entries");
    expect((await db.query("SELECT to_regclass($1)::text AS found", [table])).rows[0]?.found).toBeNull();
    expect(await applyPostgresSchema(db, name)).toBe(POSTGRES_STEPS.length);
    const insert = (team: string) =>
      db.query(
        `INSERT INTO ${table} (team, seq, at, actor, action, entry, prev_hash, hash) VALUES ($1, 1, 1, 'cli', 'export.asked', '{}', 'p', 'h')`,
        [team],
      );
    await insert("T0ONE");
    await insert("T0TWO");
    await expect(insert("T0ONE")).rejects.toThrow(/duplicate key/);
  });

  it("refuses a store a newer release upgraded, in one line", async () => {
    const db = await pool();
    const name = fresh("newer");
    await db.query(`CREATE TABLE ${name}_schema (id INTEGER PRIMARY KEY, version INTEGER NOT NULL)`);
    await db.query(`INSERT INTO ${name}_schema VALUES (1, ${POSTGRES_STEPS.length + 1})`);
    await expect(applyPostgresSchema(db, name)).rejects.toThrow(SchemaTooNewError);
    await expect(applyPostgresSchema(db, name)).rejects.toThrow(
      /^[^\n]*a newer release has upgraded it[^\n]*$/,
    );
  });
});

describe.skipIf(!redisUrl)("the schema on redis", () => {
  const prefix = (name: string) => `kassa-test-${run}-schema-${name}`;
  const client = async () => {
    const store = await open(redisUrl ?? "");
    if (store.native?.kind !== "redis") throw new Error("not a Redis store");
    return store.native.client;
  };
  afterAll(async () => {
    const one = await client();
    await one.eval(
      "for _, key in ipairs(redis.call('KEYS', ARGV[1])) do redis.call('DEL', key) end return 1",
      {
        arguments: [`kassa-test-${run}-schema-*`],
      },
    );
  });
  const counting = { purpose: "counts its runs", lua: "redis.call('INCR', ARGV[1] .. ':counted')" };

  it("keeps a version key at the last version, and applying again changes nothing", async () => {
    const redis = await client();
    expect(await redis.get("kassa:schema")).toBe(String(REDIS_STEPS.length));
    const name = prefix("new");
    expect(await ensureSchema({ kind: "redis", client: redis }, name)).toBe(REDIS_STEPS.length);
    expect(await applyRedisSchema(redis, name)).toBe(REDIS_STEPS.length);
    expect(await redis.get(`${name}:schema`)).toBe(String(REDIS_STEPS.length));
  });

  it("runs a new step once when two connections apply it at the same moment", async () => {
    const [one, two] = [await client(), await client()];
    const name = prefix("race");
    const steps = [...REDIS_STEPS, counting];
    expect(
      await Promise.all([applyRedisSchema(one, name, steps), applyRedisSchema(two, name, steps)]),
    ).toEqual([steps.length, steps.length]);
    expect(await one.get(`${name}:counted`)).toBe("1");
  });

  it("adopts keys written before the version (no version key) and keeps them", async () => {
    const redis = await client();
    const name = prefix("old");
    await redis.set(`${name}:feed:state:T0OLD`, "{}");
    expect(await applyRedisSchema(redis, name)).toBe(REDIS_STEPS.length);
    expect(await redis.get(`${name}:feed:state:T0OLD`)).toBe("{}");
  });

  it("refuses a store a newer release upgraded, in one line", async () => {
    const redis = await client();
    const name = prefix("newer");
    await redis.set(`${name}:schema`, String(REDIS_STEPS.length + 1));
    await expect(applyRedisSchema(redis, name)).rejects.toThrow(SchemaTooNewError);
    await expect(applyRedisSchema(redis, name)).rejects.toThrow(
      /^[^\n]*a newer release has upgraded it[^\n]*$/,
    );
  });
});

sayWhatIsSkipped("store schema", [POSTGRES, REDIS]);
