import { mkdirSync } from "node:fs";
import { dirname, resolve } from "node:path";
import KeyvPostgres from "@keyv/postgres";
import KeyvRedis, { createClient, type RedisClientConnectionType } from "@keyv/redis";
import KeyvSqlite from "@keyv/sqlite";
import Keyv, { type KeyvStoreAdapter } from "keyv";
import pg from "pg";
import { z } from "zod";

/** How long a writer waits for SQLite's lock before failing (several processes may share the file). */
const SQLITE_BUSY_TIMEOUT_MS = 5000;
/** One attempt to open a TCP connection to Redis or PostgreSQL. */
const CONNECT_TIMEOUT_MS = 5000;
/** Start-up gives up after this: a server that accepts the connection but never answers must not hang it. */
const OPEN_DEADLINE_MS = 10_000;
/** How long close() waits for Redis to answer in-flight commands before dropping the connection. */
const CLOSE_GRACE_MS = 2000;
/** Rows per query when listing a namespace in PostgreSQL. */
const POSTGRES_PAGE_SIZE = 100;

/** The PostgreSQL table Kassa keeps every namespace in (created when missing). */
export const POSTGRES_TABLE = "kassa";

export type StoreKind = "sqlite" | "redis" | "postgres";

/** The store behind STORE_URL: one Keyv per namespace (credentials, cache, ...) over the same database. */
export type KeyvStore = {
  /**
   * Where the data lives, for logs and the key file: the absolute path for SQLite, the URL without
   * its password for Redis and PostgreSQL.
   */
  readonly location: string;
  readonly kind: StoreKind;
  namespace(name: string): Keyv;
  /** Round trip to the database; throws when it does not answer. */
  ping(): Promise<void>;
  close(): Promise<void>;
};

/** The store cannot be reached or used at start-up; the message is one line, without the password. */
export class StoreUnavailableError extends Error {
  override readonly name = "StoreUnavailableError";
}

/** Which backend a STORE_URL names, from its scheme. */
export function storeKind(storeUrl: string): StoreKind | undefined {
  const scheme = /^([a-z]+):\/\//.exec(storeUrl)?.[1];
  if (scheme === "sqlite") return "sqlite";
  if (scheme === "redis" || scheme === "rediss") return "redis";
  if (scheme === "postgres" || scheme === "postgresql") return "postgres";
  return undefined;
}

