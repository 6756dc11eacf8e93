import { chmodSync, closeSync, existsSync, mkdirSync, openSync } from "node:fs";
import { dirname, resolve } from "node:path";
import type { RedisClientConnectionType } from "@keyv/redis";
import KeyvSqlite from "@keyv/sqlite";
import Keyv, { type KeyvStoreAdapter } from "keyv";
import type pg from "pg";
import { adapterWithDeadline, DEFAULT_STORE_TIMEOUT_MS, withStoreDeadline } from "./deadline.js";

/** How long a writer waits for SQLite's lock before failing (several processes may share the file). */
const SQLITE_BUSY_TIMEOUT_MS = 5000;
/** One attempt to open a TCP connection to Redis or PostgreSQL. */
export const CONNECT_TIMEOUT_MS = 5000;
/** Start-up gives up after this: a server that accepts the connection but never answers must not hang it. */
const OPEN_DEADLINE_MS = 10_000;
/** How long close() waits for Redis to answer in-flight commands before dropping the connection. */
export const CLOSE_GRACE_MS = 2000;
/** Rows per query when listing a namespace in PostgreSQL. */
export const POSTGRES_PAGE_SIZE = 100;

/** The PostgreSQL table Kassa keeps every namespace in (created when missing). */
export const POSTGRES_TABLE = "kassa";
/** SQL table of claimOnce on SQLite and PostgreSQL: key, and when the claim lapses. */
export const CLAIMS_TABLE = "kassa_claims";
/** Lapsed claims are deleted on about one claim in this many. */
const CLAIMS_SWEEP_EVERY = 200;

/** Runs the lapsed-claims sweep now and then, so the table holds only claims still in force. */
export function sometimes(): boolean {
  return Math.random() * CLAIMS_SWEEP_EVERY < 1;
}

export type StoreKind = "sqlite" | "redis" | "postgres";

/**
 * The engine's own connection, for the few modules that need its atomic primitives (the watcher's
 * claim and "tell once"); everything else goes through Keyv. Never a second connection.
 */
export type NativeClient =
  | { kind: "redis"; client: RedisClientConnectionType }
  | { kind: "postgres"; pool: pg.Pool };

/** The store behind STORE_URL: one Keyv per namespace (credentials, cache, ...) over the same database. */
export type KeyvStore = {
  /**
   * Where the data lives, for logs and the key file: the absolute path for SQLite, the URL without
   * its password for Redis and PostgreSQL.
   */
  readonly location: string;
  readonly kind: StoreKind;
  /** Redis and PostgreSQL: the store's own client (SQLite: none; one process keeps such state in memory). */
  readonly native?: NativeClient;
  /**
   * durability "process": the data must outlive the process, not a power cut (SQLite: commits are
   * not synced to disk one by one, which makes a write much cheaper). Other stores ignore it.
   */
  namespace(name: string, options?: { durability?: "full" | "process" }): Keyv;
  /** Round trip to the database; throws when it does not answer. */
  ping(): Promise<void>;
  /**
   * True for exactly one caller per `key` until `ttlMs` has passed, across every process sharing
   * the store: one atomic statement of the engine (SET NX, INSERT … ON CONFLICT), never a read
   * followed by a write. For work that must happen once: an event Slack delivers again, an OAuth
   * state, a journal entry another replica might also pick up.
   */
  claimOnce(key: string, ttlMs: number): Promise<boolean>;
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

/**
 * Opens STORE_URL. Every call on the result (reads, writes, ping, claimOnce) fails with
 * StoreCallError after `timeoutMs` (STORE_TIMEOUT_MS) instead of waiting on a stalled engine.
 */
export async function openStore(storeUrl: string, options: { timeoutMs?: number } = {}): Promise<KeyvStore> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_STORE_TIMEOUT_MS;
  const store = await openEngine(storeUrl, timeoutMs);
  return {
    ...store,
    ping: () => withStoreDeadline(store.ping(), timeoutMs, "ping"),
    claimOnce: (key, ttlMs) => withStoreDeadline(store.claimOnce(key, ttlMs), timeoutMs, "claimOnce"),
  };
}

