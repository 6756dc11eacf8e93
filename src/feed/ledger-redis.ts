import { randomUUID } from "node:crypto";
import type { RedisClientConnectionType } from "@keyv/redis";
import { z } from "zod";
import { type RedisScript, redisScript, runRedisScript } from "../store/redis-scripts.js";
import { type FeedLedger, type FeedTurnClaim, parseJson } from "./ledger.js";

// Keys (P = prefix): P:due sorted set of workspaces by the time they may next be claimed (their due
// time, or while a turn holds one, its lease's end); P:t:<team> hash of the turn: owner (the claim's
// token), until (the lease's end), nudged (when a change was told during the turn, else 0);
// P:s:<team> hash of the workspace's channel states. Each step is one Lua script, which Redis runs
// alone.

const CLAIM = redisScript(
  "feed ledger claim",
  0,
  `--[[
  Claims the due workspaces whose turn is free or lapsed: each gets its own token, the lease's end,
  and a due time pushed to that end.
    Input (keys from the prefix: P:due, and P:t:* of the due workspaces):
      ARGV[1] prefix P, ARGV[2] now (ms), ARGV[3] lease (ms), ARGV[4] most workspaces to claim,
      ARGV[5] base of the tokens (each is "<base>:<n>")
    Output:
      [team, token, team, token, ...] of the turns claimed
]]
local p, now, lease, limit, base = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4]), ARGV[5]
local out, n = {}, 0
for _, team in ipairs(redis.call('ZRANGEBYSCORE', p..':due', '-inf', now, 'LIMIT', 0, limit)) do
  local t = p..':t:'..team
  if (tonumber(redis.call('HGET', t, 'until')) or 0) <= now then
    n = n + 1
    local token = base..':'..n
    redis.call('HSET', t, 'owner', token, 'until', now + lease, 'nudged', 0)
    redis.call('ZADD', p..':due', now + lease, team)
    out[#out + 1] = team
    out[#out + 1] = token
  end
end
return out`,
);

const RENEW = redisScript(
  "feed ledger renew",
  0,
  `--[[
  Extends a turn while its token still holds it.
    Input (keys from the prefix: P:t:<team>, P:due):
      ARGV[1] prefix P, ARGV[2] team, ARGV[3] the turn's token, ARGV[4] the lease's new end (ms)
    Output:
      1 extended, 0 the token no longer holds the turn
]]
local p, team, token, untilv = ARGV[1], ARGV[2], ARGV[3], tonumber(ARGV[4])
local t = p..':t:'..team
if redis.call('HGET', t, 'owner') ~= token then return 0 end
redis.call('HSET', t, 'until', untilv)
redis.call('ZADD', p..':due', untilv, team)
return 1`,
);

const RELEASE = redisScript(
  "feed ledger release",
  0,
  `--[[
  Ends a turn while its token still holds it; the workspace is due next at the given time, or at the
  nudge told during the turn when that is sooner.
    Input (keys from the prefix: P:t:<team>, P:due):
      ARGV[1] prefix P, ARGV[2] team, ARGV[3] the turn's token, ARGV[4] next due time (ms)
    Output:
      1 ended, 0 the token no longer holds the turn
]]
local p, team, token, due = ARGV[1], ARGV[2], ARGV[3], tonumber(ARGV[4])
local t = p..':t:'..team
if redis.call('HGET', t, 'owner') ~= token then return 0 end
local nudged = tonumber(redis.call('HGET', t, 'nudged')) or 0
if nudged > 0 and nudged < due then due = nudged end
redis.call('HSET', t, 'owner', '', 'until', 0, 'nudged', 0)
redis.call('ZADD', p..':due', due, team)
return 1`,
);

