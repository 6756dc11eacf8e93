import type Database from "better-sqlite3";
import { SQLITE_MOVE_EXPORTS_OWED } from "./export-owed.js";
import { LEGACY_FEED_NAMESPACES, sqliteLegacyFeedMove } from "./legacy-feed.js";
import { sqliteWatchesMove } from "./legacy-watches.js";
import {
  auditTables,
  CLAIMS_TABLE,
  DEFAULT_PREFIX,
  KEYV_TABLE,
  legacyCallbackNamespace,
  tableName,
} from "./names.js";
import { refuseNewer, type SqlStep } from "./version.js";

// The SQLite file's schema as numbered steps. A new table, index or column is a new step at the end
// (never an edit of a step a release has run): a store runs each missing step once, in order.

/** An entry's value as Keyv stored it ({"value": "..."}); NULL for anything else (never an error). */
const keyvText = (column: string) =>
  `CASE WHEN json_valid(${column}) THEN CASE WHEN json_type(${column}, '$.value') = 'text'
     THEN json_extract(${column}, '$.value') END END`;

/**
 * The callback keys move from their Keyv namespace (entries team:<id> -> key, key:<key> -> team) onto
 * the claim board (src/store/callback-keys.ts), so an address given out before keeps routing; a route
 * its team's entry does not name routed nothing before and is not moved. The namespace is emptied.
 * Step 5 once merged after the step 4 of another change (numbered by its place in SQLITE_STEPS).
 */
export const SQLITE_MOVE_CALLBACK_KEYS: SqlStep = (prefix) => {
  const states = tableName(prefix, "claim_states");
  const namespace = `${legacyCallbackNamespace(prefix)}:`;
  const [teams, routes] = [`${namespace}team:`, `${namespace}key:`];
  return [
    `INSERT INTO ${states} (family, key, field, state)
      SELECT 'callback', substr(t.key, ${teams.length + 1}), 'key', json_quote(${keyvText("t.value")})
      FROM ${KEYV_TABLE} t WHERE substr(t.key, 1, ${teams.length}) = '${teams}' AND ${keyvText("t.value")} IS NOT NULL
      ON CONFLICT (family, key, field) DO NOTHING`,
    `INSERT INTO ${states} (family, key, field, state)
      SELECT 'callback-route', substr(r.key, ${routes.length + 1}), 'team', json_quote(${keyvText("r.value")})
      FROM ${KEYV_TABLE} r JOIN ${KEYV_TABLE} t ON t.key = '${teams}' || ${keyvText("r.value")}
      WHERE substr(r.key, 1, ${routes.length}) = '${routes}' AND ${keyvText("t.value")} = substr(r.key, ${routes.length + 1})
      ON CONFLICT (family, key, field) DO NOTHING`,
    `DELETE FROM ${KEYV_TABLE} WHERE substr(key, 1, ${namespace.length}) = '${namespace}'`,
  ];
};

/**
 * The audit trail's entries (src/audit/sqlite.ts): per team a chain numbered 1, 2, 3... (the
 * primary key refuses a second entry on one number); `at` (ms), actor and action index what the
 * canonical entry text holds, which the hashes cover. Self-contained: it may merge after another
 * change's step and be renumbered.
 */
