/**
 * A few seconds of memory in front of the store for values read on every command (credentials,
 * settings, the method list). Writes through this process clear their entry at once; a change made
 * by another replica or the CLI is seen once the entry expires.
 */
export class Memo<T> {
  private readonly entries = new Map<string, { value: T; until: number }>();

  constructor(
    private readonly ttlMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** The remembered value, or `missing` when there is none or it expired. */
  get<M>(key: string, missing: M): T | M {
    const entry = this.entries.get(key);
    if (!entry) return missing;
    if (entry.until <= this.now()) {
      this.entries.delete(key);
      return missing;
    }
    return entry.value;
  }

  set(key: string, value: T, ttlMs = this.ttlMs): void {
    if (ttlMs <= 0) return;
    // Bounded: expired entries are dropped when the map grows (one entry per workspace in use).
    if (this.entries.size >= 10_000) {
      const at = this.now();
      for (const [entryKey, entry] of this.entries) if (entry.until <= at) this.entries.delete(entryKey);
      if (this.entries.size >= 10_000) this.entries.clear();
    }
    this.entries.set(key, { value, until: this.now() + ttlMs });
  }

  delete(key: string): void {
    this.entries.delete(key);
  }
}
