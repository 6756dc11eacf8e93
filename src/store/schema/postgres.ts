import type pg from "pg";
import { z } from "zod";
import { POSTGRES_MOVE_EXPORTS_OWED } from "./export-owed.js";
import { LEGACY_FEED_NAMESPACES, postgresLegacyFeedMove } from "./legacy-feed.js";
import { postgresWatchesMove } from "./legacy-watches.js";
import {
  auditTables,
  CLAIMS_TABLE,
  DEFAULT_PREFIX,
  legacyCallbackNamespace,
  POSTGRES_TABLE,
  tableName,
} from "./names.js";
import { refuseNewer, type SqlStep } from "./version.js";

// The PostgreSQL schema as numbered steps. A new table, index or column is a new step at the end
// (never an edit of a step a release has run): a store runs each missing step once, in order.

/**
 * The callback keys move from their Keyv namespace (entries team:<id> -> key, key:<key> -> team, each
 * value {"value":"..."}) onto the claim board (src/store/callback-keys.ts), so an address given out
 * before keeps routing; a route its team's entry does not name routed nothing before and is not
 * moved. The namespace is emptied. Step 5 once merged after the step 4 of another change.
 */
export const POSTGRES_MOVE_CALLBACK_KEYS: SqlStep = (prefix) => {
  const states = tableName(prefix, "claim_states");
  const keyv = `public.${POSTGRES_TABLE}`;
  const namespace = `${legacyCallbackNamespace(prefix)}:`;
  const [teams, routes] = [`${namespace}team:`, `${namespace}key:`];
  // Keys and team ids are plain ([A-Za-z0-9_-]): read by pattern, never by casting text to JSON.
  const value = (column: string) => `substring(${column} from '"value":"([A-Za-z0-9_-]+)"')`;
  return [
    `INSERT INTO ${states} (family, key, field, state)
      SELECT 'callback', substr(t.key, ${teams.length + 1}), 'key', to_jsonb(${value("t.value")})::text
      FROM ${keyv} t WHERE left(t.key, ${teams.length}) = '${teams}' AND ${value("t.value")} IS NOT NULL
      ON CONFLICT (family, key, field) DO NOTHING`,
    `INSERT INTO ${states} (family, key, field, state)
      SELECT 'callback-route', substr(r.key, ${routes.length + 1}), 'team', to_jsonb(${value("r.value")})::text
      FROM ${keyv} r JOIN ${keyv} t ON t.key = '${teams}' || ${value("r.value")}
      WHERE left(r.key, ${routes.length}) = '${routes}' AND ${value("t.value")} = substr(r.key, ${routes.length + 1})
      ON CONFLICT (family, key, field) DO NOTHING`,
    `DELETE FROM ${keyv} WHERE left(key, ${namespace.length}) = '${namespace}'`,
  ];
};

/**
 * The audit trail's entries (src/audit/postgres.ts): per team a chain numbered 1, 2, 3... (the
 * primary key refuses a second entry on one number, which is how two replicas appending at once
 * find out); `at` (ms), actor and action index what the canonical entry text holds (TEXT, not
 * JSONB: the hashes cover its exact bytes). Self-contained: it may merge after another change's
 * step and be renumbered.
 */
export const POSTGRES_AUDIT_ENTRIES: SqlStep = (prefix) => {
  const table = tableName(prefix, "audit_entries");
  return [
    `CREATE TABLE IF NOT EXISTS ${table} (
      team TEXT NOT NULL, seq BIGINT NOT NULL, at BIGINT NOT NULL, actor TEXT NOT NULL, action TEXT NOT NULL,
      entry TEXT NOT NULL, prev_hash TEXT NOT NULL, hash TEXT NOT NULL, PRIMARY KEY (team, seq))`,
    `CREATE INDEX IF NOT EXISTS ${table}_at ON ${table} (team, at, seq)`,
  ];
};

/**
 * Each team's head of the audit trail (src/audit/postgres.ts), kept apart from the entries and moved
 * in the same statement as each append, so deleting the newest entries leaves a head that names
 * them. A store that has entries gets each team's newest as its head. Self-contained.
 */
