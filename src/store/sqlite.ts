import { EventEmitter } from "node:events";
import Database from "better-sqlite3";
import type { KeyvStoreAdapter, StoredData } from "keyv";
import { KEYV_TABLE } from "./schema/names.js";

// Kassa's own Keyv adapter for SQLite, on better-sqlite3 (prebuilt binaries inside the package: nothing
// to compile at install). Why not @keyv/sqlite: version 4 sits on the archived `sqlite3` package, which
// compiles SQLite from source wherever its binary cannot be downloaded; its next major is still a beta.
// The table is the one @keyv/sqlite 4 made (`keyv`, key VARCHAR(255) PRIMARY KEY, value TEXT), keys
// prefixed "namespace:" by Keyv, so a database written by the old driver opens with its data.

/** Rows per query when listing a namespace (keyset pagination: no statement stays open across awaits). */
const PAGE_SIZE = 100;

/** One connection to the database file, with the lock wait and journal settings Kassa relies on. */
export function openSqliteDatabase(path: string, busyTimeoutMs: number): Database.Database {
  // `timeout` is SQLite's busy timeout: how long a writer waits for another process's lock.
  const db = new Database(path, { timeout: busyTimeoutMs });
  db.pragma("journal_mode = WAL");
  // Every statement runs on the event loop: with SQLite's default (FULL) each commit waits for an
  // fsync (about 0.15 ms here, milliseconds on a busy disk), and a command commits several times.
  // NORMAL in WAL mode syncs at checkpoints only: a commit survives Kassa's process dying (kill -9,
  // a crash); only a power loss of the host may roll back the last moments' commits, never corrupt
  // the file. The SQLite documentation recommends this pair for WAL.
  db.pragma("synchronous = NORMAL");
  // Its table is the schema's (src/store/schema/sqlite.ts), applied when the store opens.
  return db;
}

type Row = { key: string; value: string };

/**
 * A Keyv store adapter over one better-sqlite3 connection. Calls are synchronous underneath (SQLite
 * in this process, no thread hop); each is one short statement, wrapped as a promise for Keyv.
 */
export class SqliteKeyvAdapter extends EventEmitter implements KeyvStoreAdapter {
  /** Keyv reads `dialect` to know that this store can list its keys. */
  readonly opts: { dialect: "sqlite"; url: string };
  namespace?: string | undefined;
  private readonly statements: {
    get: Database.Statement<[string], Row>;
    getMany: Database.Statement<[string], Row>;
    set: Database.Statement<[string, string]>;
    delete: Database.Statement<[string]>;
    deleteMany: Database.Statement<[string]>;
    clear: Database.Statement<[number, string]>;
    page: Database.Statement<[number, string, string, number], Row>;
  };

  constructor(readonly db: Database.Database) {
    super();
    this.opts = { dialect: "sqlite", url: `sqlite://${db.name}` };
    const table = KEYV_TABLE;
    this.statements = {
      get: db.prepare(`SELECT key, value FROM ${table} WHERE key = ?`),
      getMany: db.prepare(`SELECT key, value FROM ${table} WHERE key IN (SELECT value FROM json_each(?))`),
      set: db.prepare(
        `INSERT INTO ${table} (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value`,
      ),
      delete: db.prepare(`DELETE FROM ${table} WHERE key = ?`),
      deleteMany: db.prepare(`DELETE FROM ${table} WHERE key IN (SELECT value FROM json_each(?))`),
      // A prefix compare, not LIKE: "_" and "%" in a namespace are not wildcards here.
      clear: db.prepare(`DELETE FROM ${table} WHERE substr(key, 1, ?) = ?`),
      page: db.prepare(
        `SELECT key, value FROM ${table} WHERE substr(key, 1, ?) = ? AND key > ? ORDER BY key LIMIT ?`,
      ),
    };
  }

  async get<Value>(key: string): Promise<StoredData<Value> | undefined> {
    return this.statements.get.get(key)?.value as StoredData<Value> | undefined;
  }

  async getMany<Value>(keys: string[]): Promise<Array<StoredData<Value | undefined>>> {
    const found = new Map(
      this.statements.getMany.all(JSON.stringify(keys)).map((row) => [row.key, row.value]),
    );
    return keys.map((key) => found.get(key) as StoredData<Value | undefined>);
  }

  /** Keyv keeps the expiry inside the serialized value, so `ttl` needs nothing here. */
  async set(key: string, value: string): Promise<void> {
    this.statements.set.run(key, value);
  }

  async delete(key: string): Promise<boolean> {
    return this.statements.delete.run(key).changes > 0;
  }

  async deleteMany(keys: string[]): Promise<boolean> {
    return this.statements.deleteMany.run(JSON.stringify(keys)).changes > 0;
  }

  async has(key: string): Promise<boolean> {
    return this.statements.get.get(key) !== undefined;
  }

  async clear(): Promise<void> {
    const prefix = this.namespace ? `${this.namespace}:` : "";
    this.statements.clear.run(prefix.length, prefix);
  }

  async *iterator(namespace?: string): AsyncGenerator<[string, string], void> {
    const prefix = namespace ? `${namespace}:` : "";
    let after = "";
    for (;;) {
      const rows = this.statements.page.all(prefix.length, prefix, after, PAGE_SIZE);
      for (const row of rows) yield [row.key, row.value];
      const last = rows.at(-1);
      if (!last || rows.length < PAGE_SIZE) return;
      after = last.key;
    }
  }

  async disconnect(): Promise<void> {
    if (this.db.open) this.db.close();
  }
}
