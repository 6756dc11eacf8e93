import type { RedisClientConnectionType } from "@keyv/redis";
import { z } from "zod";
import { type RedisScript, redisScript, runRedisScript } from "../redis-scripts.js";
import { REDIS_MOVE_EXPORTS_OWED } from "./export-owed.js";
import { LEGACY_FEED_NAMESPACES, redisLegacyFeedMove } from "./legacy-feed.js";
import { REDIS_WATCHES_MOVE } from "./legacy-watches.js";
import { DEFAULT_PREFIX, redisSchemaKey } from "./names.js";
import { refuseNewer } from "./version.js";

// Redis keeps no structure to set up (keys come into being when written), so its steps are data
// moves a release may need: each a Lua body run with the version check in the same script.

// Step 2. Before it: P:feed:due (sorted set of teams), P:feed:t:<team> and P:feed:s:<team> (hashes);
// P-leases::<key> ("<owner> <info>", expiring); kassa-claims::<key> (the owner or "1", expiring).
// After it, the claim board's keys (src/store/claims/redis-scripts.ts) under B = P:claims.
const MOVE_ONTO_CLAIM_BOARD = `
local p = ARGV[1]
local b = p .. ':claims'
local function glob(text) return (string.gsub(text, '([%*%?%[%]\\\\])', '\\\\%1')) end
if redis.call('EXISTS', p .. ':feed:due') == 1 then
  for _, team in ipairs(redis.call('ZRANGE', p .. ':feed:due', 0, -1)) do
    if redis.call('EXISTS', p .. ':feed:t:' .. team) == 1 then
      redis.call('RENAME', p .. ':feed:t:' .. team, b .. ':i:feed:' .. team)
    end
    if redis.call('EXISTS', p .. ':feed:s:' .. team) == 1 then
      redis.call('RENAME', p .. ':feed:s:' .. team, b .. ':s:feed:' .. team)
    end
  end
  redis.call('RENAME', p .. ':feed:due', b .. ':due:feed')
end
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local function move(old, family, key, owner, info)
  local ttl = redis.call('PTTL', old)
  if ttl > 0 then
    local item = b .. ':i:' .. family .. ':' .. key
    redis.call('HSET', item, 'owner', owner, 'until', now + ttl, 'nudged', 0, 'info', info)
    redis.call('PEXPIRE', item, ttl)
  end
  redis.call('DEL', old)
end
local leases = p .. '-leases::'
for _, old in ipairs(redis.call('KEYS', glob(leases) .. '*')) do
  local value = redis.call('GET', old) or ''
  local space = string.find(value, ' ', 1, true) or (#value + 1)
  move(old, 'lease', string.sub(old, #leases + 1), string.sub(value, 1, space - 1), string.sub(value, space + 1))
end
if p == 'kassa' then
  for _, old in ipairs(redis.call('KEYS', 'kassa-claims::*')) do
    local key = string.sub(old, 15)
    local owner = redis.call('GET', old) or '1'
    if owner == '1' then owner = 'upgraded:' .. key end
    move(old, 'once', key, owner, '')
  end
end`;

// Step 5 (4 until the step 4 of another change is merged before it). Before it: the callback keys in their
// Keyv namespace N ("callbacks" under the store's own prefix, "P-callbacks" under another), keys
// N::team:<id> -> {"value":"<key>"} and N::key:<key> -> {"value":"<id>"}. After it, on the claim
// board (src/store/callback-keys.ts): B:s:callback:<id> field key, B:s:callback-route:<key> field
// team, each state JSON text. A route its team's entry does not name routed nothing before and is not
// moved; the namespace is emptied.
const MOVE_CALLBACK_KEYS = `
local p = ARGV[1]
local b = p .. ':claims'
local namespace = (p == 'kassa' and 'callbacks' or (p .. '-callbacks')) .. '::'
local function glob(text) return (string.gsub(text, '([%*%?%[%]\\])', '\\%1')) end
local function plain(text) return type(text) == 'string' and string.match(text, '^[%w_%-]+$') ~= nil end
local function valueOf(entry)
  local text = redis.call('GET', entry)
  if not text then return nil end
  local ok, data = pcall(cjson.decode, text)
  if ok and type(data) == 'table' and plain(data.value) then return data.value end
  return nil
end
local entries = redis.call('KEYS', glob(namespace) .. '*')
for _, entry in ipairs(entries) do
  local name = string.sub(entry, #namespace + 1)
  if string.sub(name, 1, 5) == 'team:' and plain(string.sub(name, 6)) then
    local team, key = string.sub(name, 6), valueOf(entry)
    if key then
      redis.call('HSET', b .. ':s:callback:' .. team, 'key', '"' .. key .. '"')
      if valueOf(namespace .. 'key:' .. key) == team then
        redis.call('HSET', b .. ':s:callback-route:' .. key, 'team', '"' .. team .. '"')
      end
    end
  end
end
for _, entry in ipairs(entries) do redis.call('DEL', entry) end`;

