import KeyvPostgres from "@keyv/postgres";
import type Keyv from "keyv";
import pg from "pg";
import { z } from "zod";
import { claimOnceOn } from "./claims/once.js";
import { postgresClaimBoard } from "./claims/postgres.js";
import {
  CONNECT_TIMEOUT_MS,
  connectOrExplain,
  type KeyvStore,
  keyvFor,
  POSTGRES_PAGE_SIZE,
  redactedUrl,
  StoreUnavailableError,
} from "./connection.js";
import { ensureSchema } from "./schema/index.js";
import { claimTables, DEFAULT_PREFIX, POSTGRES_TABLE } from "./schema/names.js";

// Loaded only when STORE_URL is postgres:// (openStore imports it on demand).

/** What PostgreSQL rows look like to the namespace listing. */
const postgresRowsSchema = z.array(z.object({ key: z.string(), value: z.string() }));

export async function openPostgres(storeUrl: string, timeoutMs: number): Promise<KeyvStore> {
  const location = redactedUrl(storeUrl);
  const pool = await connectedPool(storeUrl, location);
  const SharedPoolPostgres = sharedPoolAdapter(pool);
  const instances = new Map<string, Keyv>();
  let closed = false;
  return {
    location,
    kind: "postgres",
    native: { kind: "postgres", pool },
    namespace(name) {
      let keyv = instances.get(name);
      if (!keyv) {
        // One adapter per namespace: Keyv writes its namespace onto the adapter it is given.
        keyv = keyvFor(new SharedPoolPostgres({ uri: storeUrl, table: POSTGRES_TABLE }), name, timeoutMs);
        instances.set(name, keyv);
      }
      return keyv;
    },
    async ping() {
      await pool.query("SELECT 1");
    },
    claimOnce: claimOnceOn(postgresClaimBoard(pool, claimTables(DEFAULT_PREFIX))),
    async close() {
      if (closed) return;
      closed = true;
      await pool.end();
    },
  };
}

/** The store's pool, connected and its schema brought up to date; one line when it cannot be. */
async function connectedPool(storeUrl: string, location: string): Promise<pg.Pool> {
  // A pool of our own: @keyv/postgres keeps one pool per process, and disconnecting any adapter
  // ends it for all of them (and for a second store on the same URL).
  const pool = new pg.Pool({ connectionString: storeUrl, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
  // An idle connection that breaks (server restart) is reported on the pool; unheard, that would
  // crash the process. The pool replaces it, and the next query reports any lasting failure.
  pool.on("error", () => {});

  await connectOrExplain(
    location,
    () => pool.query("SELECT 1").then(() => undefined),
    () => pool.end(),
  );
  try {
    await ensureSchema({ kind: "postgres", pool });
  } catch (error) {
    await pool.end().catch(() => {});
    if (error instanceof StoreUnavailableError) throw error;
    throw new StoreUnavailableError(`cannot set up the tables at ${location}: ${(error as Error).message}`);
  }
  return pool;
}

/** A namespace's Keyv adapter: namespaces share the store's pool; the store, not an adapter, ends it. */
function sharedPoolAdapter(pool: pg.Pool) {
  return class SharedPoolPostgres extends KeyvPostgres {
    override async connect() {
      return async (sql: string, values?: unknown[]) =>
        // The adapter creates its table as it starts; the table is the schema's (src/store/schema/).
        sql.startsWith("CREATE TABLE IF NOT EXISTS") ? [] : (await pool.query(sql, values)).rows;
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
  };
}
