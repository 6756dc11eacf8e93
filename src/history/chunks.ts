import type Keyv from "keyv";
import { dayChunkSchema, dayKey, type KeptEntry, type Manifest, mayChange } from "./model.js";

/** The kept invoices of one register, a chunk per UTC day, in the store. */
export const chunkKey = (team: string, day: string) => `${team}:${day}`;

/**
 * The days a refresh is writing: loaded on first touch, changed in memory, written (with their
 * line in the manifest) when the read has moved past them, then dropped, so a month's read holds a
 * day or two at a time. Every write first asks `guard` (the lease still ours?); a false stops it.
 */
export class DayChunks {
  private readonly loaded = new Map<string, Map<string, KeptEntry>>();
  private readonly dirty = new Set<string>();

  constructor(
    private readonly keyv: Keyv,
    private readonly team: string,
    private readonly manifest: Manifest,
    private readonly guard: () => Promise<void>,
  ) {}

  /** Keeps an invoice (the newer read wins); true when it was not kept before. */
  async upsert(entry: KeptEntry): Promise<boolean> {
    const day = dayKey(entry.e);
    const chunk = await this.load(day);
    const added = !chunk.has(entry.i);
    chunk.set(entry.i, entry);
    this.dirty.add(day);
    return added;
  }

  /** Writes and drops the days after `day` (the read has moved older); all of them without one. */
  async flush(day?: string): Promise<void> {
    const nowSeconds = Math.floor(Date.now() / 1000);
    for (const [key, chunk] of [...this.loaded]) {
      if (day !== undefined && key <= day) continue;
      if (this.dirty.has(key)) {
        await this.guard();
        const entries = [...chunk.values()];
        await this.keyv.set(chunkKey(this.team, key), entries);
        let open: number | null = null;
        for (const entry of entries)
          if (mayChange(entry, nowSeconds) && (open === null || entry.e < open)) open = entry.e;
        this.manifest.days[key] = { count: entries.length, open };
        this.dirty.delete(key);
      }
      this.loaded.delete(key);
    }
  }

  /** A stored day's invoices; a chunk the schema refuses is an error (the caller starts afresh). */
  async read(day: string): Promise<KeptEntry[]> {
    const raw: unknown = await this.keyv.get(chunkKey(this.team, day));
    if (raw === undefined) return [];
    const parsed = dayChunkSchema.safeParse(raw);
    if (!parsed.success) throw new UnreadableRecordError(`day ${day} of ${this.team}'s kept history`);
    return parsed.data;
  }

  /** Deletes days before `day` (kept no longer); how many invoices went. */
  async dropBefore(day: string): Promise<number> {
    let dropped = 0;
    for (const [key, line] of Object.entries(this.manifest.days)) {
      if (key >= day) continue;
      await this.guard();
      await this.keyv.delete(chunkKey(this.team, key));
      dropped += line.count;
      delete this.manifest.days[key];
    }
    return dropped;
  }

  private async load(day: string): Promise<Map<string, KeptEntry>> {
    let chunk = this.loaded.get(day);
    if (!chunk) {
      chunk = new Map((await this.read(day)).map((entry) => [entry.i, entry]));
      this.loaded.set(day, chunk);
    }
    return chunk;
  }
}

export class UnreadableRecordError extends Error {
  override readonly name = "UnreadableRecordError";
}