export const SQLITE_AUDIT_ENTRIES: SqlStep = (prefix) => {
  const table = tableName(prefix, "audit_entries");
  return [
    `CREATE TABLE IF NOT EXISTS ${table} (
      team TEXT NOT NULL, seq INTEGER NOT NULL, at INTEGER NOT NULL, actor TEXT NOT NULL, action TEXT NOT NULL,
      entry TEXT NOT NULL, prev_hash TEXT NOT NULL, hash TEXT NOT NULL, PRIMARY KEY (team, seq))`,
    `CREATE INDEX IF NOT EXISTS ${table}_at ON ${table} (team, at, seq)`,
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

export const SQLITE_STEPS: SqlStep[] = [
  // 1: the tables as the releases before the schema version created them (IF NOT EXISTS adopts them).
  (prefix) => {
    const leases = tableName(prefix, "leases");
    const turns = tableName(prefix, "feed_turns");
    const states = tableName(prefix, "feed_states");
    return [
      `CREATE TABLE IF NOT EXISTS ${KEYV_TABLE}(key VARCHAR(255) PRIMARY KEY, value TEXT )`,
      `CREATE TABLE IF NOT EXISTS ${CLAIMS_TABLE} (key TEXT PRIMARY KEY, expires INTEGER NOT NULL)`,
      `CREATE TABLE IF NOT EXISTS ${leases} (key TEXT PRIMARY KEY, owner TEXT NOT NULL, info TEXT NOT NULL, expires INTEGER NOT NULL)`,
      `CREATE TABLE IF NOT EXISTS ${turns} (
      team TEXT PRIMARY KEY, due_at INTEGER NOT NULL, owner TEXT NOT NULL DEFAULT '',
      lease_until INTEGER NOT NULL DEFAULT 0, nudged INTEGER NOT NULL DEFAULT 0)`,
      `CREATE INDEX IF NOT EXISTS ${turns}_due ON ${turns} (due_at)`,
      `CREATE TABLE IF NOT EXISTS ${states} (
      team TEXT NOT NULL, channel TEXT NOT NULL, state TEXT NOT NULL, PRIMARY KEY (team, channel))`,
    ];
  },
  // 2: the claim board (src/store/claims/), one home for what must hold across replicas; the feed's
  // turns and channel states, the leases and the once-only claims move onto it.
  (prefix) => {
    const items = tableName(prefix, "claim_items");
    const states = tableName(prefix, "claim_states");
    const once = CLAIMS_TABLE;
    return [
      `CREATE TABLE ${items} (
        family TEXT NOT NULL, key TEXT NOT NULL, due_at INTEGER NOT NULL, owner TEXT NOT NULL DEFAULT '',
        lease_until INTEGER NOT NULL DEFAULT 0, nudged INTEGER NOT NULL DEFAULT 0, info TEXT NOT NULL DEFAULT '',
        PRIMARY KEY (family, key))`,
      `CREATE INDEX ${items}_due ON ${items} (family, due_at)`,
      `CREATE TABLE ${states} (
        family TEXT NOT NULL, key TEXT NOT NULL, field TEXT NOT NULL, state TEXT NOT NULL,
        PRIMARY KEY (family, key, field))`,
      `INSERT INTO ${items} (family, key, due_at, owner, lease_until, nudged)
        SELECT 'feed', team, due_at, owner, lease_until, nudged FROM ${tableName(prefix, "feed_turns")}`,
      `INSERT INTO ${states} (family, key, field, state)
        SELECT 'feed', team, channel, state FROM ${tableName(prefix, "feed_states")}`,
      `INSERT INTO ${items} (family, key, due_at, owner, lease_until, info)
        SELECT 'lease', key, expires, owner, expires, info FROM ${tableName(prefix, "leases")}`,
      `DROP TABLE ${tableName(prefix, "feed_states")}`,
      `DROP TABLE ${tableName(prefix, "feed_turns")}`,
      `DROP TABLE ${tableName(prefix, "leases")}`,
      // The store's own once-only claims (its default prefix): each with its owner where one was noted.
      ...(prefix !== DEFAULT_PREFIX
        ? []
        : [
            `INSERT INTO ${items} (family, key, due_at, owner, lease_until)
              SELECT 'once', c.key, c.expires, COALESCE(
                (SELECT substr(o.key, length(c.key) + 8) FROM ${once} o
                 WHERE substr(o.key, 1, length(c.key) + 7) = c.key || '#owner:' LIMIT 1),
                'upgraded:' || c.key), c.expires
              FROM ${once} c WHERE instr(c.key, '#owner:') = 0`,
            `DROP TABLE ${once}`,
          ]),
    ];
  },
  // 3: nothing on SQLite (rate counts are kept in the one process's memory); the step keeps the
  // numbers the same on every engine.
  () => [],
  // 4: the feed's channel states kept in Keyv before the ledger move onto the claim board (legacy-feed.ts);
  // they are the store's own (its default prefix).
  (prefix) => (prefix === DEFAULT_PREFIX ? sqliteLegacyFeedMove(prefix, LEGACY_FEED_NAMESPACES) : []),
  // 5: the callback keys move from their Keyv namespace onto the claim board.
  SQLITE_MOVE_CALLBACK_KEYS,
  // 6: the exports owed to their askers move from their Keyv namespace onto the claim board (export-owed.ts).
  SQLITE_MOVE_EXPORTS_OWED,
  // 7: the audit trail (src/audit/): one hash-chained chain of entries per workspace.
  SQLITE_AUDIT_ENTRIES,
  // 8: the live cards' watches (Keyv namespace "watches", the store's own) move onto the claim board.
  sqliteWatchesMove,
  // 9: the audit trail's heads, apart from its entries (each team's newest entry where it has some).
  SQLITE_AUDIT_HEADS,
];

/**
 * Brings the file's schema under `prefix` to the last step: each missing step in one BEGIN
 * IMMEDIATE transaction (the file's write lock, so of two processes starting together one runs it
 * and the other then finds it done). Returns the version.
 */
export function applySqliteSchema(db: Database.Database, prefix: string, steps = SQLITE_STEPS): number {
  const table = tableName(prefix, "schema");
  const versionOf = (): number => {
    const found = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(table);
    if (!found) return 0;
    const row = db.prepare(`SELECT version FROM ${table} WHERE id = 1`).get() as { version?: unknown };
    return typeof row?.version === "number" ? row.version : 0;
  };
  const current = versionOf();
  refuseNewer(current, steps.length, table);
  if (current === steps.length) return current;
  const apply = db.transaction((step: number): void => {
    db.exec(
      `CREATE TABLE IF NOT EXISTS ${table} (id INTEGER PRIMARY KEY CHECK (id = 1), version INTEGER NOT NULL)`,
    );
    // Another process may have run it meanwhile: the version, read under the lock, says.
    const found = versionOf();
    refuseNewer(found, steps.length, table);
    if (found >= step) return;
    for (const sql of steps[step - 1]?.(prefix) ?? []) db.exec(sql);
    db.prepare(
      `INSERT INTO ${table} (id, version) VALUES (1, ?) ON CONFLICT (id) DO UPDATE SET version = excluded.version`,
    ).run(step);
  });
  for (let step = current + 1; step <= steps.length; step++) apply.immediate(step);
  return steps.length;
}
