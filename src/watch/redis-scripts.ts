/** The Lua scripts of the Redis watch queue (redis-queue.ts). */

import { redisScript } from "../store/redis-scripts.js";

// Redis: every step replicas could race on is one Lua script, which Redis runs atomically.
// Keys (P = prefix): P:due sorted set of watch keys by due time; P:w:<key> hash of the watch's
// fields; P:c:<key> hash of its cards by card id; P:team:<team> set of the team's watch keys;
// P:next-read:<register> when the register's next read may start. Scripts name keys from the
// prefix, so this is for one Redis server (not Redis Cluster), as the store itself is.

/** How many of the team's watches hold a card of `user` (cards are JSON with a "user" field). */
const ASKER_WATCHES = `
local function askerWatches(p, team, user)
  local n = 0
  for _, k in ipairs(redis.call('SMEMBERS', p..':team:'..team)) do
    for _, c in ipairs(redis.call('HVALS', p..':c:'..k)) do
      local ok, card = pcall(cjson.decode, c)
      if ok and type(card) == 'table' and card.user == user then
        n = n + 1
        break
      end
    end
  end
  return n
end`;

export const ADD_CARD = redisScript(
  "watch addCard",
  0,
  `--[[
  Adds a card to the invoice's watch, starting the watch when there is none, within the limits.
    Input (keys from the prefix: P:w:<key>, P:c:<key>, P:team:<team>, P:due, and P:c:* of the team):
      ARGV[1] prefix P, ARGV[2] watch key, ARGV[3] team,
      ARGV[4] card id, ARGV[5] card JSON,
      ARGV[6] most watches per workspace, ARGV[7] most cards per watch,
      ARGV[8] first due time (ms), ARGV[9] the new watch's fields, JSON [name, value, ...],
      ARGV[10] most watches per asker ('' for no limit), ARGV[11] the asker's user id
    Output:
      'watching' (added, or the card was there), 'invoice_full', 'workspace_full', 'asker_full'
]]${ASKER_WATCHES}
local p, key, team = ARGV[1], ARGV[2], ARGV[3]
local w, c, t = p..':w:'..key, p..':c:'..key, p..':team:'..team
if redis.call('EXISTS', w) == 1 then
  if redis.call('HEXISTS', c, ARGV[4]) == 1 then return 'watching' end
  if redis.call('HLEN', c) >= tonumber(ARGV[7]) then return 'invoice_full' end
  redis.call('HSET', c, ARGV[4], ARGV[5])
  return 'watching'
end
if redis.call('SCARD', t) >= tonumber(ARGV[6]) then return 'workspace_full' end
if ARGV[10] ~= '' and askerWatches(p, team, ARGV[11]) >= tonumber(ARGV[10]) then return 'asker_full' end
redis.call('HSET', w, unpack(cjson.decode(ARGV[9])))
redis.call('HSET', c, ARGV[4], ARGV[5])
redis.call('SADD', t, key)
redis.call('ZADD', p..':due', ARGV[8], key)
return 'watching'`,
);

export const ROOM = redisScript(
  "watch room",
  0,
  `--[[
  Whether one more card would fit (ADD_CARD's limits), changing nothing.
    Input (keys from the prefix: P:w:<key>, P:c:<key>, P:team:<team>, and P:c:* of the team):
      ARGV[1] prefix P, ARGV[2] watch key, ARGV[3] team,
      ARGV[4] most watches per workspace, ARGV[5] most cards per watch,
      ARGV[6] most watches per asker ('' for no limit), ARGV[7] the asker's user id
    Output:
      'watching' (it fits), 'invoice_full', 'workspace_full', 'asker_full'
]]${ASKER_WATCHES}
local p, key, team = ARGV[1], ARGV[2], ARGV[3]
if redis.call('EXISTS', p..':w:'..key) == 1 then
  if redis.call('HLEN', p..':c:'..key) >= tonumber(ARGV[5]) then return 'invoice_full' end
  return 'watching'
end
if redis.call('SCARD', p..':team:'..team) >= tonumber(ARGV[4]) then return 'workspace_full' end
if ARGV[6] ~= '' and askerWatches(p, team, ARGV[7]) >= tonumber(ARGV[6]) then return 'asker_full' end
return 'watching'`,
);

export const REMOVE = redisScript(
  "watch remove",
  0,
  `--[[
  Ends a watch; with a lease, only while that claim holds it.
    Input (keys from the prefix: P:w:<key>, P:c:<key>, P:due, P:team:<team>):
      ARGV[1] prefix P, ARGV[2] watch key, ARGV[3] team, ARGV[4] the claim's token ('' for none)
    Output:
      1 ended (or there was none), 0 another claim holds it
]]
local p, key, team = ARGV[1], ARGV[2], ARGV[3]
local w = p..':w:'..key
if ARGV[4] ~= '' and redis.call('EXISTS', w) == 1 and redis.call('HGET', w, 'lease') ~= ARGV[4] then return 0 end
redis.call('DEL', p..':w:'..key, p..':c:'..key)
redis.call('ZREM', p..':due', key)
redis.call('SREM', p..':team:'..team, key)
return 1`,
);

export const REMOVE_CARD = redisScript(
  "watch removeCard",
  0,
  `--[[
  Removes a card; the watch ends with its last card.
    Input (keys from the prefix: P:c:<key>, P:w:<key>, P:due, P:team:<team>):
      ARGV[1] prefix P, ARGV[2] watch key, ARGV[3] team, ARGV[4] card id
    Output:
      1
]]
local p, key, team = ARGV[1], ARGV[2], ARGV[3]
redis.call('HDEL', p..':c:'..key, ARGV[4])
if redis.call('HLEN', p..':c:'..key) == 0 then
  redis.call('DEL', p..':w:'..key)
  redis.call('ZREM', p..':due', key)
  redis.call('SREM', p..':team:'..team, key)
end
return 1`,
);

export const REMOVE_TEAM = redisScript(
  "watch removeTeam",
  0,
  `--[[
  Ends every watch of a workspace.
    Input (keys from the prefix: P:team:<team>, and P:w:*, P:c:* of its watches, P:due):
      ARGV[1] prefix P, ARGV[2] team
    Output:
      how many watches it ended
]]
local p, team = ARGV[1], ARGV[2]
local keys = redis.call('SMEMBERS', p..':team:'..team)
for _, key in ipairs(keys) do
  redis.call('DEL', p..':w:'..key, p..':c:'..key)
  redis.call('ZREM', p..':due', key)
end
redis.call('DEL', p..':team:'..team)
return #keys`,
);
