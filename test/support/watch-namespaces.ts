import type pg from "pg";
import { openStore } from "../../src/store/keyv.js";
import { type PrefixedTable, tableName } from "../../src/store/schema/names.js";

/** Every table the schema names from a prefix, dependants first (the store's own ones stay). */
const PREFIXED: PrefixedTable[] = [
  "watches",
  "feed_turns",
  "feed_states",
  "leases",
  "claim_items",
  "claim_states",
  "rate_limits",
  "audit_entries",
  "audit_heads",
  "schema",
];

/** Drops a test run's tables on PostgreSQL: everything its prefix's schema made. */
export async function dropPrefixTables(pool: pg.Pool, prefix: string): Promise<void> {
  await pool.query(`DROP TABLE IF EXISTS ${PREFIXED.map((table) => tableName(prefix, table)).join(", ")}`);
}

/** Removes a test run's live-card and feed keys and leases (Redis, prefix) or tables (PostgreSQL, prefix). */
export async function dropWatchNamespace(url: string, namespace: string): Promise<void> {
  const store = await openStore(url);
  try {
    if (store.native?.kind === "redis") {
      // KEYS is fine for a test's own few keys.
      await store.native.client.eval(
        "for _, key in ipairs(redis.call('KEYS', ARGV[1])) do redis.call('DEL', key) end return 1",
        { arguments: [`${namespace}:*`] },
      );
      await store.native.client.eval(
        "for _, key in ipairs(redis.call('KEYS', ARGV[1])) do redis.call('DEL', key) end return 1",
        { arguments: [`${namespace}-leases::*`] },
      );
    } else if (store.native?.kind === "postgres") {
      await dropPrefixTables(store.native.pool, namespace);
    }
  } finally {
    await store.close();
  }
}
