import { randomBytes } from "node:crypto";
import type Keyv from "keyv";
import type { HistoryEntry, HistoryPage } from "../payments/history.js";
import type { Leases } from "../store/leases.js";
import type { Logger } from "../util/logger.js";
import { chunkKey, DayChunks, UnreadableRecordError } from "./chunks.js";
import { dayKey, emptyManifest, type KeptEntry, type Manifest, manifestSchema, unkeep } from "./model.js";
import { type ReadProgress, readPages } from "./pages.js";

/** A refresh within this long is fresh enough: a second report a moment later reads nothing. */
export const FRESH_MS = 30_000;
/** Kept for this long after an invoice was created; older days are dropped at the next refresh. */
export const KEEP_DAYS = 400;
const LEASE_MS = 30_000;
/** How long a read waits for another replica's refresh of the same register before giving up. */
const WAIT_FOR_OTHERS_MS = 10 * 60_000;

export type KeptHistoryDeps = {
  keyv: Keyv;
  leases: Leases;
  /** One page of the register's history, as a background read. */
  page: (team: string, page: number, items: number) => Promise<HistoryPage>;
  /** Whose history the workspace reads now (a record of another login or version is started afresh). */
  register: (team: string) => Promise<{ login: string; apiVersion: "v2" | "v3" }>;
  zone: string;
  logger: Logger;
  /** FRESH_MS unless given (tests). */
  freshMs?: number;
  /** The refresh's lease, LEASE_MS unless given (tests shorten it to see a dead replica's lapse). */
  leaseMs?: number | undefined;
};

export type KeptRead = ReadProgress & {
  unreadable: number;
  /** The record could not be brought back to `since` within `maxPages`. */
  partial: boolean;
  /** Kept days (UTC, `YYYY-MM-DD`) that could not be read even afresh: their invoices are not in. */
  daysLeftOut: string[];
};

export type ReadOptions = {
  maxPages: number;
  /** A refresh within this long is fresh enough for this read (FRESH_MS, or the deps', unless given). */
  freshMs?: number | undefined;
  signal?: AbortSignal | undefined;
  onProgress?: ((progress: ReadProgress) => void) | undefined;
};

export class LeaseLostError extends Error {
  override readonly name = "LeaseLostError";
}

/**
 * Each register's invoices, kept in the store newest first, so a report or an export reads only
 * what changed since the last one: the pages newer than the record, and back to the oldest kept
 * invoice that may still change (unpaid and open, processing); further back only when a period
 * reaches past what is kept. One replica at a time refreshes a register (a lease); the others wait
 * for it and then read the record. The feed could read it too; it does not yet.
 */
export class KeptHistory {
  constructor(private readonly deps: KeptHistoryDeps) {}

  private get leaseMs(): number {
    return this.deps.leaseMs ?? LEASE_MS;
  }

  /**
   * Brings the record up to date and back to `since`, then hands each kept invoice created in
   * [since, until) to `onEntry`, newest day first (newest first within a day). A kept day the store
   * gives back unreadable is read again from the service (the record afresh, once per read); one
   * still unreadable then is left out and named in `daysLeftOut`, never the whole period failed.
   */
  async read(
    team: string,
    span: { since: number; until: number },
    onEntry: (entry: HistoryEntry) => void,
    options: ReadOptions,
  ): Promise<KeptRead> {
    let result = await this.ensureOrAfresh(team, span.since, options);
    let pages = result.pages;
    let unreadable = result.unreadable;
    let readAfresh = false;
    const daysLeftOut: string[] = [];
    let invoices = 0;
    for (let day = dayKey(span.until - 1); day >= dayKey(span.since); day = previousDay(day)) {
      if (!result.manifest.days[day]) continue;
      let entries: KeptEntry[];
      try {
        entries = await new DayChunks(this.deps.keyv, team, result.manifest, async () => {}).read(day);
      } catch (error) {
        if (!(error instanceof UnreadableRecordError)) throw error;
        this.deps.logger.warn({ team, day, err: error, afresh: !readAfresh }, "kept day unreadable");
        if (readAfresh) {
          daysLeftOut.push(day);
          continue;
        }
        // Newer days are handed out already; the record read afresh serves this day and older ones.
        readAfresh = true;
        await this.forget(team);
        result = await this.ensure(team, span.since, options);
        pages += result.pages;
        unreadable += result.unreadable;
        day = nextDay(day); // the loop's step brings it back to this day
        continue;
      }
      entries = entries.filter((entry) => entry.e >= span.since && entry.e < span.until);
      entries.sort((a, b) => b.e - a.e || (a.i < b.i ? 1 : -1));
      for (const entry of entries) onEntry(unkeep(entry, result.manifest.zone));
      invoices += entries.length;
      // A day at a time, with a turn for others in between: a month is tens of thousands of rows.
      await new Promise((resolve) => setImmediate(resolve));
    }
    return { pages, invoices, unreadable, partial: result.partial, daysLeftOut };
  }

