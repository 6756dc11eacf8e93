import type { RedisClientConnectionType } from "@keyv/redis";
import type Database from "better-sqlite3";
import type pg from "pg";
import { z } from "zod";
import { withStoreDeadline } from "./deadline.js";
import { redisScript, runRedisScript } from "./redis-scripts.js";
import { KEYV_TABLE, POSTGRES_TABLE } from "./schema/names.js";

// The callback keys live in their Keyv namespace as Keyv writes them (entry "team:<id>" and
// "key:<key>", each value the text {"value":...}), so an address given out before stays valid. What
// must not race (two admins rotating at once, a rotation beside a first use, an uninstall) is changed
// here with the engine's own atomic step: a Lua script in Redis, one statement in PostgreSQL, an
// immediate transaction in SQLite. Each is a compare-and-swap on the workspace's entry.

/** One compare-and-swap of a workspace's entry, with the routes that go with it. */
export type EntrySwap = {
  /** The entry compared and changed ("team:<id>"). */
  entry: string;
  /** The text it must still hold; undefined: it must not exist. */
  expected: string | undefined;
  /** The text it holds afterwards; undefined: it is deleted. */
  replacement: string | undefined;
  /** An entry written with it (the new key's route), when it is done. */
  put?: { entry: string; text: string } | undefined;
  /** An entry deleted with it (the old key's route), when it is done. */
  drop?: string | undefined;
};

export type CallbackKeyEngine = {
  /** The stored text of an entry of the namespace; undefined when there is none. */
  read(entry: string): Promise<string | undefined>;
  /** All of the swap in one atomic step, only while `entry` still holds `expected`; false otherwise. */
  swap(change: EntrySwap): Promise<boolean>;
};

/** Every engine call under the store's deadline (STORE_TIMEOUT_MS), as Keyv's calls are. */
export function timedEngine(engine: CallbackKeyEngine, timeoutMs: number): CallbackKeyEngine {
  return {
    read: (entry) => withStoreDeadline(engine.read(entry), timeoutMs, "callback key read"),
    swap: (change) => withStoreDeadline(engine.swap(change), timeoutMs, "callback key swap"),
  };
}

/** Redis: `prefix` is the adapter's "<namespace>::". One script: Redis runs it with nothing in between. */
const SWAP = redisScript(
  "callback key swap",
  0,
  `--[[
  Compare-and-swap of a workspace's entry, with the routes that go with it ('' stands for none: an
  entry never holds the empty text).
    Input (keys from the prefix: P<entry>, P<put entry>, P<dropped entry>):
      ARGV[1] prefix P ("<namespace>::"), ARGV[2] the entry, ARGV[3] the text it must hold,
      ARGV[4] the text it holds afterwards ('' deletes it),
      ARGV[5] an entry written with it, ARGV[6] that entry's text, ARGV[7] an entry deleted with it
    Output:
      1 swapped, 0 the entry no longer held the expected text (nothing changed)
]]
local p = ARGV[1]
local current = redis.call('GET', p..ARGV[2]) or ''
if current ~= ARGV[3] then return 0 end
if ARGV[4] == '' then redis.call('DEL', p..ARGV[2]) else redis.call('SET', p..ARGV[2], ARGV[4]) end
if ARGV[5] ~= '' then redis.call('SET', p..ARGV[5], ARGV[6]) end
if ARGV[7] ~= '' then redis.call('DEL', p..ARGV[7]) end
return 1`,
);

export function redisEngine(client: RedisClientConnectionType, prefix: string): CallbackKeyEngine {
  return {
    async read(entry) {
      return (await client.get(`${prefix}${entry}`)) ?? undefined;
    },
    async swap(change) {
      // An entry never holds the empty text (Keyv writes {"value":...}), so '' stands for "none".
      const args = [
        prefix,
        change.entry,
        change.expected ?? "",
        change.replacement ?? "",
        change.put?.entry ?? "",
        change.put?.text ?? "",
        change.drop ?? "",
      ];
      return z.number().parse(await runRedisScript(client, SWAP, [], args)) === 1;
    },
  };
}

