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
import { type KeyvStore, openStore, StoreUnavailableError } from "../../src/store/keyv.js";
import { ensureSchema, SchemaTooNewError } from "../../src/store/schema/index.js";
import { tableName } from "../../src/store/schema/names.js";
import { applyPostgresSchema, POSTGRES_STEPS } from "../../src/store/schema/postgres.js";
import { applyRedisSchema, REDIS_STEPS } from "../../src/store/schema/redis.js";
import { applySqliteSchema, SQLITE_STEPS } from "../../src/store/schema/sqlite.js";
import { BASELINE_VERSION, SchemaTooOldError, UPGRADING_RELEASE } from "../../src/store/schema/version.js";
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

/**
 * A refusal of a store older than this release upgrades: one line, naming the release that upgrades
 * it (the last one, whose one-shot moves this release no longer carries).
 */
function expectTooOld(refusal: unknown, version: number): void {
  expect(refusal).toBeInstanceOf(SchemaTooOldError);
  expect(refusal).toBeInstanceOf(StoreUnavailableError);
  const message = (refusal as Error).message;
  expect(message).not.toContain("\n");
  expect(message).toContain(`start release ${UPGRADING_RELEASE} on it once, which upgrades it`);
  expect(message).toContain(version === 0 ? "before the schema version" : `is at version ${version}`);
}
const refusalOf = (attempt: Promise<unknown>) =>
  attempt.then(
    () => undefined,
    (error: unknown) => error,
  );

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
      // The tables of the releases before the claim board are never made.
      expect(names(db)).not.toEqual(expect.arrayContaining(["kassa_claims"]));
      expect(names(db)).not.toEqual(expect.arrayContaining(["kassa_feed_turns"]));
      expect(db.prepare("SELECT id, version FROM kassa_schema").all()).toEqual([
        { id: 1, version: BASELINE_VERSION + SQLITE_STEPS.length },
      ]);
      expect(applySqliteSchema(db, "kassa")).toBe(BASELINE_VERSION + SQLITE_STEPS.length);
      expect(await ensureSchema(store.native ?? { kind: "sqlite", db })).toBe(
        BASELINE_VERSION + SQLITE_STEPS.length,
      );
      const insert = db.prepare(
        "INSERT INTO kassa_audit_entries (team, seq, at, actor, action, entry, prev_hash, hash) VALUES (?, ?, 1, 'cli', 'export.asked', '{}', 'p', 'h')",
      );
      insert.run("T0ONE", 1);
      insert.run("T0TWO", 1);
      expect(() => insert.run("T0ONE", 1)).toThrow(/UNIQUE/);
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
      const last = BASELINE_VERSION + steps.length;
      expect(versions).toEqual([last, last]);
      expect(one.prepare("SELECT count(*) AS n FROM kassa_counted").get()).toEqual({ n: 1 });
      expect(applySqliteSchema(two, "kassa", steps)).toBe(last);
      expect(one.prepare("SELECT count(*) AS n FROM kassa_counted").get()).toEqual({ n: 1 });
    } finally {
      one.close();
      two.close();
    }
  });

  it("refuses a file written by c6ce3d1 (tables, no version), naming the release that upgrades it, and leaves it as it was", async () => {
    const url = sqliteUrl();
    const path = url.slice("sqlite://".length);
    const db = new Database(path);
    for (const sql of C6CE3D1_SQLITE) db.exec(sql);
    db.exec(`INSERT INTO keyv VALUES ('settings:T0OLD', '{"value":{"language":"ru"}}')`);
    db.exec(`INSERT INTO kassa_leases VALUES ('export:T0OLD', 'o1', 'U0OLD 1', ${Date.now() + 60_000})`);
    db.close();

    expectTooOld(await refusalOf(openStore(url)), 0);
    const after = new Database(path);
    try {
      expect(names(after)).not.toContain("kassa_schema");
      expect(names(after)).not.toContain("kassa_claim_items");
      expect(after.prepare("SELECT key FROM keyv").all()).toEqual([{ key: "settings:T0OLD" }]);
      expect(after.prepare("SELECT key FROM kassa_leases").all()).toEqual([{ key: "export:T0OLD" }]);
    } finally {
      after.close();
    }
  });

  it("refuses a file with no version whose Keyv table holds entries (the releases before the tables)", async () => {
    const url = sqliteUrl();
    const db = new Database(url.slice("sqlite://".length));
    db.exec(C6CE3D1_SQLITE[0] ?? "");
    db.exec(`INSERT INTO keyv VALUES ('credentials:T0OLD', '{"value":{}}')`);
    db.close();
    expectTooOld(await refusalOf(openStore(url)), 0);
  });

  it("refuses a file at a version before the baseline, in one line", async () => {
    const url = sqliteUrl();
    const db = new Database(url.slice("sqlite://".length));
    db.exec("CREATE TABLE kassa_schema (id INTEGER PRIMARY KEY, version INTEGER NOT NULL)");
    db.exec(`INSERT INTO kassa_schema VALUES (1, ${BASELINE_VERSION - 3})`);
    db.close();
    expectTooOld(await refusalOf(openStore(url)), BASELINE_VERSION - 3);
  });

  it("opens a file with no version and an empty Keyv table as a new one", async () => {
    const url = sqliteUrl();
    const db = new Database(url.slice("sqlite://".length));
    db.exec(C6CE3D1_SQLITE[0] ?? "");
    db.close();
    const store = await open(url);
    expect(await ensureSchema(store.native ?? { kind: "sqlite", db })).toBe(
      BASELINE_VERSION + SQLITE_STEPS.length,
    );
  });

  it("refuses to open a file a newer release upgraded, in one line", async () => {
    const url = sqliteUrl();
    const db = new Database(url.slice("sqlite://".length));
    db.exec("CREATE TABLE kassa_schema (id INTEGER PRIMARY KEY, version INTEGER NOT NULL)");
    db.exec(`INSERT INTO kassa_schema VALUES (1, ${BASELINE_VERSION + SQLITE_STEPS.length + 1})`);
    db.close();
    const refusal = await openStore(url).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(refusal).toBeInstanceOf(SchemaTooNewError);
    expect(refusal).toBeInstanceOf(StoreUnavailableError);
    const message = (refusal as Error).message;
    expect(message).not.toContain("\n");
    expect(message).toContain(`version ${BASELINE_VERSION + SQLITE_STEPS.length + 1}`);
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
    const last = BASELINE_VERSION + POSTGRES_STEPS.length;
    expect(await ensureSchema({ kind: "postgres", pool: db }, name)).toBe(last);
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
    // The tables of the releases before the claim board are never made.
    for (const table of ["watches", "watch_cards", "watch_next_read", "leases", "feed_turns"]) {
      const found = await db.query("SELECT to_regclass($1)::text AS found", [`${name}_${table}`]);
      expect(found.rows[0]?.found, table).toBeNull();
    }
    expect(await applyPostgresSchema(db, name)).toBe(last);
    const rows = await db.query(`SELECT id, version FROM ${tableName(name, "schema")}`);
    expect(rows.rows).toEqual([{ id: 1, version: last }]);
    const table = tableName(name, "audit_entries");
    const insert = (team: string) =>
      db.query(
        `INSERT INTO ${table} (team, seq, at, actor, action, entry, prev_hash, hash) VALUES ($1, 1, 1, 'cli', 'export.asked', '{}', 'p', 'h')`,
        [team],
      );
    await insert("T0ONE");
    await insert("T0TWO");
    await expect(insert("T0ONE")).rejects.toThrow(/duplicate key/);
  });

  it("runs a new step once when two replicas' pools apply it at the same moment", async () => {
    const [one, two] = [await pool(), await pool()];
    const name = fresh("race");
    const steps = [...POSTGRES_STEPS, countingSql];
    const versions = await Promise.all([
      applyPostgresSchema(one, name, steps),
      applyPostgresSchema(two, name, steps),
    ]);
    const last = BASELINE_VERSION + steps.length;
    expect(versions).toEqual([last, last]);
    expect((await one.query(`SELECT count(*)::int AS n FROM ${name}_counted`)).rows).toEqual([{ n: 1 }]);
  });

  it("refuses tables made the c6ce3d1 way (no version), naming the release that upgrades them, and leaves them", async () => {
    const db = await pool();
    const name = fresh("old");
    await db.query(
      `CREATE TABLE ${name}_leases (key TEXT PRIMARY KEY, owner TEXT NOT NULL, info TEXT NOT NULL, expires BIGINT NOT NULL)`,
    );
    await db.query(`INSERT INTO ${name}_leases VALUES ('export:T0OLD', 'o1', 'U0OLD 1', 1)`);
    expectTooOld(await refusalOf(applyPostgresSchema(db, name)), 0);
    expect((await db.query(`SELECT key FROM ${name}_leases`)).rows).toEqual([{ key: "export:T0OLD" }]);
    for (const table of ["schema", "claim_items"]) {
      const found = await db.query("SELECT to_regclass($1)::text AS found", [`${name}_${table}`]);
      expect(found.rows[0]?.found, table).toBeNull();
    }
  });

  it("refuses a store at a version before the baseline, in one line", async () => {
    const db = await pool();
    const name = fresh("older");
    await db.query(`CREATE TABLE ${name}_schema (id INTEGER PRIMARY KEY, version INTEGER NOT NULL)`);
    await db.query(`INSERT INTO ${name}_schema VALUES (1, ${BASELINE_VERSION - 3})`);
    expectTooOld(await refusalOf(applyPostgresSchema(db, name)), BASELINE_VERSION - 3);
  });

  it("refuses a store a newer release upgraded, in one line", async () => {
    const db = await pool();
    const name = fresh("newer");
    await db.query(`CREATE TABLE ${name}_schema (id INTEGER PRIMARY KEY, version INTEGER NOT NULL)`);
    await db.query(`INSERT INTO ${name}_schema VALUES (1, ${BASELINE_VERSION + POSTGRES_STEPS.length + 1})`);
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
    const last = BASELINE_VERSION + REDIS_STEPS.length;
    expect(await redis.get("kassa:schema")).toBe(String(last));
    const name = prefix("new");
    expect(await ensureSchema({ kind: "redis", client: redis }, name)).toBe(last);
    expect(await applyRedisSchema(redis, name)).toBe(last);
    expect(await redis.get(`${name}:schema`)).toBe(String(last));
  });

  it("runs a new step once when two connections apply it at the same moment", async () => {
    const [one, two] = [await client(), await client()];
    const name = prefix("race");
    const steps = [...REDIS_STEPS, counting];
    expect(
      await Promise.all([applyRedisSchema(one, name, steps), applyRedisSchema(two, name, steps)]),
    ).toEqual([BASELINE_VERSION + steps.length, BASELINE_VERSION + steps.length]);
    expect(await one.get(`${name}:counted`)).toBe("1");
  });

  it("refuses keys written before the version (no version key), naming the release that upgrades them, and keeps them", async () => {
    const redis = await client();
    const name = prefix("old");
    await redis.set(`${name}:feed:state:T0OLD`, "{}");
    expectTooOld(await refusalOf(applyRedisSchema(redis, name)), 0);
    expect(await redis.get(`${name}:feed:state:T0OLD`)).toBe("{}");
    expect(await redis.get(`${name}:schema`)).toBeNull();
  });

  it("refuses a store at a version before the baseline, in one line", async () => {
    const redis = await client();
    const name = prefix("older");
    await redis.set(`${name}:schema`, String(BASELINE_VERSION - 3));
    expectTooOld(await refusalOf(applyRedisSchema(redis, name)), BASELINE_VERSION - 3);
  });

  it("refuses a store a newer release upgraded, in one line", async () => {
    const redis = await client();
    const name = prefix("newer");
    await redis.set(`${name}:schema`, String(BASELINE_VERSION + REDIS_STEPS.length + 1));
    await expect(applyRedisSchema(redis, name)).rejects.toThrow(SchemaTooNewError);
    await expect(applyRedisSchema(redis, name)).rejects.toThrow(
      /^[^\n]*a newer release has upgraded it[^\n]*$/,
    );
  });
});

sayWhatIsSkipped("store schema", [POSTGRES, REDIS]);
