/** The Lua scripts of the Redis watch queue (redis-queue.ts) that claim due watches and act under a claim. */

import { redisScript } from "../store/redis-scripts.js";

// The keys are those of redis-scripts.ts. A claim marks the watch's hash with its token (field
// 'lease'); a step given a token acts only while that claim still holds the watch.

export const CLAIM = redisScript(
  "watch claimDue",
  0,
  `--[[
  Takes the due watches, pushes each one's due time ahead by the lease and marks it with the claim's
  token, in one step; a due entry whose watch is gone is dropped.
    Input (keys from the prefix: P:due, and P:w:*, P:c:* of the due watches):
      ARGV[1] prefix P, ARGV[2] now (ms), ARGV[3] most watches to take, ARGV[4] lease (ms),
      ARGV[5] the claim's token
    Output:
      one {watch fields as [name, value, ...], card JSONs} per watch taken
]]
local p, now, max, lease = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4])
local keys = redis.call('ZRANGEBYSCORE', p..':due', '-inf', now, 'LIMIT', 0, max)
local out = {}
for _, key in ipairs(keys) do
  local fields = redis.call('HGETALL', p..':w:'..key)
  if #fields == 0 then
    redis.call('ZREM', p..':due', key)
  else
    redis.call('ZADD', p..':due', now + lease, key)
    redis.call('HSET', p..':w:'..key, 'lease', ARGV[5])
    table.insert(out, {redis.call('HGETALL', p..':w:'..key), redis.call('HVALS', p..':c:'..key)})
  end
end
return out`,
);

export const RESCHEDULE = redisScript(
  "watch reschedule",
  0,
  `--[[
  Moves the due time only while the watch exists (it may have been stopped meanwhile) and, with a
  lease, only while that claim holds it; the claim ends. A nudge during the claim (nudgedAt) wins
  when it is sooner.
    Input (keys from the prefix: P:w:<key>, P:due):
      ARGV[1] prefix P, ARGV[2] watch key, ARGV[3] due time (ms),
      ARGV[4] fields to set, JSON [name, value, ...], ARGV[5] the claim's token ('' for none)
    Output:
      1 moved, 0 the watch is gone or another claim holds it
]]
local p, key = ARGV[1], ARGV[2]
if redis.call('EXISTS', p..':w:'..key) == 0 then return 0 end
if ARGV[5] ~= '' and redis.call('HGET', p..':w:'..key, 'lease') ~= ARGV[5] then return 0 end
local due = tonumber(ARGV[3])
local nudged = tonumber(redis.call('HGET', p..':w:'..key, 'nudgedAt') or '')
if nudged and nudged < due then due = nudged end
redis.call('HDEL', p..':w:'..key, 'lease', 'nudgedAt')
redis.call('ZADD', p..':due', 'XX', due, key)
redis.call('HSET', p..':w:'..key, unpack(cjson.decode(ARGV[4])))
return 1`,
);

export const SET_CARD = redisScript(
  "watch setCard",
  0,
  `--[[
  Replaces a card's JSON only while the card is still there (and the claim, if any, holds the watch).
    Input (keys from the prefix: P:c:<key>, P:w:<key>):
      ARGV[1] prefix P, ARGV[2] watch key, ARGV[3] card id, ARGV[4] card JSON,
      ARGV[5] the claim's token ('' for none)
    Output:
      1 replaced, 0 the card is gone or another claim holds the watch
]]
local c = ARGV[1]..':c:'..ARGV[2]
if redis.call('HEXISTS', c, ARGV[3]) == 0 then return 0 end
if ARGV[5] ~= '' and redis.call('HGET', ARGV[1]..':w:'..ARGV[2], 'lease') ~= ARGV[5] then return 0 end
redis.call('HSET', c, ARGV[3], ARGV[4])
return 1`,
);

export const DUE_BY = redisScript(
  "watch dueBy",
  0,
  `--[[
  Due by the given time at the latest: the score only moves down (ZADD LT). A watch under a claim is
  not made claimable again (a second read beside the first); its nudgedAt is set instead, which the
  claim's reschedule honours.
    Input (keys from the prefix: P:w:<key>, P:due):
      ARGV[1] prefix P, ARGV[2] watch key, ARGV[3] the time (ms)
    Output:
      1, 0 the watch is gone
]]
local w = ARGV[1]..':w:'..ARGV[2]
if redis.call('EXISTS', w) == 0 then return 0 end
if (redis.call('HGET', w, 'lease') or '') ~= '' then
  local nudged = tonumber(redis.call('HGET', w, 'nudgedAt') or '')
  if not nudged or tonumber(ARGV[3]) < nudged then redis.call('HSET', w, 'nudgedAt', ARGV[3]) end
else
  redis.call('ZADD', ARGV[1]..':due', 'XX', 'LT', ARGV[3], ARGV[2])
end
return 1`,
);

export const TELL = redisScript(
  "watch tell",
  0,
  `--[[
  Tell once: the state and amounts move on only from what the caller saw (and while its claim, if
  any, holds the watch).
    Input (keys from the prefix: P:w:<key>):
      ARGV[1] prefix P, ARGV[2] watch key, ARGV[3] state seen, ARGV[4] amounts seen,
      ARGV[5] new state, ARGV[6] new amounts, ARGV[7] invoice snapshot JSON,
      ARGV[8] the claim's token ('' for none)
    Output:
      1 this caller moved it on, 0 it had moved already or another claim holds it
]]
local w = ARGV[1]..':w:'..ARGV[2]
local seen = redis.call('HMGET', w, 'state', 'amounts', 'lease')
if seen[1] ~= ARGV[3] or seen[2] ~= ARGV[4] then return 0 end
if ARGV[8] ~= '' and seen[3] ~= ARGV[8] then return 0 end
redis.call('HSET', w, 'state', ARGV[5], 'amounts', ARGV[6], 'invoice', ARGV[7])
return 1`,
);

export const TAKE_READ = redisScript(
  "watch takeRead",
  1,
  `--[[
  Reserves the register's next read slot, slots a spacing apart; the key lapses once its slot is past.
    Input:
      KEYS[1] when the register's next read may start (ms)
      ARGV[1] now (ms), ARGV[2] spacing (ms), ARGV[3] longest wait (ms)
    Output:
      the wait in ms, or -1 when the slot is more than the longest wait away (nothing reserved)
]]
local now = tonumber(ARGV[1])
local slot = math.max(tonumber(redis.call('GET', KEYS[1]) or ARGV[1]), now)
if slot - now > tonumber(ARGV[3]) then return -1 end
redis.call('SET', KEYS[1], slot + tonumber(ARGV[2]), 'PX', slot - now + tonumber(ARGV[2]) + 1000)
return slot - now`,
);

export const RENEW = redisScript(
  "watch renew",
  0,
  `--[[
  Renews a claim: the due time moves on while the claim still holds the watch.
    Input (keys from the prefix: P:w:<key>, P:due):
      ARGV[1] prefix P, ARGV[2] watch key, ARGV[3] the claim's token, ARGV[4] new due time (ms)
    Output:
      1 renewed, 0 the claim no longer holds it
]]
if redis.call('HGET', ARGV[1]..':w:'..ARGV[2], 'lease') ~= ARGV[3] then return 0 end
redis.call('ZADD', ARGV[1]..':due', 'XX', ARGV[4], ARGV[2])
return 1`,
);
