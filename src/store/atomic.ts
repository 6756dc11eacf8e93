/**
 * Keys that one caller wins, across every process sharing the store: the engine's own atomic
 * primitive (Redis SET NX PX and GETDEL; PostgreSQL INSERT ... ON CONFLICT and DELETE ... RETURNING),
 * never a lock made of a Keyv get and set. SQLite serves one process, so a map in memory does.
 */
export type AtomicKeys = {
  /** True for the first caller to claim `key` until `ttlMs` has passed; false for every other. */
  claim(key: string, ttlMs: number): Promise<boolean>;
  /** Stores a value that `take` can hand out once, within `ttlMs`. */
  put(key: string, value: string, ttlMs: number): Promise<void>;
  /** The value `put` stored, removed in the same step: a second take gets undefined. */
  take(key: string): Promise<string | undefined>;
};

/** SQLite's: one process serves a database file, so claims need not cross processes. */
export function memoryAtomicKeys(now: () => number = Date.now): AtomicKeys {
  const entries = new Map<string, { value: string; expires: number }>();
  const live = (key: string) => {
    const entry = entries.get(key);
    if (entry && entry.expires <= now()) entries.delete(key);
    return entries.get(key);
  };
  const sweep = () => {
    for (const [key, entry] of entries) if (entry.expires <= now()) entries.delete(key);
  };
  return {
    async claim(key, ttlMs) {
      if (entries.size > 10_000) sweep();
      if (live(key)) return false;
      entries.set(key, { value: "", expires: now() + ttlMs });
      return true;
    },
    async put(key, value, ttlMs) {
      if (entries.size > 10_000) sweep();
      entries.set(key, { value, expires: now() + ttlMs });
    },
    async take(key) {
      const entry = live(key);
      entries.delete(key);
      return entry?.value;
    },
  };
}
