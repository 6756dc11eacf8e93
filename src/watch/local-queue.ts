import { randomUUID } from "node:crypto";
import type Keyv from "keyv";
import { z } from "zod";
import {
  type AddCardLimits,
  type AddCardResult,
  type AskerShare,
  cardId,
  MAX_CARDS_PER_WATCH,
  type RescheduleFields,
  type ToldFrom,
  type ToldTo,
  type Watch,
  type WatchCard,
  type WatchQueue,
  type WatchSeed,
  watchKey,
  watchSchema,
} from "./model.js";
import { ReadBudget } from "./read-budget.js";

const storedSchema = z.object({ watch: watchSchema, dueAt: z.number() });
/** nudgedAt: a payment notification that came while the watch was being read (see dueBy). */
type Entry = z.infer<typeof storedSchema> & { nudgedAt?: number };

/**
 * SQLite: one process watches, so the schedule lives in memory and every change is written through
 * to the store file (namespace `watches`), from which a restarted process picks it up again.
 * Reads are not written back (only due times and "last checked" change), so a restart may read a
 * watch a little earlier than planned, never later.
 */
export class LocalWatchQueue implements WatchQueue {
  private readonly entries = new Map<string, Entry>();
  private readonly perTeam = new Map<string, number>();
  private readonly budget = new ReadBudget();

  private constructor(private readonly keyv: Keyv) {}

  /** Loads the persisted watches; a value that does not parse is dropped (and said so by `dropped`). */
  static async open(
    keyv: Keyv,
    now: number,
    spreadMs: number,
  ): Promise<{ queue: LocalWatchQueue; dropped: number }> {
    const queue = new LocalWatchQueue(keyv);
    let dropped = 0;
    const iterator = keyv.iterator;
    if (iterator) {
      for await (const [rawKey, value] of iterator(keyv.namespace)) {
        const key = String(rawKey);
        const parsed = storedSchema.safeParse(value);
        if (!parsed.success) {
          dropped += 1;
          await keyv.delete(key);
          continue;
        }
        // After a restart the watches spread over the first interval instead of all at once.
        const dueAt = Math.min(parsed.data.dueAt, now + Math.floor(Math.random() * spreadMs));
        queue.put({ watch: parsed.data.watch, dueAt });
      }
    }
    return { queue, dropped };
  }

  private put(entry: Entry): void {
    const key = watchKey(entry.watch.team, entry.watch.invoiceId);
    if (!this.entries.has(key))
      this.perTeam.set(entry.watch.team, (this.perTeam.get(entry.watch.team) ?? 0) + 1);
    this.entries.set(key, entry);
  }

