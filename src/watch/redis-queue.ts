import { randomUUID } from "node:crypto";
import type { RedisClientConnectionType } from "@keyv/redis";
import { z } from "zod";
import type { KeyvStore } from "../store/keyv.js";
import { type RedisScript, runRedisScript } from "../store/redis-scripts.js";
import {
  ADD_CARD_RESULTS,
  type AddCardLimits,
  type AddCardResult,
  type AskerShare,
  cardId,
  invoiceSnapshotSchema,
  MAX_CARDS_PER_WATCH,
  type RescheduleFields,
  type ToldFrom,
  type ToldTo,
  type Watch,
  type WatchCard,
  type WatchQueue,
  type WatchSeed,
  watchCardSchema,
  watchKey,
} from "./model.js";
import { readSpacingMs } from "./read-budget.js";
import { CLAIM, DUE_BY, RENEW, RESCHEDULE, SET_CARD, TAKE_READ, TELL } from "./redis-claim-scripts.js";
import { ADD_CARD, REMOVE, REMOVE_CARD, REMOVE_TEAM, ROOM } from "./redis-scripts.js";

// The keys and the scripts that change them atomically are in redis-scripts.ts and
// redis-claim-scripts.ts.

const hashSchema = z.object({
  team: z.string(),
  invoiceId: z.string(),
  register: z.string(),
  state: z.string(),
  amounts: z.string(),
  startedAt: z.coerce.number(),
  intervalMs: z.coerce.number(),
  lastCheckedAt: z.coerce.number(),
  cardsUpdatedAt: z.coerce.number(),
  lease: z.string().optional(),
  invoice: z.string().transform((text, ctx) => {
    const parsed = invoiceSnapshotSchema.safeParse(parseJsonOrUndefined(text));
    if (!parsed.success) {
      ctx.addIssue({ code: "custom", message: "invoice snapshot not in the expected form" });
      return z.NEVER;
    }
    return parsed.data;
  }),
});

/** One malformed row must not fail the pass: unreadable JSON reads as undefined, and its schema refuses it. */
function parseJsonOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function pairs(record: Record<string, string | number>): string {
  return JSON.stringify(Object.entries(record).flatMap(([name, value]) => [name, String(value)]));
}

export class RedisWatchQueue implements WatchQueue {
  private constructor(
    private readonly client: RedisClientConnectionType,
    private readonly prefix: string,
  ) {}

  /** `prefix`: where the keys live (tests give each run its own). */
  static async open(store: KeyvStore, prefix = "kassa:watch"): Promise<RedisWatchQueue> {
    if (store.native?.kind !== "redis") throw new Error("the Redis watch queue needs a Redis store");
    return new RedisWatchQueue(store.native.client, prefix);
  }

  private async run(
    script: RedisScript,
    args: Array<string | number>,
    keys: string[] = [],
  ): Promise<unknown> {
    return runRedisScript(this.client, script, keys, args);
  }

  async addCard(seed: WatchSeed, card: WatchCard, limits: AddCardLimits): Promise<AddCardResult> {
    const fields = pairs({
      team: seed.team,
      invoiceId: seed.invoiceId,
      register: seed.register,
      state: seed.state,
      amounts: seed.amounts,
      invoice: JSON.stringify(seed.invoice),
      startedAt: limits.now,
      intervalMs: limits.firstDueInMs,
      lastCheckedAt: limits.now,
      cardsUpdatedAt: limits.now,
    });
    const result = await this.run(ADD_CARD, [
      this.prefix,
      watchKey(seed.team, seed.invoiceId),
      seed.team,
      cardId(card),
      JSON.stringify(card),
      limits.maxPerWorkspace,
      MAX_CARDS_PER_WATCH,
      limits.now + limits.firstDueInMs,
      fields,
      limits.asker?.max ?? "",
      limits.asker?.user ?? "",
    ]);
    return z.enum(ADD_CARD_RESULTS).parse(result);
  }

