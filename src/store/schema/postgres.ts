import type pg from "pg";
import { z } from "zod";
import { auditTables, CLAIMS_TABLE, DEFAULT_PREFIX, POSTGRES_TABLE, tableName } from "./names.js";
import { BASELINE_VERSION, refuseNewer, refuseOlder, type SqlStep } from "./version.js";

// The PostgreSQL schema: the baseline (the tables as release 63116c6 left them, version 8), then
// numbered steps. A new table, index or column is a new step at the end (never an edit of a step a
// release has run): a store runs each missing step once, in order.

/**
 * The tables at BASELINE_VERSION: the Keyv table (the store's, whatever the prefix), the claim board
 * (src/store/claims/), rate-limiter-flexible's table of command counts (src/store/rate-limit.ts, as
 * the library reads it) and the audit trail's entries (src/audit/postgres.ts).
 */
export const POSTGRES_BASELINE: SqlStep = (prefix) => {
  const items = tableName(prefix, "claim_items");
  const audit = tableName(prefix, "audit_entries");
  return [
    `CREATE TABLE IF NOT EXISTS public.${POSTGRES_TABLE} (key VARCHAR(255) PRIMARY KEY, value TEXT)`,
    `CREATE TABLE ${items} (
      family TEXT NOT NULL, key TEXT NOT NULL, due_at BIGINT NOT NULL, owner TEXT NOT NULL DEFAULT '',
      lease_until BIGINT NOT NULL DEFAULT 0, nudged BIGINT NOT NULL DEFAULT 0, info TEXT NOT NULL DEFAULT '',
      PRIMARY KEY (family, key))`,
    `CREATE INDEX ${items}_due ON ${items} (family, due_at)`,
    `CREATE TABLE ${tableName(prefix, "claim_states")} (
      family TEXT NOT NULL, key TEXT NOT NULL, field TEXT NOT NULL, state TEXT NOT NULL,
      PRIMARY KEY (family, key, field))`,
    `CREATE TABLE public.${tableName(prefix, "rate_limits")} (key VARCHAR(255) PRIMARY KEY, points INTEGER NOT NULL DEFAULT 0, expire BIGINT)`,
    `CREATE TABLE ${audit} (
      team TEXT NOT NULL, seq BIGINT NOT NULL, at BIGINT NOT NULL, actor TEXT NOT NULL, action TEXT NOT NULL,
      entry TEXT NOT NULL, prev_hash TEXT NOT NULL, hash TEXT NOT NULL, PRIMARY KEY (team, seq))`,
    `CREATE INDEX ${audit}_at ON ${audit} (team, at, seq)`,
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

/** The steps after the baseline: POSTGRES_STEPS[0] is step BASELINE_VERSION + 1. */
export const POSTGRES_STEPS: SqlStep[] = [
  // 9: the audit trail's heads, apart from its entries (each team's newest entry where it has some).
  POSTGRES_AUDIT_HEADS,
];

/**
 * What a store written before the schema version holds under `prefix`: the tables releases before
 * it created, and (the store's own prefix) any Keyv entry.
 */
async function holdsOlderData(db: pg.PoolClient, prefix: string): Promise<boolean> {
  const exists = async (name: string) =>
    (await db.query("SELECT to_regclass($1) IS NOT NULL AS found", [`public.${name}`])).rows[0]?.found ===
    true;
  const own = prefix === DEFAULT_PREFIX;
  const old = (["leases", "feed_turns", "feed_states", "watches"] as const).map((t) => tableName(prefix, t));
  for (const name of [...old, ...(own ? [CLAIMS_TABLE] : [])]) if (await exists(name)) return true;
  if (!own || !(await exists(POSTGRES_TABLE))) return false;
  return ((await db.query(`SELECT 1 FROM public.${POSTGRES_TABLE} LIMIT 1`)).rowCount ?? 0) > 0;
}

/**
 * Every replica's schema work waits on this one advisory lock (whatever its prefix: the baseline
 * creates the store's own Keyv table for every prefix, and two CREATE TABLE IF NOT EXISTS racing
 * would clash).
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
 * Brings the database's schema under `prefix` to the last step: the baseline for a new store, then
 * each missing step, each in one transaction holding a transaction-level advisory lock, the version
 * read again under it, so of two replicas starting together one runs the step and the other finds
 * it done. A store already at the last step is only read (a database user without CREATE rights can
 * run it). Refuses a store newer than this release knows, or older than it upgrades. Returns the version.
 */
export async function applyPostgresSchema(
  pool: pg.Pool,
  prefix: string,
  steps = POSTGRES_STEPS,
): Promise<number> {
  const table = tableName(prefix, "schema");
  const last = BASELINE_VERSION + steps.length;
  const current = await versionOf(pool, table);
  refuseNewer(current, last, table);
  refuseOlder(current, false, table);
  if (current === last) return current;
  const client = await pool.connect();
  try {
    for (let step = Math.max(current + 1, BASELINE_VERSION); step <= last; step++) {
      await client.query("BEGIN");
      try {
        await client.query("SELECT pg_advisory_xact_lock(hashtext($1))", [SCHEMA_LOCK]);
        // Also brings this session's view of the catalogue up to date (a relation lock does; the
        // advisory lock does not): the version another replica committed meanwhile is then seen.
        // A refusal rolls it back with the rest.
        await client.query(
          `CREATE TABLE IF NOT EXISTS ${table} (id INTEGER PRIMARY KEY CHECK (id = 1), version INTEGER NOT NULL)`,
        );
        const found = await versionOf(client, table);
        refuseNewer(found, last, table);
        refuseOlder(found, found === 0 && (await holdsOlderData(client, prefix)), table);
        if (found < step) await applyStep(client, table, step, steps, prefix);
        await client.query("COMMIT");
      } catch (error) {
        await client.query("ROLLBACK").catch(() => undefined);
        throw error;
      }
    }
  } finally {
    client.release();
  }
  return last;
}

/** One step's statements (the baseline's at BASELINE_VERSION), then the version, in the open transaction. */
async function applyStep(
  client: pg.PoolClient,
  table: string,
  step: number,
  steps: SqlStep[],
  prefix: string,
) {
  await client.query(
    `CREATE TABLE IF NOT EXISTS ${table} (id INTEGER PRIMARY KEY CHECK (id = 1), version INTEGER NOT NULL)`,
  );
  const sql =
    step === BASELINE_VERSION
      ? POSTGRES_BASELINE(prefix)
      : (steps[step - BASELINE_VERSION - 1]?.(prefix) ?? []);
  for (const statement of sql) await client.query(statement);
  await client.query(
    `INSERT INTO ${table} (id, version) VALUES (1, $1) ON CONFLICT (id) DO UPDATE SET version = excluded.version`,
    [step],
  );
}
