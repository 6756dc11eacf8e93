import { mkdirSync } from "node:fs";
import { dirname, resolve } from "node:path";
import KeyvSqlite from "@keyv/sqlite";
import Keyv from "keyv";

/** How long a writer waits for SQLite's lock before failing (several processes may share the file). */
const SQLITE_BUSY_TIMEOUT_MS = 5000;

/** The store behind STORE_URL: one Keyv per namespace (credentials, cache, ...) over the same database. */
export type KeyvStore = {
  /** Where the data lives, for logs and the key file (absolute path for SQLite). */
  readonly location: string;
  readonly kind: "sqlite";
  namespace(name: string): Keyv;
  /** Round trip to the database; throws when it does not answer. */
  ping(): Promise<void>;
  close(): Promise<void>;
};

/** Absolute path of the SQLite file named by a sqlite:// URL, relative to the working directory. */
export function sqlitePath(storeUrl: string): string {
  return resolve(storeUrl.replace(/^sqlite:\/\//, ""));
}

export async function openStore(storeUrl: string): Promise<KeyvStore> {
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
        // throwOnErrors: a failing store must surface as an error, not read as empty.
        keyv = new Keyv({ store: newAdapter(), namespace: name, throwOnErrors: true });
        keyv.on("error", () => {});
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