const NUDGE = redisScript(
  "feed ledger nudge",
  0,
  `--[[
  A change was told: an enlisted workspace is due now, or, while a turn holds it, the turn notes the
  time (nudged) for its release.
    Input (keys from the prefix: P:t:<team>, P:due):
      ARGV[1] prefix P, ARGV[2] team, ARGV[3] now (ms)
    Output:
      1, 0 the workspace is not enlisted
]]
local p, team, now = ARGV[1], ARGV[2], tonumber(ARGV[3])
local t = p..':t:'..team
local score = redis.call('ZSCORE', p..':due', team)
if not score then return 0 end
if (tonumber(redis.call('HGET', t, 'until')) or 0) > now then
  redis.call('HSET', t, 'nudged', now)
elseif tonumber(score) > now then
  redis.call('ZADD', p..':due', now, team)
end
return 1`,
);

const WRITE = redisScript(
  "feed ledger writeState",
  0,
  `--[[
  Writes a channel's state while the turn's token still holds the workspace.
    Input (keys from the prefix: P:t:<team>, P:s:<team>):
      ARGV[1] prefix P, ARGV[2] team, ARGV[3] channel, ARGV[4] the turn's token, ARGV[5] state JSON
    Output:
      1 written, 0 the token no longer holds the turn
]]
local p, team, channel, token, state = ARGV[1], ARGV[2], ARGV[3], ARGV[4], ARGV[5]
if redis.call('HGET', p..':t:'..team, 'owner') ~= token then return 0 end
redis.call('HSET', p..':s:'..team, channel, state)
return 1`,
);

const DROP = redisScript(
  "feed ledger drop",
  0,
  `--[[
  Forgets a workspace: its turn, its channels' states and its place in the due set.
    Input (keys from the prefix: P:t:<team>, P:s:<team>, P:due):
      ARGV[1] prefix P, ARGV[2] team
    Output:
      1
]]
local p, team = ARGV[1], ARGV[2]
redis.call('DEL', p..':t:'..team, p..':s:'..team)
redis.call('ZREM', p..':due', team)
return 1`,
);

const claimedSchema = z.array(z.string());

/** The feed ledger in Redis (one server, as the store itself is; not Redis Cluster). */
export class RedisFeedLedger implements FeedLedger {
  constructor(
    private readonly client: RedisClientConnectionType,
    private readonly prefix: string,
  ) {}

  private async run(script: RedisScript, args: Array<string | number>): Promise<unknown> {
    return runRedisScript(this.client, script, [], [this.prefix, ...args]);
  }

  async enlist(team: string, dueAt: number): Promise<void> {
    await this.client.zAdd(`${this.prefix}:due`, { score: dueAt, value: team }, { condition: "NX" });
  }

  async claim(now: number, leaseMs: number, limit: number): Promise<FeedTurnClaim[]> {
    if (limit <= 0) return [];
    const flat = claimedSchema.parse(await this.run(CLAIM, [now, leaseMs, limit, randomUUID()]));
    const claims: FeedTurnClaim[] = [];
    for (let i = 0; i + 1 < flat.length; i += 2)
      claims.push({ team: flat[i] as string, token: flat[i + 1] as string });
    return claims;
  }

  async renew(team: string, token: string, now: number, leaseMs: number): Promise<boolean> {
    return (await this.run(RENEW, [team, token, now + leaseMs])) === 1;
  }

  async release(team: string, token: string, dueAt: number): Promise<boolean> {
    return (await this.run(RELEASE, [team, token, dueAt])) === 1;
  }

  async nudge(team: string, now: number): Promise<void> {
    await this.run(NUDGE, [team, now]);
  }

  async readState(team: string, channel: string): Promise<unknown> {
    const text = await this.client.hGet(`${this.prefix}:s:${team}`, channel);
    return typeof text === "string" ? parseJson(text) : undefined;
  }

  async writeState(team: string, channel: string, token: string, state: unknown): Promise<boolean> {
    return (await this.run(WRITE, [team, channel, token, JSON.stringify(state)])) === 1;
  }

  async deleteState(team: string, channel: string): Promise<void> {
    await this.client.hDel(`${this.prefix}:s:${team}`, channel);
  }

  async drop(team: string): Promise<void> {
    await this.run(DROP, [team]);
  }
}
