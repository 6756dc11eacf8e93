import type { NativeClient } from "../connection.js";
import { DEFAULT_PREFIX } from "./names.js";
import { applyPostgresSchema } from "./postgres.js";
import { applyRedisSchema } from "./redis.js";
import { applySqliteSchema } from "./sqlite.js";

export { SchemaTooNewError, SchemaTooOldError } from "./version.js";

/** The connection itself, which the versions applied are kept by. */
function connectionOf(native: NativeClient): object {
  if (native.kind === "redis") return native.client;
  if (native.kind === "postgres") return native.pool;
  return native.db;
}

/** Versions already applied, per store connection and prefix: a module opening again asks nothing. */
const applied = new WeakMap<object, Map<string, Promise<number>>>();

/**
 * The store's schema under `prefix`, brought to this release's last step once per connection.
 * openStore applies the default prefix's; a module given another prefix (a test run's own tables)
 * calls this before using its tables. Throws SchemaTooNewError for a store a newer release upgraded,
 * SchemaTooOldError for one older than this release upgrades.
 */
export function ensureSchema(native: NativeClient, prefix = DEFAULT_PREFIX): Promise<number> {
  // Not one conditional expression: reducing the union of the three clients' types cost tsc 10 s.
  const handle = connectionOf(native);
  let known = applied.get(handle);
  if (!known) {
    known = new Map();
    applied.set(handle, known);
  }
  let version = known.get(prefix);
  if (!version) {
    version = applyTo(native, prefix);
    known.set(prefix, version);
    // A failure is not kept: the next caller tries again.
    version.catch(() => known.delete(prefix));
  }
  return version;
}

async function applyTo(native: NativeClient, prefix: string): Promise<number> {
  switch (native.kind) {
    case "sqlite":
      return applySqliteSchema(native.db, prefix);
    case "postgres":
      return applyPostgresSchema(native.pool, prefix);
    case "redis":
      return applyRedisSchema(native.client, prefix);
  }
}