  async room(
    team: string,
    invoiceId: string,
    maxPerWorkspace: number,
    asker?: AskerShare,
  ): Promise<AddCardResult> {
    const args = [this.prefix, watchKey(team, invoiceId), team, maxPerWorkspace, MAX_CARDS_PER_WATCH];
    const result = await this.run(ROOM, [...args, asker?.max ?? "", asker?.user ?? ""]);
    return z.enum(ADD_CARD_RESULTS).parse(result);
  }

  async removeCard(team: string, invoiceId: string, id: string): Promise<void> {
    await this.run(REMOVE_CARD, [this.prefix, watchKey(team, invoiceId), team, id]);
  }

  async remove(team: string, invoiceId: string, lease = ""): Promise<boolean> {
    return (await this.run(REMOVE, [this.prefix, watchKey(team, invoiceId), team, lease])) === 1;
  }

  async removeTeam(team: string): Promise<void> {
    await this.run(REMOVE_TEAM, [this.prefix, team]);
  }

  async count(team: string): Promise<number> {
    return this.client.sCard(`${this.prefix}:team:${team}`);
  }

  async claimDue(now: number, max: number, leaseMs: number): Promise<Watch[]> {
    const raw = z
      .array(z.tuple([z.array(z.string()), z.array(z.string())]))
      .parse(await this.run(CLAIM, [this.prefix, now, max, leaseMs, randomUUID()]));
    const watches: Watch[] = [];
    for (const [flat, cards] of raw) {
      const record: Record<string, string> = {};
      for (let index = 0; index + 1 < flat.length; index += 2)
        record[flat[index] as string] = flat[index + 1] as string;
      const fields = hashSchema.safeParse(record);
      const parsedCards = cards.map((card) => watchCardSchema.safeParse(parseJsonOrUndefined(card)));
      if (!fields.success) {
        // Unreadable: drop it rather than claim it again forever.
        if (record.team && record.invoiceId) await this.remove(record.team, record.invoiceId);
        continue;
      }
      watches.push({
        ...fields.data,
        cards: parsedCards.flatMap((card) => (card.success ? [card.data] : [])),
      });
    }
    return watches;
  }

  async reschedule(
    team: string,
    invoiceId: string,
    dueAt: number,
    patch: RescheduleFields,
    lease = "",
  ): Promise<boolean> {
    const args = [this.prefix, watchKey(team, invoiceId), dueAt, pairs(patch), lease];
    return (await this.run(RESCHEDULE, args)) === 1;
  }

  async renew(team: string, invoiceId: string, lease: string, until: number): Promise<boolean> {
    return (await this.run(RENEW, [this.prefix, watchKey(team, invoiceId), lease, until])) === 1;
  }

  async setCard(team: string, invoiceId: string, card: WatchCard, lease = ""): Promise<boolean> {
    const args = [this.prefix, watchKey(team, invoiceId), cardId(card), JSON.stringify(card), lease];
    return (await this.run(SET_CARD, args)) === 1;
  }

  async dueBy(team: string, invoiceId: string, now: number): Promise<boolean> {
    return (await this.run(DUE_BY, [this.prefix, watchKey(team, invoiceId), now])) === 1;
  }

  async tell(team: string, invoiceId: string, from: ToldFrom, to: ToldTo, lease = ""): Promise<boolean> {
    const won = await this.run(TELL, [
      this.prefix,
      watchKey(team, invoiceId),
      from.state,
      from.amounts,
      to.state,
      to.amounts,
      JSON.stringify(to.invoice),
      lease,
    ]);
    return won === 1;
  }

  async takeRead(
    register: string,
    perSecond: number,
    now: number,
    maxWaitMs: number,
  ): Promise<number | null> {
    // One key per register holding when its next read may start (see ReadBudget).
    const key = `${this.prefix}:next-read:${register}`;
    const wait = z
      .number()
      .int()
      .parse(await this.run(TAKE_READ, [now, readSpacingMs(perSecond), maxWaitMs], [key]));
    return wait < 0 ? null : wait;
  }

  async close(): Promise<void> {}
}
