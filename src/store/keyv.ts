import { mkdirSync } from "node:fs";
import { dirname, resolve } from "node:path";
import type { RedisClientConnectionType } from "@keyv/redis";
import KeyvSqlite from "@keyv/sqlite";
import Keyv, { type KeyvStoreAdapter } from "keyv";
import type pg from "pg";

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
  namespace(name: string): Keyv;
  /** Redis and PostgreSQL: the store's own client (SQLite: none; one process keeps such state in memory). */
  readonly native?: NativeClient;
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
      return (await import("./redis.js")).openRedis(storeUrl);
    case "postgres":
      return (await import("./postgres.js")).openPostgres(storeUrl);
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
export function keyvFor(adapter: KeyvStoreAdapter, name: string, useKeyPrefix = true): Keyv {
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