/** Absolute path of the SQLite file named by a sqlite:// URL, relative to the working directory. */
export function sqlitePath(storeUrl: string): string {
  return resolve(storeUrl.replace(/^sqlite:\/\//, ""));
}

/** A network store's URL as it may be logged: no password, in the user part or in the query. */
export function redactedUrl(storeUrl: string): string {
  let url: URL;
  try {
    url = new URL(storeUrl);
  } catch {
    // Not echoed: an unparsable URL may still hold a password.
    throw new StoreUnavailableError("STORE_URL is not a valid URL");
  }
  url.password = "";
  for (const name of [...url.searchParams.keys()]) {
    if (/pass/i.test(name)) url.searchParams.delete(name);
  }
  return url.toString();
}

export async function openStore(storeUrl: string): Promise<KeyvStore> {
  switch (storeKind(storeUrl)) {
    case "sqlite":
      return openSqlite(storeUrl);
    case "redis":
      return openRedis(storeUrl);
    case "postgres":
      return openPostgres(storeUrl);
    default:
      // Only the scheme is named: the rest may hold a password.
      throw new StoreUnavailableError(
        `STORE_URL scheme ${JSON.stringify(/^[^:]*/.exec(storeUrl)?.[0] ?? "")} is not supported (sqlite, redis, rediss, postgres, postgresql)`,
      );
  }
}

/**
 * One Keyv per namespace. throwOnErrors: a failing store must surface as an error, never read as
 * empty. The "error" events are dropped because the same failures reach the callers as rejections;
 * without a listener, an emitted "error" would crash the process.
 */
function keyvFor(adapter: KeyvStoreAdapter, name: string, useKeyPrefix = true): Keyv {
  const keyv = new Keyv({ store: adapter, namespace: name, throwOnErrors: true, useKeyPrefix });
  keyv.on("error", () => {});
  return keyv;
}

async function openSqlite(storeUrl: string): Promise<KeyvStore> {
  const path = sqlitePath(storeUrl);
  mkdirSync(dirname(path), { recursive: true });
  const adapters: KeyvSqlite[] = [];
  const newAdapter = () => {
    const adapter = new KeyvSqlite({ uri: `sqlite://${path}`, busyTimeout: SQLITE_BUSY_TIMEOUT_MS });
    adapters.push(adapter);
    return adapter;
  };
  const control = newAdapter();
  // WAL lets readers go on while one writer writes; it is a property of the file, set once here.
  await control.query("PRAGMA journal_mode = WAL");
  const instances = new Map<string, Keyv>();

  return {
    location: path,
    kind: "sqlite",
    namespace(name) {
      let keyv = instances.get(name);
      if (!keyv) {
        // One adapter per namespace: Keyv writes its namespace onto the adapter it is given.
        keyv = keyvFor(newAdapter(), name);
        instances.set(name, keyv);
      }
      return keyv;
    },
    async ping() {
      await control.query("SELECT 1");
    },
    async close() {
      await Promise.allSettled(adapters.map((adapter) => adapter.disconnect()));
    },
  };
}

async function openRedis(storeUrl: string): Promise<KeyvStore> {
  const location = redactedUrl(storeUrl);
  let connected = false;
  const client = createClient({
    url: storeUrl,
    // While the connection is down, commands fail at once instead of waiting in a queue: a Slack
    // handler has 3 seconds, and an error reply beats no reply.
    disableOfflineQueue: true,
    socket: {
      connectTimeout: CONNECT_TIMEOUT_MS,
      // At start-up, give up at the first failure (one clear error); once connected, reconnect
      // with backoff so a replica survives a Redis restart.
      reconnectStrategy: (retries) => (connected ? Math.min(100 * 2 ** retries, 2000) : false),
    },
  });
  // node-redis emits "error" on every failed reconnect; unheard, that would crash the process.
  // Commands reject meanwhile, so the callers still see the failure.
  client.on("error", () => {});
  // Each namespace's adapter subscribes to the shared client's events.
  client.setMaxListeners(0);

  await connectOrExplain(
    location,
    async () => {
      await client.connect();
      await client.ping();
    },
    async () => {
      if (client.isOpen) client.destroy();
    },
  );
  connected = true;

  /** Namespaces share the one connection; the store, not an adapter, opens and closes it. */
  class SharedClientRedis extends KeyvRedis<unknown> {
    // Upstream reconnects a client that is not open on every call; after close() that would
    // quietly open a new connection, so the adapter always uses the store's client as it is.
    override async getClient(): Promise<RedisClientConnectionType> {
      return client;
    }
  }

  const instances = new Map<string, Keyv>();
  let closed = false;
  return {
    location,
    kind: "redis",
    namespace(name) {
      let keyv = instances.get(name);
      if (!keyv) {
        // The adapter prefixes keys with "<namespace>::" itself (and lists a namespace by that
        // prefix), so Keyv must not add its own "<namespace>:" as well.
        const adapter = new SharedClientRedis(client, { throwOnErrors: true, throwOnConnectError: true });
        keyv = keyvFor(adapter, name, false);
        instances.set(name, keyv);
      }
      return keyv;
    },
    async ping() {
      await client.ping();
    },
    async close() {
      if (closed) return;
      closed = true;
      if (!client.isOpen) return;
      const closing = client.close();
      if ((await settlesWithin(closing, CLOSE_GRACE_MS)) !== "settled" && client.isOpen) client.destroy();
    },
  };
}

/** What PostgreSQL rows look like to the namespace listing. */
const postgresRowsSchema = z.array(z.object({ key: z.string(), value: z.string() }));

async function openPostgres(storeUrl: string): Promise<KeyvStore> {
  const location = redactedUrl(storeUrl);
  // A pool of our own: @keyv/postgres keeps one pool per process, and disconnecting any adapter
  // ends it for all of them (and for a second store on the same URL).
  const pool = new pg.Pool({ connectionString: storeUrl, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
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
        keyv = keyvFor(new SharedPoolPostgres({ uri: storeUrl, table: POSTGRES_TABLE }), name);
        instances.set(name, keyv);
      }
      return keyv;
    },
    async ping() {
      await pool.query("SELECT 1");
    },
    async close() {
      if (closed) return;
      closed = true;
      await pool.end();
    },
  };
}

/**
 * Runs a network store's first round trip under a deadline. Any failure closes what was opened and
 * becomes one line for the operator: "cannot reach the store at <url without password>: <reason>".
 */
async function connectOrExplain(
  location: string,
  connect: () => Promise<void>,
  abandon: () => Promise<void>,
): Promise<void> {
  const attempt = connect();
  let outcome: Awaited<ReturnType<typeof settlesWithin>>;
  try {
    outcome = await settlesWithin(attempt, OPEN_DEADLINE_MS);
  } catch (error) {
    await abandon().catch(() => {});
    throw new StoreUnavailableError(`cannot reach the store at ${location}: ${reason(error)}`);
  }
  if (outcome === "settled") return;
  // The abandoned attempt fails once its connection is closed; that is expected now.
  attempt.catch(() => {});
  await abandon().catch(() => {});
  throw new StoreUnavailableError(
    `cannot reach the store at ${location}: no answer within ${OPEN_DEADLINE_MS / 1000} s`,
  );
}

/** "settled" when the promise resolves in time, "timed-out" otherwise; rejects when it rejects in time. */
async function settlesWithin(promise: Promise<unknown>, ms: number): Promise<"settled" | "timed-out"> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<"timed-out">((resolveDeadline) => {
    timer = setTimeout(() => resolveDeadline("timed-out"), ms);
  });
  try {
    return await Promise.race([promise.then(() => "settled" as const), deadline]);
  } finally {
    clearTimeout(timer);
  }
}

/** A short, password-free reason: the system error code (ECONNREFUSED, ENOTFOUND) or the first line. */
function reason(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const code = (error as NodeJS.ErrnoException).code;
  if (typeof code === "string" && /^E[A-Z]+$/.test(code)) return code;
  // Several addresses tried (AggregateError): the first one's error says what happened.
  if (error instanceof AggregateError && error.errors[0] instanceof Error) return reason(error.errors[0]);
  return error.message.split("\n")[0] || error.name;
}