export const POSTGRES_AUDIT_HEADS: SqlStep = (prefix) => {
  const { entries, heads } = auditTables(prefix);
  return [
    `CREATE TABLE IF NOT EXISTS ${heads} (
      team TEXT PRIMARY KEY, seq BIGINT NOT NULL, hash TEXT NOT NULL, at BIGINT NOT NULL)`,
    `INSERT INTO ${heads} (team, seq, hash, at)
      SELECT DISTINCT ON (team) team, seq, hash, at FROM ${entries} ORDER BY team, seq DESC
      ON CONFLICT (team) DO NOTHING`,
  ];
};

export const POSTGRES_STEPS: SqlStep[] = [
  // 1: the tables as the releases before the schema version created them (IF NOT EXISTS adopts them).
  (prefix) => {
    const watches = tableName(prefix, "watches");
    const turns = tableName(prefix, "feed_turns");
    return [
      `CREATE TABLE IF NOT EXISTS public.${POSTGRES_TABLE} (key VARCHAR(255) PRIMARY KEY, value TEXT)`,
      `CREATE TABLE IF NOT EXISTS public.${CLAIMS_TABLE} (key TEXT PRIMARY KEY, expires TIMESTAMPTZ NOT NULL)`,
      `CREATE TABLE IF NOT EXISTS ${tableName(prefix, "leases")} (key TEXT PRIMARY KEY, owner TEXT NOT NULL, info TEXT NOT NULL, expires BIGINT NOT NULL)`,
      `CREATE TABLE IF NOT EXISTS ${watches} (
      key TEXT PRIMARY KEY, team TEXT NOT NULL, invoice_id TEXT NOT NULL, register TEXT NOT NULL,
      state TEXT NOT NULL, amounts TEXT NOT NULL, invoice JSONB NOT NULL, started_at BIGINT NOT NULL,
      interval_ms BIGINT NOT NULL, last_checked_at BIGINT NOT NULL, cards_updated_at BIGINT NOT NULL,
      due_at BIGINT NOT NULL)`,
      // Columns added after the first release: tables made before them gain them here.
      `ALTER TABLE ${watches} ADD COLUMN IF NOT EXISTS lease TEXT NOT NULL DEFAULT ''`,
      // A payment notification that came while the watch was being read (see dueBy).
      `ALTER TABLE ${watches} ADD COLUMN IF NOT EXISTS nudged_at BIGINT`,
      `CREATE INDEX IF NOT EXISTS ${watches}_due ON ${watches} (due_at)`,
      `CREATE INDEX IF NOT EXISTS ${watches}_team ON ${watches} (team)`,
      `CREATE TABLE IF NOT EXISTS ${tableName(prefix, "watch_cards")} (
      watch_key TEXT NOT NULL REFERENCES ${watches} (key) ON DELETE CASCADE,
      card_id TEXT NOT NULL, card JSONB NOT NULL, PRIMARY KEY (watch_key, card_id))`,
      // When each cash register's next read may start (its read budget; see src/watch/read-budget.ts).
      `CREATE TABLE IF NOT EXISTS ${tableName(prefix, "watch_next_read")} (register TEXT PRIMARY KEY, next_at BIGINT NOT NULL)`,
      // Counts per second, before reads were spaced: only ever held the last 10 seconds.
      `DROP TABLE IF EXISTS ${tableName(prefix, "watch_reads")}`,
      `CREATE TABLE IF NOT EXISTS ${turns} (
        team TEXT PRIMARY KEY, due_at BIGINT NOT NULL, owner TEXT NOT NULL DEFAULT '',
        lease_until BIGINT NOT NULL DEFAULT 0, nudged BIGINT NOT NULL DEFAULT 0)`,
      `CREATE INDEX IF NOT EXISTS ${turns}_due ON ${turns} (due_at)`,
      `CREATE TABLE IF NOT EXISTS ${tableName(prefix, "feed_states")} (
        team TEXT NOT NULL, channel TEXT NOT NULL, state TEXT NOT NULL, PRIMARY KEY (team, channel))`,
    ];
  },
  // 2: the claim board (src/store/claims/), one home for what must hold across replicas; the feed's
  // turns and channel states, the leases and the once-only claims move onto it.
  (prefix) => {
    const items = tableName(prefix, "claim_items");
    const states = tableName(prefix, "claim_states");
    const once = `public.${CLAIMS_TABLE}`;
    return [
      `CREATE TABLE ${items} (
        family TEXT NOT NULL, key TEXT NOT NULL, due_at BIGINT NOT NULL, owner TEXT NOT NULL DEFAULT '',
        lease_until BIGINT NOT NULL DEFAULT 0, nudged BIGINT NOT NULL DEFAULT 0, info TEXT NOT NULL DEFAULT '',
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
              SELECT 'once', c.key, (extract(epoch FROM c.expires) * 1000)::bigint, COALESCE(
                (SELECT substr(o.key, length(c.key) + 8) FROM ${once} o
                 WHERE left(o.key, length(c.key) + 7) = c.key || '#owner:' LIMIT 1),
                'upgraded:' || c.key), (extract(epoch FROM c.expires) * 1000)::bigint
              FROM ${once} c WHERE strpos(c.key, '#owner:') = 0`,
            `DROP TABLE ${once}`,
          ]),
    ];
  },
  // 3: rate-limiter-flexible's table of command counts (src/store/rate-limit.ts), as the library reads it.
  (prefix) => [
    `CREATE TABLE IF NOT EXISTS public.${tableName(prefix, "rate_limits")} (key VARCHAR(255) PRIMARY KEY, points INTEGER NOT NULL DEFAULT 0, expire BIGINT)`,
  ],
  // 4: the feed's channel states kept in Keyv before the ledger move onto the claim board (legacy-feed.ts);
  // they are the store's own (its default prefix).
  (prefix) => (prefix === DEFAULT_PREFIX ? postgresLegacyFeedMove(prefix, LEGACY_FEED_NAMESPACES) : []),
  // 5: the callback keys move from their Keyv namespace onto the claim board.
  POSTGRES_MOVE_CALLBACK_KEYS,
  // 6: the exports owed to their askers move from their Keyv namespace onto the claim board (export-owed.ts).
  POSTGRES_MOVE_EXPORTS_OWED,
  // 7: the audit trail (src/audit/): one hash-chained chain of entries per workspace.
  POSTGRES_AUDIT_ENTRIES,
  // 8: the live cards' watches move from their tables onto the claim board; the tables go.
  postgresWatchesMove,
  // 9: the audit trail's heads, apart from its entries (each team's newest entry where it has some).
  POSTGRES_AUDIT_HEADS,
];