  /** The record brought up to date; one the store gives back unreadable is read afresh. */
  private async ensureOrAfresh(team: string, since: number, options: ReadOptions) {
    try {
      return await this.ensure(team, since, options);
    } catch (error) {
      if (!(error instanceof UnreadableRecordError)) throw error;
      this.deps.logger.warn({ team, err: error }, "kept history unreadable: read afresh");
      await this.forget(team);
      return await this.ensure(team, since, options);
    }
  }

  /** Deletes a workspace's kept history (disconnect, uninstall). */
  async forget(team: string): Promise<void> {
    const manifest = manifestSchema.safeParse(await this.deps.keyv.get(team));
    if (manifest.success)
      for (const day of Object.keys(manifest.data.days)) await this.deps.keyv.delete(chunkKey(team, day));
    await this.deps.keyv.delete(team);
  }

  private async ensure(team: string, since: number, options: ReadOptions) {
    const owner = randomBytes(8).toString("hex");
    const key = `history:${team}`;
    await this.acquire(key, owner, options.signal);
    let lost = false;
    const renewal = setInterval(() => {
      void this.deps.leases.renew(key, owner, this.leaseMs).then(
        (held) => {
          lost ||= !held;
        },
        () => {},
      );
    }, this.leaseMs / 3);
    const guard = async () => {
      if (lost || !(await this.deps.leases.renew(key, owner, this.leaseMs))) throw new LeaseLostError(key);
    };
    try {
      const manifest = await this.manifest(team);
      const chunks = new DayChunks(this.deps.keyv, team, manifest, guard);
      const save = async () => {
        await guard();
        await this.deps.keyv.set(team, manifest);
      };
      const read = await readPages(
        manifest,
        chunks,
        save,
        (page, items) => this.deps.page(team, page, items),
        {
          since,
          fresh: Date.now() - manifest.refreshedAt < (options.freshMs ?? this.deps.freshMs ?? FRESH_MS),
          ...options,
        },
      );
      if (read.gap) {
        // More invoices came since the last refresh than one read takes: what is kept no longer
        // joins the newest pages, so it is dropped, and read afresh next time.
        await this.forget(team);
        return { ...read, partial: true, manifest: emptyManifest(manifest, this.deps.zone) };
      }
      await dropOldDays(chunks, manifest);
      await save();
      return { ...read, manifest };
    } finally {
      clearInterval(renewal);
      await this.deps.leases.release(key, owner).catch(() => {});
    }
  }

  private async manifest(team: string): Promise<Manifest> {
    const register = await this.deps.register(team);
    const stored = manifestSchema.safeParse(await this.deps.keyv.get(team));
    if (
      stored.success &&
      stored.data.login === register.login &&
      stored.data.apiVersion === register.apiVersion &&
      stored.data.zone === this.deps.zone
    )
      return stored.data;
    if (stored.success) await this.forget(team);
    return emptyManifest(register, this.deps.zone);
  }

  private async acquire(key: string, owner: string, signal?: AbortSignal): Promise<void> {
    const until = Date.now() + WAIT_FOR_OTHERS_MS;
    while (!(await this.deps.leases.acquire(key, owner, owner, this.leaseMs)).held) {
      signal?.throwIfAborted();
      if (Date.now() > until) throw new LeaseLostError(`${key} held by another replica for too long`);
      await new Promise((resolve) => setTimeout(resolve, 300));
    }
  }
}

const shiftDay = (day: string, by: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + by * 86_400_000).toISOString().slice(0, 10);
const previousDay = (day: string) => shiftDay(day, -1);
const nextDay = (day: string) => shiftDay(day, 1);

/** Days older than KEEP_DAYS are dropped: the record no longer covers them, nor is it complete. */
async function dropOldDays(chunks: DayChunks, manifest: Manifest): Promise<void> {
  const cutoff = dayKey(Math.floor(Date.now() / 1000) - KEEP_DAYS * 86_400);
  const dropped = await chunks.dropBefore(cutoff);
  if (dropped === 0) return;
  manifest.count = Math.max(0, manifest.count - dropped);
  manifest.complete = false;
  manifest.coveredFrom = Math.max(manifest.coveredFrom ?? 0, Date.parse(`${cutoff}T00:00:00Z`) / 1000);
}
