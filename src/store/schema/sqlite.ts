import type Database from "better-sqlite3";
import { auditTables, CLAIMS_TABLE, DEFAULT_PREFIX, KEYV_TABLE, tableName } from "./names.js";
import { BASELINE_VERSION, refuseNewer, refuseOlder, type SqlStep } from "./version.js";

// The SQLite file's schema: the baseline (the tables as release 63116c6 left them, version 8), then
// numbered steps. A new table, index or column is a new step at the end (never an edit of a step a
// release has run): a store runs each missing step once, in order.

/**
 * The tables at BASELINE_VERSION: the Keyv table, the claim board (src/store/claims/: one home for
 * what must hold across replicas) and the audit trail's entries (src/audit/sqlite.ts: per team a
 * chain numbered 1, 2, 3...; `at` (ms), actor and action index what the canonical entry text holds).
 */
export const SQLITE_BASELINE: SqlStep = (prefix) => {
  const items = tableName(prefix, "claim_items");
  const audit = tableName(prefix, "audit_entries");
  return [
    `CREATE TABLE IF NOT EXISTS ${KEYV_TABLE}(key VARCHAR(255) PRIMARY KEY, value TEXT )`,
    `CREATE TABLE ${items} (
      family TEXT NOT NULL, key TEXT NOT NULL, due_at INTEGER NOT NULL, owner TEXT NOT NULL DEFAULT '',
      lease_until INTEGER NOT NULL DEFAULT 0, nudged INTEGER NOT NULL DEFAULT 0, info TEXT NOT NULL DEFAULT '',
      PRIMARY KEY (family, key))`,
    `CREATE INDEX ${items}_due ON ${items} (family, due_at)`,
    `CREATE TABLE ${tableName(prefix, "claim_states")} (
      family TEXT NOT NULL, key TEXT NOT NULL, field TEXT NOT NULL, state TEXT NOT NULL,
      PRIMARY KEY (family, key, field))`,
    `CREATE TABLE ${audit} (
      team TEXT NOT NULL, seq INTEGER NOT NULL, at INTEGER NOT NULL, actor TEXT NOT NULL, action TEXT NOT NULL,
      entry TEXT NOT NULL, prev_hash TEXT NOT NULL, hash TEXT NOT NULL, PRIMARY KEY (team, seq))`,
    `CREATE INDEX ${audit}_at ON ${audit} (team, at, seq)`,
  ];
};

/**
 * Each team's head of the audit trail (src/audit/sqlite.ts), kept apart from the entries and moved
 * in the same transaction as each append, so deleting the newest entries leaves a head that names
 * them. A store that has entries gets each team's newest as its head. Self-contained.
 */
export const SQLITE_AUDIT_HEADS: SqlStep = (prefix) => {
  const { entries, heads } = auditTables(prefix);
  return [
    `CREATE TABLE IF NOT EXISTS ${heads} (
      team TEXT PRIMARY KEY, seq INTEGER NOT NULL, hash TEXT NOT NULL, at INTEGER NOT NULL)`,
    `INSERT INTO ${heads} (team, seq, hash, at)
      SELECT e.team, e.seq, e.hash, e.at FROM ${entries} e
      WHERE e.seq = (SELECT MAX(m.seq) FROM ${entries} m WHERE m.team = e.team)
      ON CONFLICT (team) DO NOTHING`,
  ];
};

/** The steps after the baseline: SQLITE_STEPS[0] is step BASELINE_VERSION + 1. */
export const SQLITE_STEPS: SqlStep[] = [
  // 9: the audit trail's heads, apart from its entries (each team's newest entry where it has some).
  SQLITE_AUDIT_HEADS,
];

/**
 * What a store written before the schema version holds under `prefix`: the tables releases before
 * it created, and (the store's own prefix) any Keyv entry.
 */
function holdsOlderData(db: Database.Database, prefix: string): boolean {
  const exists = (name: string) =>
    db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(name) !== undefined;
  const own = prefix === DEFAULT_PREFIX;
  const tables = [...(["leases", "feed_turns", "feed_states"] as const).map((t) => tableName(prefix, t))];
  if ([...tables, ...(own ? [CLAIMS_TABLE] : [])].some(exists)) return true;
  return own && exists(KEYV_TABLE) && db.prepare(`SELECT 1 FROM ${KEYV_TABLE} LIMIT 1`).get() !== undefined;
}

/**
 * Brings the file's schema under `prefix` to the last step: the baseline for a new store, then each
 * missing step, each in one BEGIN IMMEDIATE transaction (the file's write lock, so of two processes
 * starting together one runs it and the other then finds it done). Refuses a store newer than this
 * release knows, or older than it upgrades. Returns the version.
 */
export function applySqliteSchema(db: Database.Database, prefix: string, steps = SQLITE_STEPS): number {
  const table = tableName(prefix, "schema");
  const last = BASELINE_VERSION + steps.length;
  const versionOf = (): number => {
    const found = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(table);
    if (!found) return 0;
    const row = db.prepare(`SELECT version FROM ${table} WHERE id = 1`).get() as { version?: unknown };
    return typeof row?.version === "number" ? row.version : 0;
  };
  const checked = (): number => {
    const found = versionOf();
    refuseNewer(found, last, table);
    refuseOlder(found, found === 0 && holdsOlderData(db, prefix), table);
    return found;
  };
  const current = checked();
  if (current === last) return current;
  const apply = db.transaction((step: number): void => {
    // Another process may have run it meanwhile: the version, read under the lock, says.
    const found = checked();
    if (found >= step) return;
    db.exec(
      `CREATE TABLE IF NOT EXISTS ${table} (id INTEGER PRIMARY KEY CHECK (id = 1), version INTEGER NOT NULL)`,
    );
    const sql =
      step === BASELINE_VERSION
        ? SQLITE_BASELINE(prefix)
        : (steps[step - BASELINE_VERSION - 1]?.(prefix) ?? []);
    for (const statement of sql) db.exec(statement);
    db.prepare(
      `INSERT INTO ${table} (id, version) VALUES (1, ?) ON CONFLICT (id) DO UPDATE SET version = excluded.version`,
    ).run(step);
  });
  for (let step = Math.max(current + 1, BASELINE_VERSION); step <= last; step++) apply.immediate(step);
  return last;
}