/**
 * Every replica's schema work waits on this one advisory lock (whatever its prefix: step 1 creates
 * the store's own tables for every prefix, and two CREATE TABLE IF NOT EXISTS racing would clash).
 */
const SCHEMA_LOCK = "kassa schema";

const versionSchema = z.array(z.object({ version: z.coerce.number().int() }));

async function versionOf(db: pg.Pool | pg.PoolClient, table: string): Promise<number> {
  const found = await db.query<{ found: string | null }>("SELECT to_regclass($1)::text AS found", [table]);
  if (!found.rows[0]?.found) return 0;
  const rows = versionSchema.parse((await db.query(`SELECT version FROM ${table} WHERE id = 1`)).rows);
  return rows[0]?.version ?? 0;
}

/**
 * Brings the database's schema under `prefix` to the last step: each missing step in one
 * transaction holding a transaction-level advisory lock, the version read again under it, so of two
 * replicas starting together one runs the step and the other finds it done. A store already at the
 * last step is only read (a database user without CREATE rights can run it). Returns the version.
 */
export async function applyPostgresSchema(
  pool: pg.Pool,
  prefix: string,
  steps = POSTGRES_STEPS,
): Promise<number> {
  const table = tableName(prefix, "schema");
  const current = await versionOf(pool, table);
  refuseNewer(current, steps.length, table);
  if (current === steps.length) return current;
  const client = await pool.connect();
  try {
    for (let step = current + 1; step <= steps.length; step++) {
      await client.query("BEGIN");
      try {
        await client.query("SELECT pg_advisory_xact_lock(hashtext($1))", [SCHEMA_LOCK]);
        await client.query(
          `CREATE TABLE IF NOT EXISTS ${table} (id INTEGER PRIMARY KEY CHECK (id = 1), version INTEGER NOT NULL)`,
        );
        const found = await versionOf(client, table);
        refuseNewer(found, steps.length, table);
        if (found < step) {
          for (const sql of steps[step - 1]?.(prefix) ?? []) await client.query(sql);
          await client.query(
            `INSERT INTO ${table} (id, version) VALUES (1, $1) ON CONFLICT (id) DO UPDATE SET version = excluded.version`,
            [step],
          );
        }
        await client.query("COMMIT");
      } catch (error) {
        await client.query("ROLLBACK").catch(() => undefined);
        throw error;
      }
    }
  } finally {
    client.release();
  }
  return steps.length;
}
