// Every table name comes from here: the store's own tables (fixed names, kept from the first
// releases so a store written by them opens unchanged) and the ones named from the prefix.

/** The prefix of a production store's tables and keys; tests give each run its own. */
export const DEFAULT_PREFIX = "kassa";

/** The PostgreSQL table Kassa keeps every Keyv namespace in (in schema public). */
export const POSTGRES_TABLE = DEFAULT_PREFIX;
/** The SQLite table of the Keyv namespaces: the one @keyv/sqlite 4 created and Kassa keeps using. */
export const KEYV_TABLE = "keyv";

/** The tables named from a prefix. */
export type PrefixedTable =
  | "schema"
  | "claims"
  | "leases"
  | "watches"
  | "feed_turns"
  | "feed_states"
  | "claim_items"
  | "claim_states"
  | "rate_limits"
  | "audit_entries"
  | "audit_heads";

/**
 * The prefix as the start of an SQL name: ":" and "-" (Redis-style prefixes such as "kassa-test:x")
 * become "_"; anything else that could not stand unquoted in SQL is refused.
 */
export function sqlPrefix(prefix: string): string {
  const plain = prefix.replace(/[:-]/g, "_");
  if (!/^[A-Za-z_][A-Za-z0-9_]{0,40}$/.test(plain))
    throw new Error(`table prefix ${JSON.stringify(prefix)} is not a plain SQL name`);
  return plain;
}

/** The table `table` of the store under `prefix`: "<prefix>_<table>". */
export function tableName(prefix: string, table: PrefixedTable): string {
  return `${sqlPrefix(prefix)}_${table}`;
}

/** The once-only claims' table of the releases before the claim board: a store holding it is older. */
export const CLAIMS_TABLE = tableName(DEFAULT_PREFIX, "claims");

/** Where Redis keeps the schema version of a prefix. */
export const redisSchemaKey = (prefix: string) => `${prefix}:schema`;

/** The audit trail's two tables under `prefix` (src/audit/): its entries, and each team's head. */
export function auditTables(prefix: string): { entries: string; heads: string } {
  return { entries: tableName(prefix, "audit_entries"), heads: tableName(prefix, "audit_heads") };
}

/** The claim board's two tables under `prefix` (src/store/claims/). */
export function claimTables(prefix: string): { items: string; states: string } {
  return { items: tableName(prefix, "claim_items"), states: tableName(prefix, "claim_states") };
}

/** Where the claim board keeps its keys under `prefix` in Redis. */
export const redisClaimPrefix = (prefix: string) => `${prefix}:claims`;

/** Where the audit trail keeps its keys under `prefix` in Redis (src/audit/redis.ts). */
export const redisAuditPrefix = (prefix: string) => `${prefix}:audit`;