/** One numbered step: what it does, and its Lua, run with ARGV[1] the prefix. */
export type RedisStep = { purpose: string; lua: string };

export const REDIS_STEPS: RedisStep[] = [
  { purpose: "nothing to move; the version key is written so later steps have a place", lua: "" },
  {
    purpose:
      "the feed's turns and channel states, the leases and (under the store's own prefix) the once-only claims move onto the claim board (P:claims)",
    lua: MOVE_ONTO_CLAIM_BOARD,
  },
  { purpose: "nothing to set up (rate-limit counts are keys of their own)", lua: "" },
  {
    purpose:
      "the feed's channel states kept in Keyv before the ledger (the store's own, under its default prefix) move onto the claim board",
    lua: `if ARGV[1] == '${DEFAULT_PREFIX}' then${redisLegacyFeedMove(LEGACY_FEED_NAMESPACES)}\nend`,
  },
  {
    purpose: "the callback keys move from their Keyv namespace onto the claim board (P:claims)",
    lua: MOVE_CALLBACK_KEYS,
  },
  // 6: the exports owed to their askers (export-owed.ts).
  REDIS_MOVE_EXPORTS_OWED,
  // 7: the audit trail's keys (src/audit/redis.ts) come into being with its first entry.
  { purpose: "nothing to set up for the audit trail (its keys come with its first entry)", lua: "" },
  // 8: the live cards' watches (legacy-watches.ts).
  {
    purpose: "the live cards' watches (P:watch) move onto the claim board (P:claims); their keys go",
    lua: REDIS_WATCHES_MOVE,
  },
  // 9: the audit trail's head has been apart from its entries on Redis from the start (P:audit:T:head).
  { purpose: "nothing to move: the audit trail's heads are kept apart already", lua: "" },
];

/** A step as a script that runs only while the version is the one before it. */
function stepScript(step: RedisStep, number: number): RedisScript {
  return redisScript(
    `schema step ${number}`,
    1,
    `--[[
  Schema step ${number}: ${step.purpose}. Runs only while the version is the one before it.
    Input:
      KEYS[1] the version key (P:schema)
      ARGV[1] the prefix P, ARGV[2] this step's number
    Output:
      the version found before the step (the step ran only if it is ARGV[2] - 1)
]]
local found = tonumber(redis.call('GET', KEYS[1]) or '0')
if found ~= tonumber(ARGV[2]) - 1 then return found end
${step.lua}
redis.call('SET', KEYS[1], ARGV[2])
return found`,
  );
}

/**
 * Brings the keys under `prefix` to the last step: each missing step one script, which Redis runs
 * with nothing in between, so of two replicas starting together one runs it and the other finds it
 * done. Returns the version.
 */
export async function applyRedisSchema(
  client: RedisClientConnectionType,
  prefix: string,
  steps = REDIS_STEPS,
): Promise<number> {
  const key = redisSchemaKey(prefix);
  const current = z.coerce
    .number()
    .int()
    .parse((await client.get(key)) ?? 0);
  refuseNewer(current, steps.length, key);
  for (let step = current + 1; step <= steps.length; step++) {
    const script = stepScript(steps[step - 1] ?? { purpose: "none", lua: "" }, step);
    const found = await runRedisScript(client, script, [key], [prefix, step]);
    refuseNewer(z.number().parse(found), steps.length, key);
  }
  return steps.length;
}
