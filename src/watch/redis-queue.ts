import type { RedisClientConnectionType } from "@keyv/redis";
import { z } from "zod";
import type { KeyvStore } from "../store/keyv.js";
import {
  type AddCardLimits,
  type AddCardResult,
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

// Redis: every step replicas could race on is one Lua script, which Redis runs atomically.
// Keys (P = prefix): P:due sorted set of watch keys by due time; P:w:<key> hash of the watch's
// fields; P:c:<key> hash of its cards by card id; P:team:<team> set of the team's watch keys;
// P:rps:<register>:<second> the register's reads in that second. Scripts name keys from the
// prefix, so this is for one Redis server (not Redis Cluster), as the store itself is.

const ADD_CARD = `
local p, key, team = ARGV[1], ARGV[2], ARGV[3]
local w, c, t = p..':w:'..key, p..':c:'..key, p..':team:'..team
if redis.call('EXISTS', w) == 1 then
  if redis.call('HEXISTS', c, ARGV[4]) == 1 then return 'watching' end
  if redis.call('HLEN', c) >= tonumber(ARGV[7]) then return 'invoice_full' end
  redis.call('HSET', c, ARGV[4], ARGV[5])
  return 'watching'
end
if redis.call('SCARD', t) >= tonumber(ARGV[6]) then return 'workspace_full' end
redis.call('HSET', w, unpack(cjson.decode(ARGV[9])))
redis.call('HSET', c, ARGV[4], ARGV[5])
redis.call('SADD', t, key)
redis.call('ZADD', p..':due', ARGV[8], key)
return 'watching'`;

const ROOM = `
local p, key, team = ARGV[1], ARGV[2], ARGV[3]
if redis.call('EXISTS', p..':w:'..key) == 1 then
  if redis.call('HLEN', p..':c:'..key) >= tonumber(ARGV[5]) then return 'invoice_full' end
  return 'watching'
end
if redis.call('SCARD', p..':team:'..team) >= tonumber(ARGV[4]) then return 'workspace_full' end
return 'watching'`;

const REMOVE = `
local p, key, team = ARGV[1], ARGV[2], ARGV[3]
redis.call('DEL', p..':w:'..key, p..':c:'..key)
redis.call('ZREM', p..':due', key)
redis.call('SREM', p..':team:'..team, key)
return 1`;

const REMOVE_CARD = `
local p, key, team = ARGV[1], ARGV[2], ARGV[3]
redis.call('HDEL', p..':c:'..key, ARGV[4])
if redis.call('HLEN', p..':c:'..key) == 0 then
  redis.call('DEL', p..':w:'..key)
  redis.call('ZREM', p..':due', key)
  redis.call('SREM', p..':team:'..team, key)
end
return 1`;

const REMOVE_TEAM = `
local p, team = ARGV[1], ARGV[2]
local keys = redis.call('SMEMBERS', p..':team:'..team)
for _, key in ipairs(keys) do
  redis.call('DEL', p..':w:'..key, p..':c:'..key)
  redis.call('ZREM', p..':due', key)
end
redis.call('DEL', p..':team:'..team)
return #keys`;

/** Takes the due watches and pushes each one's due time ahead by the lease, in one step. */
const CLAIM = `
local p, now, max, lease = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4])
local keys = redis.call('ZRANGEBYSCORE', p..':due', '-inf', now, 'LIMIT', 0, max)
local out = {}
for _, key in ipairs(keys) do
  local fields = redis.call('HGETALL', p..':w:'..key)
  if #fields == 0 then
    redis.call('ZREM', p..':due', key)
  else
    redis.call('ZADD', p..':due', now + lease, key)
    table.insert(out, {fields, redis.call('HVALS', p..':c:'..key)})
  end
end
return out`;

/** Moves the due time only while the watch exists (it may have been stopped meanwhile). */
const RESCHEDULE = `
local p, key = ARGV[1], ARGV[2]
if redis.call('EXISTS', p..':w:'..key) == 0 then return 0 end
redis.call('ZADD', p..':due', 'XX', ARGV[3], key)
redis.call('HSET', p..':w:'..key, unpack(cjson.decode(ARGV[4])))
return 1`;

/** Replaces a card's JSON only while the card is still there. */
const SET_CARD = `
local c = ARGV[1]..':c:'..ARGV[2]
if redis.call('HEXISTS', c, ARGV[3]) == 0 then return 0 end
redis.call('HSET', c, ARGV[3], ARGV[4])
return 1`;

/** Due by ARGV[3] at the latest: the score only moves down (ZADD LT). */
const DUE_BY = `
if redis.call('EXISTS', ARGV[1]..':w:'..ARGV[2]) == 0 then return 0 end
redis.call('ZADD', ARGV[1]..':due', 'XX', 'LT', ARGV[3], ARGV[2])
return 1`;

/** Tell once: the state and amounts move on only from what the caller saw. */
const TELL = `
local w = ARGV[1]..':w:'..ARGV[2]
local seen = redis.call('HMGET', w, 'state', 'amounts')
if seen[1] ~= ARGV[3] or seen[2] ~= ARGV[4] then return 0 end
redis.call('HSET', w, 'state', ARGV[5], 'amounts', ARGV[6], 'invoice', ARGV[7])
return 1`;

/** One read of the register's per-second budget: a counter that expires with its second. */
const TAKE_READ = `
local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('PEXPIRE', KEYS[1], 2000) end
if n > tonumber(ARGV[1]) then return 0 end
return 1`;

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

  private async run(script: string, args: Array<string | number>, keys: string[] = []): Promise<unknown> {
    return this.client.eval(script, { keys, arguments: args.map(String) });
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
    ]);
    return z.enum(["watching", "workspace_full", "invoice_full"]).parse(result);
  }

  async room(team: string, invoiceId: string, maxPerWorkspace: number): Promise<AddCardResult> {
    const result = await this.run(ROOM, [
      this.prefix,
      watchKey(team, invoiceId),
      team,
      maxPerWorkspace,
      MAX_CARDS_PER_WATCH,
    ]);
    return z.enum(["watching", "workspace_full", "invoice_full"]).parse(result);
  }

  async removeCard(team: string, invoiceId: string, id: string): Promise<void> {
    await this.run(REMOVE_CARD, [this.prefix, watchKey(team, invoiceId), team, id]);
  }

  async remove(team: string, invoiceId: string): Promise<void> {
    await this.run(REMOVE, [this.prefix, watchKey(team, invoiceId), team]);
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
      .parse(await this.run(CLAIM, [this.prefix, now, max, leaseMs]));
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

  async reschedule(team: string, invoiceId: string, dueAt: number, patch: RescheduleFields): Promise<void> {
    await this.run(RESCHEDULE, [this.prefix, watchKey(team, invoiceId), dueAt, pairs(patch)]);
  }

  async setCard(team: string, invoiceId: string, card: WatchCard): Promise<boolean> {
    const args = [this.prefix, watchKey(team, invoiceId), cardId(card), JSON.stringify(card)];
    return (await this.run(SET_CARD, args)) === 1;
  }

  async dueBy(team: string, invoiceId: string, now: number): Promise<boolean> {
    return (await this.run(DUE_BY, [this.prefix, watchKey(team, invoiceId), now])) === 1;
  }

  async tell(team: string, invoiceId: string, from: ToldFrom, to: ToldTo): Promise<boolean> {
    const won = await this.run(TELL, [
      this.prefix,
      watchKey(team, invoiceId),
      from.state,
      from.amounts,
      to.state,
      to.amounts,
      JSON.stringify(to.invoice),
    ]);
    return won === 1;
  }

  async takeRead(register: string, perSecond: number, now: number): Promise<boolean> {
    const key = `${this.prefix}:rps:${register}:${Math.floor(now / 1000)}`;
    return (await this.run(TAKE_READ, [perSecond], [key])) === 1;
  }

  async close(): Promise<void> {}
}