const changedSchema = z.array(z.object({ done: z.boolean() }));

/**
 * PostgreSQL: `prefix` is Keyv's "<namespace>:". One statement: the entry's UPDATE (or INSERT … ON
 * CONFLICT DO NOTHING, or DELETE) with its condition, and the routes in CTEs that happen only when it
 * did. Under READ COMMITTED a rival statement waits for the row and checks the condition again on
 * what was committed, so of two rotations one changes the entry and the other finds it changed.
 */
export function postgresEngine(pool: pg.Pool, prefix: string): CallbackKeyEngine {
  const table = `public.${POSTGRES_TABLE}`;
  return {
    async read(entry) {
      const result = await pool.query<{ value: string }>(`SELECT value FROM ${table} WHERE key = $1`, [
        `${prefix}${entry}`,
      ]);
      return result.rows[0]?.value ?? undefined;
    },
    async swap(change) {
      const values: unknown[] = [`${prefix}${change.entry}`];
      const param = (value: unknown) => `$${values.push(value)}`;
      const key = "$1";
      let first: string;
      if (change.expected === undefined) {
        if (change.replacement === undefined) return true;
        first = `INSERT INTO ${table} (key, value) VALUES (${key}, ${param(change.replacement)})
          ON CONFLICT (key) DO NOTHING RETURNING 1`;
      } else if (change.replacement === undefined) {
        first = `DELETE FROM ${table} WHERE key = ${key} AND value = ${param(change.expected)} RETURNING 1`;
      } else {
        first = `UPDATE ${table} SET value = ${param(change.replacement)}
          WHERE key = ${key} AND value = ${param(change.expected)} RETURNING 1`;
      }
      const steps = [`changed AS (${first})`];
      if (change.put) {
        steps.push(`routed AS (INSERT INTO ${table} (key, value)
          SELECT ${param(`${prefix}${change.put.entry}`)}, ${param(change.put.text)} FROM changed
          ON CONFLICT (key) DO UPDATE SET value = excluded.value RETURNING 1)`);
      }
      if (change.drop) {
        steps.push(`dropped AS (DELETE FROM ${table}
          WHERE key = ${param(`${prefix}${change.drop}`)} AND EXISTS (SELECT 1 FROM changed) RETURNING 1)`);
      }
      const sql = `WITH ${steps.join(", ")} SELECT EXISTS (SELECT 1 FROM changed) AS done`;
      const result = await pool.query(sql, values);
      return changedSchema.parse(result.rows)[0]?.done === true;
    },
  };
}

/**
 * SQLite: `prefix` is Keyv's "<namespace>:". BEGIN IMMEDIATE takes the database's write lock before
 * the entry is read, so another process sharing the file (the CLI, a second instance) waits its
 * turn; within this process better-sqlite3 runs the transaction without yielding.
 */
export function sqliteEngine(db: Database.Database, prefix: string): CallbackKeyEngine {
  const get = db.prepare<[string], { value: string }>(`SELECT value FROM ${KEYV_TABLE} WHERE key = ?`);
  const put = db.prepare<[string, string]>(
    `INSERT INTO ${KEYV_TABLE} (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value`,
  );
  const remove = db.prepare<[string]>(`DELETE FROM ${KEYV_TABLE} WHERE key = ?`);
  const swap = db.transaction((change: EntrySwap): boolean => {
    const entry = `${prefix}${change.entry}`;
    if (get.get(entry)?.value !== change.expected) return false;
    if (change.replacement === undefined) remove.run(entry);
    else put.run(entry, change.replacement);
    if (change.put) put.run(`${prefix}${change.put.entry}`, change.put.text);
    if (change.drop) remove.run(`${prefix}${change.drop}`);
    return true;
  });
  return {
    async read(entry) {
      return get.get(`${prefix}${entry}`)?.value;
    },
    async swap(change) {
      return swap.immediate(change);
    },
  };
}
