import type Keyv from "keyv";
import type { z } from "zod";

/**
 * Disposable data with a time to live, checked with zod when read: a value that no longer matches
 * (an older version of Kassa wrote it, or it was damaged) counts as a miss and is dropped.
 */
export class Cache {
  constructor(private readonly keyv: Keyv) {}

  async get<S extends z.ZodType>(key: string, schema: S): Promise<z.output<S> | undefined> {
    const raw: unknown = await this.keyv.get(key);
    if (raw === undefined) return undefined;
    const parsed = schema.safeParse(raw);
    if (parsed.success) return parsed.data;
    await this.keyv.delete(key);
    return undefined;
  }

  async set(key: string, value: unknown, ttlMs: number): Promise<void> {
    if (ttlMs > 0) await this.keyv.set(key, value, ttlMs);
  }

  async delete(key: string): Promise<void> {
    await this.keyv.delete(key);
  }
}
