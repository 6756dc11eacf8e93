import { chmodSync, closeSync, existsSync, mkdirSync, openSync } from "node:fs";
import { dirname, resolve } from "node:path";
import type Keyv from "keyv";
import { claimOnceOn } from "./claims/once.js";
import { sqliteClaimBoard } from "./claims/sqlite.js";
import { type KeyvStore, keyvFor, type StoreKind, StoreUnavailableError } from "./connection.js";
import { DEFAULT_STORE_TIMEOUT_MS, withStoreDeadline } from "./deadline.js";
import { ensureSchema } from "./schema/index.js";
import { claimTables, DEFAULT_PREFIX } from "./schema/names.js";
import { openSqliteDatabase, SqliteKeyvAdapter } from "./sqlite.js";

export type { KeyvStore, NativeClient, StoreKind } from "./connection.js";
export { StoreUnavailableError } from "./connection.js";

/** How long a writer waits for SQLite's lock before failing (several processes may share the file). */
const SQLITE_BUSY_TIMEOUT_MS = 5000;

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
    claimOnce: (key, ttlMs, owner) =>
      withStoreDeadline(store.claimOnce(key, ttlMs, owner), timeoutMs, "claimOnce"),
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
  let control: ReturnType<typeof openSqliteDatabase> | undefined;
  try {
    // WAL (set in openSqliteDatabase) lets readers go on while one writer writes; it is a property of the file.
    control = openSqliteDatabase(path, SQLITE_BUSY_TIMEOUT_MS);
    await ensureSchema({ kind: "sqlite", db: control });
  } catch (error) {
    control?.close();
    if (error instanceof StoreUnavailableError) throw error;
    throw new StoreUnavailableError(
      `cannot open the SQLite database at ${path}: ${(error as Error).message}`,
    );
  }
  const connections = [control];
  // Processes sharing the file each see the claim taken or refused, never both (one statement).
  const claimOnce = claimOnceOn(sqliteClaimBoard(control, claimTables(DEFAULT_PREFIX)));
  const instances = new Map<string, Keyv>();

  return {
    location: path,
    kind: "sqlite",
    native: { kind: "sqlite", db: control },
    namespace(name, options = {}) {
      let keyv = instances.get(name);
      if (!keyv) {
        // One connection per namespace: Keyv writes its namespace onto the adapter it is given, and
        // the durability below is a setting of the connection.
        const db = openSqliteDatabase(path, SQLITE_BUSY_TIMEOUT_MS);
        connections.push(db);
        // In WAL mode NORMAL still survives the process dying; only a power cut may lose the last commits.
        if (options.durability === "process") db.pragma("synchronous = NORMAL");
        if (options.pageCacheKib) db.pragma(`cache_size = -${Math.round(options.pageCacheKib)}`);
        keyv = keyvFor(new SqliteKeyvAdapter(db), name, timeoutMs);
        instances.set(name, keyv);
      }
      return keyv;
    },
    async ping() {
      control.prepare("SELECT 1").get();
    },
    claimOnce,
    async close() {
      for (const db of connections) if (db.open) db.close();
    },
  };
}
