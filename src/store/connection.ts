import type { RedisClientType } from "@keyv/redis";
import type Database from "better-sqlite3";
import Keyv, { type KeyvStoreAdapter } from "keyv";
import type pg from "pg";
import { adapterWithDeadline } from "./deadline.js";

// What the SQLite, Redis and PostgreSQL openers share. keyv.ts picks one by STORE_URL and loads the
// network ones on demand; they import this module, never keyv.ts, so the store has no import circle.

/**
 * The store's Redis connection: one client, never a cluster. Narrower than @keyv/redis's union of
 * client, cluster and sentinel types, which cost tsc some 10 s wherever it was reduced.
 */
// biome-ignore lint/complexity/noBannedTypes: what createClient() without modules, functions or scripts gives
export type RedisConnection = RedisClientType<{}, {}, {}, 2, {}>;

/** One attempt to open a TCP connection to Redis or PostgreSQL. */
export const CONNECT_TIMEOUT_MS = 5000;
/** Start-up gives up after this: a server that accepts the connection but never answers must not hang it. */
const OPEN_DEADLINE_MS = 10_000;
/** How long close() waits for Redis to answer in-flight commands before dropping the connection. */
export const CLOSE_GRACE_MS = 2000;
/** Rows per query when listing a namespace in PostgreSQL. */
export const POSTGRES_PAGE_SIZE = 100;

/** Lapsed rows (once-only claims, rate counts) are deleted on about one call in this many. */
const CLAIMS_SWEEP_EVERY = 200;

/** Runs a sweep of lapsed rows now and then, so a table holds only what is still in force. */
export function sometimes(): boolean {
  return Math.random() * CLAIMS_SWEEP_EVERY < 1;
}

export type StoreKind = "sqlite" | "redis" | "postgres";

/** The store behind STORE_URL: one Keyv per namespace (credentials, cache, ...) over the same database. */
/**
 * The engine's own connection, for the few modules that need its atomic primitives (the watcher's
 * claim and "tell once", the feed's turns); everything else goes through Keyv. Never a second
 * connection (SQLite: the store's control connection, which claimOnce uses too).
 */
export type NativeClient =
  | { kind: "redis"; client: RedisConnection }
  | { kind: "postgres"; pool: pg.Pool }
  | { kind: "sqlite"; db: Database.Database };

export type KeyvStore = {
  /**
   * Where the data lives, for logs and the key file: the absolute path for SQLite, the URL without
   * its password for Redis and PostgreSQL.
   */
  readonly location: string;
  readonly kind: StoreKind;
  /** The store's own client: Redis, PostgreSQL, or SQLite's control connection. */
  readonly native?: NativeClient;
  /**
   * durability "process": the data must outlive the process, not a power cut (SQLite: commits are
   * not synced to disk one by one, which makes a write much cheaper). pageCacheKib: SQLite's page
   * cache of the namespace's connection (16 MiB unless given), for data read once in a long
   * sequence. Other stores ignore both.
   */
  namespace(name: string, options?: { durability?: "full" | "process"; pageCacheKib?: number }): Keyv;
  /** Round trip to the database; throws when it does not answer. */
  ping(): Promise<void>;
  /**
   * True for exactly one caller per `key` until `ttlMs` has passed, across every process sharing
   * the store: one atomic statement of the engine (SET NX, INSERT … ON CONFLICT), never a read
   * followed by a write. For work that must happen once: an event Slack delivers again, an OAuth
   * state, a journal entry another replica might also pick up. With `owner` (a token the caller
   * wrote down before claiming) it is also true for that same owner again while its claim holds: a
   * process that died right after claiming takes its own claim up again instead of losing the work.
   */
  claimOnce(key: string, ttlMs: number, owner?: string): Promise<boolean>;
  close(): Promise<void>;
};

/** The store cannot be reached or used at start-up; the message is one line, without the password. */
export class StoreUnavailableError extends Error {
  override readonly name = "StoreUnavailableError";
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