async function openEngine(storeUrl: string, timeoutMs: number): Promise<KeyvStore> {
  switch (storeKind(storeUrl)) {
    case "sqlite":
      return openSqlite(storeUrl, timeoutMs);
    case "redis":
      return (await import("./redis.js")).openRedis(storeUrl, timeoutMs);
    case "postgres":
      return (await import("./postgres.js")).openPostgres(storeUrl, timeoutMs);
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
export function keyvFor(
  adapter: KeyvStoreAdapter,
  name: string,
  timeoutMs: number,
  useKeyPrefix = true,
): Keyv {
  const keyv = new Keyv({
    store: adapterWithDeadline(adapter, timeoutMs),
    namespace: name,
    throwOnErrors: true,
    useKeyPrefix,
  });
  keyv.on("error", () => {});
  return keyv;
}

/**
 * The database holds sealed secrets and installations: only its owner may read it. SQLite gives
 * its -wal and -shm files the mode of the database file, so creating that file 0600 before SQLite
 * opens it covers all three; files left by an older version are tightened too.
 */
function ownerOnly(path: string): void {
  closeSync(openSync(path, "a", 0o600));
  for (const file of [path, `${path}-wal`, `${path}-shm`]) {
    if (existsSync(file)) chmodSync(file, 0o600);
  }
}

async function openSqlite(storeUrl: string, timeoutMs: number): Promise<KeyvStore> {
  const path = sqlitePath(storeUrl);
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  ownerOnly(path);
  const adapters: KeyvSqlite[] = [];
  const newAdapter = () => {
    const adapter = new KeyvSqlite({ uri: `sqlite://${path}`, busyTimeout: SQLITE_BUSY_TIMEOUT_MS });
    adapters.push(adapter);
    return adapter;
  };
  const control = newAdapter();
  // WAL lets readers go on while one writer writes; it is a property of the file, set once here.
  await control.query("PRAGMA journal_mode = WAL");
  await control.query(
    `CREATE TABLE IF NOT EXISTS ${CLAIMS_TABLE} (key TEXT PRIMARY KEY, expires INTEGER NOT NULL)`,
  );
  const instances = new Map<string, Keyv>();

  return {
    location: path,
    kind: "sqlite",
    namespace(name, options = {}) {
      let keyv = instances.get(name);
      if (!keyv) {
        // One adapter per namespace: Keyv writes its namespace onto the adapter it is given.
        const adapter = newAdapter();
        // In WAL mode NORMAL still survives the process dying; only a power cut may lose the last commits.
        if (options.durability === "process")
          void adapter.query("PRAGMA synchronous = NORMAL").catch(() => {});
        keyv = keyvFor(adapter, name, timeoutMs);
        instances.set(name, keyv);
      }
      return keyv;
    },
    async ping() {
      await control.query("SELECT 1");
    },
    async claimOnce(key, ttlMs) {
      const now = Date.now();
      if (sometimes()) await control.query(`DELETE FROM ${CLAIMS_TABLE} WHERE expires <= ?`, now);
      // Processes sharing the file each see the row inserted or a lapsed one taken over, never both.
      const rows: unknown[] = await control.query(
        `INSERT INTO ${CLAIMS_TABLE} (key, expires) VALUES (?, ?)
         ON CONFLICT (key) DO UPDATE SET expires = excluded.expires WHERE ${CLAIMS_TABLE}.expires <= ?
         RETURNING key`,
        key,
        now + ttlMs,
        now,
      );
      return rows.length === 1;
    },
    async close() {
      await Promise.allSettled(adapters.map((adapter) => adapter.disconnect()));
    },
  };
}

/**
 * Runs a network store's first round trip under a deadline. Any failure closes what was opened and
 * becomes one line for the operator: "cannot reach the store at <url without password>: <reason>".
 */
export async function connectOrExplain(
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
export async function settlesWithin(promise: Promise<unknown>, ms: number): Promise<"settled" | "timed-out"> {
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
