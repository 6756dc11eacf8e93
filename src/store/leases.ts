import type { RedisClientConnectionType } from "@keyv/redis";
import type pg from "pg";
import type { KeyvStore } from "./connection.js";
import { redisScript, runRedisScript } from "./redis-scripts.js";
import { ensureSchema } from "./schema/index.js";
import { DEFAULT_PREFIX, tableName } from "./schema/names.js";
import { openSqliteDatabase } from "./sqlite.js";

/** How long a lease statement waits for another process's write lock on the SQLite file. */
const SQLITE_BUSY_TIMEOUT_MS = 5000;

/**
 * Work one replica at a time does (an export of a workspace, the refresh of a register's kept
 * history): a lease has an owner, an expiry and renewal, each step one atomic statement of the
 * engine (Redis SET NX PX and compare-and-set scripts; PostgreSQL and SQLite INSERT … ON CONFLICT …
 * WHERE and UPDATE … WHERE owner), never a Keyv read followed by a write.
 * `info` says who holds it, for the next asker ("under way, asked by …"). A holder whose renewal
 * fails has lost it and must write nothing more.
 */
export type Leases = {
  acquire(
    key: string,
    owner: string,
    info: string,
    ttlMs: number,
  ): Promise<{ held: true } | { held: false; info: string | undefined }>;
  /** Extends the lease while `owner` still holds it; false once it does not. */
  renew(key: string, owner: string, ttlMs: number): Promise<boolean>;
  release(key: string, owner: string): Promise<void>;
};

/** The leases of this store's engine; `prefix` keeps a test run's keys (or table) apart. */
export async function leasesFor(
  store: Pick<KeyvStore, "native" | "location">,
  prefix = DEFAULT_PREFIX,
): Promise<Leases> {
  const native = store.native;
  if (native?.kind === "redis") return redisLeases(native.client, `${prefix}-leases::`);
  // The store applied the default prefix's tables as it opened; another prefix's are applied here.
  if (native) await ensureSchema(native, prefix);
  const table = tableName(prefix, "leases");
  if (native?.kind === "postgres") return postgresLeases(native.pool, table);
  return sqliteLeases(store.location, table);
}

/** SQLite: a table in the same file, on a connection of its own (processes on one host share it). */
function sqliteLeases(path: string, table: string): Leases {
  const db = openSqliteDatabase(path, SQLITE_BUSY_TIMEOUT_MS);
  const take = db.prepare<[string, string, string, number, number]>(
    `INSERT INTO ${table} (key, owner, info, expires) VALUES (?, ?, ?, ?)
     ON CONFLICT (key) DO UPDATE SET owner = excluded.owner, info = excluded.info, expires = excluded.expires
     WHERE ${table}.expires <= ? OR ${table}.owner = excluded.owner RETURNING key`,
  );
  const holder = db.prepare<[string, number]>(`SELECT info FROM ${table} WHERE key = ? AND expires > ?`);
  const extend = db.prepare<[number, string, string, number]>(
    `UPDATE ${table} SET expires = ? WHERE key = ? AND owner = ? AND expires > ?`,
  );
  const drop = db.prepare<[string, string]>(`DELETE FROM ${table} WHERE key = ? AND owner = ?`);
  return {
    async acquire(key, owner, info, ttlMs) {
      const now = Date.now();
      if (take.all(key, owner, info, now + ttlMs, now).length === 1) return { held: true };
      const row = holder.get(key, now) as { info?: unknown } | undefined;
      return { held: false, info: typeof row?.info === "string" ? row.info : undefined };
    },
    async renew(key, owner, ttlMs) {
      const now = Date.now();
      return extend.run(now + ttlMs, key, owner, now).changes === 1;
    },
    async release(key, owner) {
      drop.run(key, owner);
    },
  };
}

// The value is "<owner> <info>": the owner is a token without spaces.
const RENEW = redisScript(
  "lease renew",
  1,
  `--[[
  Extends a lease while the owner still holds it.
    Input:
      KEYS[1] the lease ("<owner> <info>")
      ARGV[1] owner, ARGV[2] new time to live (ms)
    Output:
      1 extended, 0 not held by this owner (or lapsed)
]]
local v = redis.call('GET', KEYS[1])
if v and string.sub(v, 1, string.len(ARGV[1]) + 1) == ARGV[1] .. ' ' then
  return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return 0`,
);
const RELEASE = redisScript(
  "lease release",
  1,
  `--[[
  Gives a lease up while the owner still holds it.
    Input:
      KEYS[1] the lease ("<owner> <info>")
      ARGV[1] owner
    Output:
      1 given up, 0 not held by this owner (or lapsed)
]]
local v = redis.call('GET', KEYS[1])
if v and string.sub(v, 1, string.len(ARGV[1]) + 1) == ARGV[1] .. ' ' then
  return redis.call('DEL', KEYS[1]) end
return 0`,
);

function redisLeases(client: RedisClientConnectionType, prefix: string): Leases {
  const leases: Leases = {
    async acquire(key, owner, info, ttlMs) {
      const value = `${owner} ${info}`;
      const set = await client.set(`${prefix}${key}`, value, {
        condition: "NX",
        expiration: { type: "PX", value: Math.max(1, Math.round(ttlMs)) },
      });
      if (set === "OK") return { held: true };
      const current = await client.get(`${prefix}${key}`);
      if (current?.startsWith(`${owner} `) && (await leases.renew(key, owner, ttlMs))) return { held: true };
      return { held: false, info: current?.slice(current.indexOf(" ") + 1) };
    },
    async renew(key, owner, ttlMs) {
      const ttl = Math.max(1, Math.round(ttlMs));
      return Number(await runRedisScript(client, RENEW, [`${prefix}${key}`], [owner, ttl])) === 1;
    },
    async release(key, owner) {
      await runRedisScript(client, RELEASE, [`${prefix}${key}`], [owner]);
    },
  };
  return leases;
}

function postgresLeases(pool: pg.Pool, table: string): Leases {
  return {
    async acquire(key, owner, info, ttlMs) {
      const now = Date.now();
      // Taken when free, lapsed, or already ours: one statement, whichever replica runs it first.
      const taken = await pool.query(
        `INSERT INTO ${table} (key, owner, info, expires) VALUES ($1, $2, $3, $4)
         ON CONFLICT (key) DO UPDATE SET owner = excluded.owner, info = excluded.info, expires = excluded.expires
         WHERE ${table}.expires <= $5 OR ${table}.owner = excluded.owner
         RETURNING key`,
        [key, owner, info, now + ttlMs, now],
      );
      if (taken.rowCount === 1) return { held: true };
      const current = await pool.query(`SELECT info FROM ${table} WHERE key = $1 AND expires > $2`, [
        key,
        now,
      ]);
      const row = current.rows[0] as { info?: unknown } | undefined;
      return { held: false, info: typeof row?.info === "string" ? row.info : undefined };
    },
    async renew(key, owner, ttlMs) {
      const now = Date.now();
      const renewed = await pool.query(
        `UPDATE ${table} SET expires = $3 WHERE key = $1 AND owner = $2 AND expires > $4`,
        [key, owner, now + ttlMs, now],
      );
      return renewed.rowCount === 1;
    },
    async release(key, owner) {
      await pool.query(`DELETE FROM ${table} WHERE key = $1 AND owner = $2`, [key, owner]);
    },
  };
}
