import KeyvPostgres from "@keyv/postgres";
import type Keyv from "keyv";
import pg from "pg";
import { z } from "zod";
import type { AtomicKeys } from "./atomic.js";
import {
  atomicNamespaces,
  CONNECT_TIMEOUT_MS,
  connectOrExplain,
  type KeyvStore,
  keyvFor,
  PING_TIMEOUT_MS,
  POSTGRES_PAGE_SIZE,
  POSTGRES_TABLE,
  redactedUrl,
  withinStoreTimeout,
} from "./keyv.js";

// Loaded only when STORE_URL is postgres:// (openStore imports it on demand).

/** What PostgreSQL rows look like to the namespace listing. */
const postgresRowsSchema = z.array(z.object({ key: z.string(), value: z.string() }));

export async function openPostgres(storeUrl: string, timeoutMs: number): Promise<KeyvStore> {
  const location = redactedUrl(storeUrl);
  // A pool of our own: @keyv/postgres keeps one pool per process, and disconnecting any adapter
  // ends it for all of them (and for a second store on the same URL).
  // query_timeout: a stalled server's query gives its connection back instead of holding it forever.
  const pool = new pg.Pool({
    connectionString: storeUrl,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    query_timeout: Math.max(timeoutMs, CONNECT_TIMEOUT_MS),
  });
  // An idle connection that breaks (server restart) is reported on the pool; unheard, that would
  // crash the process. The pool replaces it, and the next query reports any lasting failure.
  pool.on("error", () => {});

  await connectOrExplain(
    location,
    async () => {
      // Created only when missing: a database user without CREATE rights can use a table made for it.
      const found = await pool.query<{ found: string | null }>("SELECT to_regclass($1)::text AS found", [
        `public.${POSTGRES_TABLE}`,
      ]);
      if (found.rows[0]?.found) return;
      try {
        await pool.query(
          `CREATE TABLE IF NOT EXISTS public.${POSTGRES_TABLE} (key VARCHAR(255) PRIMARY KEY, value TEXT)`,
        );
      } catch (error) {
        // Another replica created it at the same moment (a race on the catalog's unique index).
        if ((error as { code?: string }).code !== "23505") throw error;
      }
    },
    () => pool.end(),
  );

  /** Namespaces share the store's pool; the store, not an adapter, ends it. */
  class SharedPoolPostgres extends KeyvPostgres {
    override async connect() {
      return async (sql: string, values?: unknown[]) => (await pool.query(sql, values)).rows;
    }

    override async disconnect(): Promise<void> {}

    // Upstream's iterator reports a failed query as an event and stops, so a broken store would
    // list as empty; this one lets the error reach the caller.
    override async *iterator(namespace?: string): AsyncGenerator<string[], void, unknown> {
      const prefix = namespace ? `${namespace}:` : "";
      let after = "";
      for (;;) {
        const rows = postgresRowsSchema.parse(
          await this.query(
            `SELECT key, value FROM public.${POSTGRES_TABLE} WHERE starts_with(key, $1) AND key > $2 ORDER BY key LIMIT $3`,
            [prefix, after, POSTGRES_PAGE_SIZE],
          ),
        );
        for (const row of rows) yield [row.key, row.value];
        const last = rows.at(-1);
        if (!last || rows.length < POSTGRES_PAGE_SIZE) return;
        after = last.key;
      }
    }
  }

  const instances = new Map<string, Keyv>();
  let closed = false;
  return {
    location,
    kind: "postgres",
    namespace(name) {
      let keyv = instances.get(name);
      if (!keyv) {
        // One adapter per namespace: Keyv writes its namespace onto the adapter it is given.
        keyv = keyvFor(new SharedPoolPostgres({ uri: storeUrl, table: POSTGRES_TABLE }), name, timeoutMs);
        instances.set(name, keyv);
      }
      return keyv;
    },
    atomic: atomicNamespaces((name) => postgresAtomicKeys(pool, name), timeoutMs),
    async ping() {
      await withinStoreTimeout(pool.query("SELECT 1"), Math.min(timeoutMs, PING_TIMEOUT_MS), "(ping)");
    },
    async close() {
      if (closed) return;
      closed = true;
      await pool.end();
    },
  };
}

/** Milliseconds since the epoch on the database's clock, so replicas with skewed clocks agree. */
const DB_NOW_MS = "(extract(epoch from clock_timestamp()) * 1000)::bigint";
/** Expired claims are swept now and then, not on every call. */
const SWEEP_EVERY = 500;

/**
 * Atomic keys as rows of the `kassa` table (key `atomic:<name>:<key>`, value JSON with an expiry in
 * ms): a claim is one INSERT ... ON CONFLICT that wins only over a missing or expired row; a take is
 * one DELETE ... RETURNING.
 */
function postgresAtomicKeys(pool: pg.Pool, name: string): AtomicKeys {
  const key = (k: string) => `atomic:${name}:${k}`;
  let calls = 0;
  const sweep = async () => {
    calls += 1;
    if (calls % SWEEP_EVERY !== 0) return;
    await pool.query(
      `DELETE FROM public.${POSTGRES_TABLE} WHERE starts_with(key, $1) AND (value::jsonb->>'expires')::bigint <= ${DB_NOW_MS}`,
      [`atomic:${name}:`],
    );
  };
  const row = `json_build_object('value', $2::text, 'expires', ${DB_NOW_MS} + $3::bigint)::text`;
  return {
    async claim(k, ttlMs) {
      await sweep();
      const result = await pool.query(
        `INSERT INTO public.${POSTGRES_TABLE} (key, value) VALUES ($1, ${row})
         ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value
         WHERE (public.${POSTGRES_TABLE}.value::jsonb->>'expires')::bigint <= ${DB_NOW_MS}
         RETURNING key`,
        [key(k), "", ttlMs],
      );
      return result.rowCount === 1;
    },
    async put(k, value, ttlMs) {
      await sweep();
      await pool.query(
        `INSERT INTO public.${POSTGRES_TABLE} (key, value) VALUES ($1, ${row})
         ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value`,
        [key(k), value, ttlMs],
      );
    },
    async take(k) {
      const result = await pool.query<{ value: string | null; live: boolean }>(
        `DELETE FROM public.${POSTGRES_TABLE} WHERE key = $1
         RETURNING value::jsonb->>'value' AS value, (value::jsonb->>'expires')::bigint > ${DB_NOW_MS} AS live`,
        [key(k)],
      );
      const found = result.rows[0];
      return found?.live && typeof found.value === "string" ? found.value : undefined;
    },
  };
}