  private drop(key: string): Entry | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key);
    const left = (this.perTeam.get(entry.watch.team) ?? 1) - 1;
    if (left > 0) this.perTeam.set(entry.watch.team, left);
    else this.perTeam.delete(entry.watch.team);
    return entry;
  }

  private async persist(key: string): Promise<void> {
    const entry = this.entries.get(key);
    if (entry) await this.keyv.set(key, entry);
    else await this.keyv.delete(key);
  }

  async addCard(seed: WatchSeed, card: WatchCard, limits: AddCardLimits): Promise<AddCardResult> {
    const key = watchKey(seed.team, seed.invoiceId);
    const entry = this.entries.get(key);
    if (entry) {
      const id = cardId(card);
      if (entry.watch.cards.some((existing) => cardId(existing) === id)) return "watching";
      if (entry.watch.cards.length >= MAX_CARDS_PER_WATCH) return "invoice_full";
      entry.watch.cards.push(card);
    } else {
      if ((this.perTeam.get(seed.team) ?? 0) >= limits.maxPerWorkspace) return "workspace_full";
      if (this.overShare(seed.team, limits.asker)) return "asker_full";
      this.put({
        watch: {
          ...seed,
          startedAt: limits.now,
          intervalMs: limits.firstDueInMs,
          lastCheckedAt: limits.now,
          cardsUpdatedAt: limits.now,
          cards: [card],
        },
        dueAt: limits.now + limits.firstDueInMs,
      });
    }
    await this.persist(key);
    return "watching";
  }

  async room(
    team: string,
    invoiceId: string,
    maxPerWorkspace: number,
    asker?: AskerShare,
  ): Promise<AddCardResult> {
    const entry = this.entries.get(watchKey(team, invoiceId));
    if (entry) return entry.watch.cards.length >= MAX_CARDS_PER_WATCH ? "invoice_full" : "watching";
    if ((this.perTeam.get(team) ?? 0) >= maxPerWorkspace) return "workspace_full";
    return this.overShare(team, asker) ? "asker_full" : "watching";
  }

  /** Whether the asker already has a card on their share of the workspace's watches. */
  private overShare(team: string, asker: AskerShare | undefined): boolean {
    if (!asker) return false;
    let held = 0;
    for (const { watch } of this.entries.values()) {
      if (watch.team === team && watch.cards.some((card) => card.user === asker.user)) held += 1;
    }
    return held >= asker.max;
  }

  async removeCard(team: string, invoiceId: string, id: string): Promise<void> {
    const key = watchKey(team, invoiceId);
    const entry = this.entries.get(key);
    if (!entry) return;
    entry.watch.cards = entry.watch.cards.filter((card) => cardId(card) !== id);
    if (entry.watch.cards.length === 0) this.drop(key);
    await this.persist(key);
  }

  async remove(team: string, invoiceId: string, lease?: string): Promise<boolean> {
    const key = watchKey(team, invoiceId);
    if (this.entries.has(key) && !this.holds(key, lease)) return false;
    this.drop(key);
    await this.keyv.delete(key);
    return true;
  }

  /** Whether the claim `lease` still holds the watch (no lease given: anyone may). */
  private holds(key: string, lease: string | undefined): boolean {
    return lease === undefined || this.entries.get(key)?.watch.lease === lease;
  }

  async removeTeam(team: string): Promise<void> {
    const keys = [...this.entries.values()]
      .filter((entry) => entry.watch.team === team)
      .map((entry) => watchKey(entry.watch.team, entry.watch.invoiceId));
    for (const key of keys) this.drop(key);
    await Promise.all(keys.map((key) => this.keyv.delete(key)));
  }

  async count(team: string): Promise<number> {
    return this.perTeam.get(team) ?? 0;
  }

  async claimDue(now: number, max: number, leaseMs: number): Promise<Watch[]> {
    const due: Entry[] = [];
    for (const entry of this.entries.values()) {
      if (entry.dueAt <= now) due.push(entry);
    }
    due.sort((a, b) => a.dueAt - b.dueAt);
    const lease = randomUUID();
    return due.slice(0, max).map((entry) => {
      entry.dueAt = now + leaseMs;
      entry.watch.lease = lease;
      return structuredClone(entry.watch);
    });
  }

  async renew(team: string, invoiceId: string, lease: string, until: number): Promise<boolean> {
    const key = watchKey(team, invoiceId);
    const entry = this.entries.get(key);
    if (!entry || !this.holds(key, lease)) return false;
    entry.dueAt = until;
    return true;
  }

  async reschedule(
    team: string,
    invoiceId: string,
    dueAt: number,
    patch: RescheduleFields,
    lease?: string,
  ): Promise<boolean> {
    const key = watchKey(team, invoiceId);
    const entry = this.entries.get(key);
    if (!entry || !this.holds(key, lease)) return false;
    entry.dueAt = Math.min(dueAt, entry.nudgedAt ?? dueAt);
    Object.assign(entry.watch, patch);
    delete entry.watch.lease;
    delete entry.nudgedAt;
    return true;
  }

  async setCard(team: string, invoiceId: string, card: WatchCard, lease?: string): Promise<boolean> {
    const key = watchKey(team, invoiceId);
    if (!this.holds(key, lease)) return false;
    const entry = this.entries.get(key);
    const at = entry?.watch.cards.findIndex((existing) => cardId(existing) === cardId(card)) ?? -1;
    if (!entry || at === -1) return false;
    entry.watch.cards[at] = structuredClone(card);
    await this.persist(key);
    return true;
  }

  async dueBy(team: string, invoiceId: string, now: number): Promise<boolean> {
    const entry = this.entries.get(watchKey(team, invoiceId));
    if (!entry) return false;
    if (entry.watch.lease) entry.nudgedAt = Math.min(entry.nudgedAt ?? now, now);
    else entry.dueAt = Math.min(entry.dueAt, now);
    return true;
  }

  async tell(team: string, invoiceId: string, from: ToldFrom, to: ToldTo, lease?: string): Promise<boolean> {
    const key = watchKey(team, invoiceId);
    const entry = this.entries.get(key);
    if (
      !entry ||
      !this.holds(key, lease) ||
      entry.watch.state !== from.state ||
      entry.watch.amounts !== from.amounts
    )
      return false;
    Object.assign(entry.watch, { state: to.state, amounts: to.amounts, invoice: to.invoice });
    await this.persist(key);
    return true;
  }

  async takeRead(register: string, rps: number, now: number, maxWaitMs: number): Promise<number | null> {
    return this.budget.take(register, rps, now, maxWaitMs);
  }

  async close(): Promise<void> {}
}
