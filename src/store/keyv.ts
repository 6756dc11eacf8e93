import { chmodSync, closeSync, existsSync, mkdirSync, openSync } from "node:fs";
import { dirname, resolve } from "node:path";
import KeyvSqlite from "@keyv/sqlite";
import Keyv, { type KeyvStoreAdapter } from "keyv";
import { type AtomicKeys, memoryAtomicKeys } from "./atomic.js";

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

/** Default STORE_TIMEOUT_MS: one store call that takes longer fails, so a stalled store costs a reply no more. */
export const STORE_TIMEOUT_MS = 1500;
/** /readyz must answer within 2 s: its ping gives up sooner than that. */
export const PING_TIMEOUT_MS = 1500;

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
  /**
   * durability "process": the data must outlive the process, not a power cut (SQLite: commits are
   * not synced to disk one by one, which makes a write much cheaper). Other stores ignore it.
   */
  namespace(name: string, options?: { durability?: "full" | "process" }): Keyv;
  /** Keys only one caller wins, shared by every replica on this store (see atomic.ts). */
  atomic(name: string): AtomicKeys;
  /** Round trip to the database; throws when it does not answer. */
  ping(): Promise<void>;
  close(): Promise<void>;
};

/** The store cannot be reached or used at start-up; the message is one line, without the password. */
export class StoreUnavailableError extends Error {
  override readonly name = "StoreUnavailableError";
}

/**
 * A store call failed or did not answer within STORE_TIMEOUT_MS while serving: the user is told the
 * storage is not answering, not that something went wrong.
 */
export class StoreCallError extends Error {
  override readonly name = "StoreCallError";
  constructor(
    message: string,
    readonly timedOut: boolean,
    options?: { cause: unknown },
  ) {
    super(message, options);
  }
}

/** The promise's outcome, or a StoreCallError once `ms` has passed; the engine's own errors wrapped too. */
export async function withinStoreTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(
      () => reject(new StoreCallError(`the store did not answer ${what} within ${ms} ms`, true)),
      ms,
    );
  });
  try {
    return await Promise.race([promise, deadline]);
  } catch (error) {
    if (error instanceof StoreCallError) {
      // The abandoned call may still fail later; that is expected now.
      promise.catch(() => {});
      throw error;
    }
    throw new StoreCallError(`the store failed ${what}: ${reason(error)}`, false, { cause: error });
  } finally {
    clearTimeout(timer);
  }
}

/** Keyv's calls that go to the engine; each gets the store's time-out. */
const KEYV_CALLS = new Set([
  "get",
  "getMany",
  "getRaw",
  "getManyRaw",
  "set",
  "setMany",
  "delete",
  "deleteMany",
  "clear",
  "has",
  "hasMany",
]);

/** The same Keyv, with every call to the engine under `timeoutMs`. */
export function withStoreTimeouts(keyv: Keyv, timeoutMs: number): Keyv {
  return new Proxy(keyv, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof property !== "string" || !KEYV_CALLS.has(property) || typeof value !== "function")
        return value;
      return (...args: unknown[]) =>
        withinStoreTimeout(
          Promise.resolve((value as (...a: unknown[]) => unknown).apply(target, args)),
          timeoutMs,
          `(${property} in ${target.namespace ?? "?"})`,
        );
    },
  });
}

/** The same atomic keys, every call under `timeoutMs`. */
export function atomicWithTimeouts(keys: AtomicKeys, timeoutMs: number, name: string): AtomicKeys {
  return {
    claim: (key, ttlMs) => withinStoreTimeout(keys.claim(key, ttlMs), timeoutMs, `(claim in ${name})`),
    put: (key, value, ttlMs) =>
      withinStoreTimeout(keys.put(key, value, ttlMs), timeoutMs, `(put in ${name})`),
    take: (key) => withinStoreTimeout(keys.take(key), timeoutMs, `(take in ${name})`),
  };
}

export type StoreOptions = {
  /** STORE_TIMEOUT_MS: longest wait for one store call while serving. */
  timeoutMs?: number;
};

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

export async function openStore(storeUrl: string, options: StoreOptions = {}): Promise<KeyvStore> {
  const timeoutMs = options.timeoutMs ?? STORE_TIMEOUT_MS;
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
  const keyv = new Keyv({ store: adapter, namespace: name, throwOnErrors: true, useKeyPrefix });
  keyv.on("error", () => {});
  return withStoreTimeouts(keyv, timeoutMs);
}

/** One AtomicKeys per name, made once and put under the store's time-out. */
export function atomicNamespaces(
  make: (name: string) => AtomicKeys,
  timeoutMs: number,
): (name: string) => AtomicKeys {
  const made = new Map<string, AtomicKeys>();
  return (name) => {
    let keys = made.get(name);
    if (!keys) {
      keys = atomicWithTimeouts(make(name), timeoutMs, name);
      made.set(name, keys);
    }
    return keys;
  };
}

async function openSqlite(storeUrl: string, timeoutMs: number): Promise<KeyvStore> {
  const path = sqlitePath(storeUrl);
  mkdirSync(dirname(path), { recursive: true });
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
  const instances = new Map<string, Keyv>();

  return {
    location: path,
    kind: "sqlite",
    namespace(name, options = {}) {
      let keyv = instances.get(name);
      if (!keyv) {
        // One adapter per namespace: Keyv writes its namespace onto the adapter it is given.
        const adapter = newAdapter();
        // In WAL mode, NORMAL still survives the process dying; only a power cut may lose the last commits.
        if (options.durability === "process")
          void adapter.query("PRAGMA synchronous = NORMAL").catch(() => {});
        keyv = keyvFor(adapter, name, timeoutMs);
        instances.set(name, keyv);
      }
      return keyv;
    },
    atomic: atomicNamespaces(() => memoryAtomicKeys(), timeoutMs),
    async ping() {
      await withinStoreTimeout(control.query("SELECT 1"), Math.min(timeoutMs, PING_TIMEOUT_MS), "(ping)");
    },
    async close() {
      await Promise.allSettled(adapters.map((adapter) => adapter.disconnect()));
    },
  };
}

/**
 * The database holds sealed secrets and who connected what: readable by its owner only. The file is
 * created here, empty and 0600, before SQLite opens it; SQLite gives its -wal and -shm files the
 * database file's mode. Files left by an older version are tightened too.
 */
function ownerOnly(path: string): void {
  closeSync(openSync(path, "a", 0o600));
  for (const file of [path, `${path}-wal`, `${path}-shm`]) {
    if (existsSync(file)) chmodSync(file, 0o600);
  }
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
