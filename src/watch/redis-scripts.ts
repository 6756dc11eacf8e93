/** The Lua scripts of the Redis watch queue (redis-queue.ts). */

// Redis: every step replicas could race on is one Lua script, which Redis runs atomically.
// Keys (P = prefix): P:due sorted set of watch keys by due time; P:w:<key> hash of the watch's
// fields; P:c:<key> hash of its cards by card id; P:team:<team> set of the team's watch keys;
// P:rps:<register>:<second> the register's reads in that second. Scripts name keys from the
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

export const ADD_CARD = `${ASKER_WATCHES}
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
return 'watching'`;

export const ROOM = `${ASKER_WATCHES}
local p, key, team = ARGV[1], ARGV[2], ARGV[3]
if redis.call('EXISTS', p..':w:'..key) == 1 then
  if redis.call('HLEN', p..':c:'..key) >= tonumber(ARGV[5]) then return 'invoice_full' end
  return 'watching'
end
if redis.call('SCARD', p..':team:'..team) >= tonumber(ARGV[4]) then return 'workspace_full' end
if ARGV[6] ~= '' and askerWatches(p, team, ARGV[7]) >= tonumber(ARGV[6]) then return 'asker_full' end
return 'watching'`;

/** Ends a watch; with a lease (ARGV[4] not empty), only while that claim holds it. */
export const REMOVE = `
local p, key, team = ARGV[1], ARGV[2], ARGV[3]
local w = p..':w:'..key
if ARGV[4] ~= '' and redis.call('EXISTS', w) == 1 and redis.call('HGET', w, 'lease') ~= ARGV[4] then return 0 end
redis.call('DEL', p..':w:'..key, p..':c:'..key)
redis.call('ZREM', p..':due', key)
redis.call('SREM', p..':team:'..team, key)
return 1`;

export const REMOVE_CARD = `
local p, key, team = ARGV[1], ARGV[2], ARGV[3]
redis.call('HDEL', p..':c:'..key, ARGV[4])
if redis.call('HLEN', p..':c:'..key) == 0 then
  redis.call('DEL', p..':w:'..key)
  redis.call('ZREM', p..':due', key)
  redis.call('SREM', p..':team:'..team, key)
end
return 1`;

export const REMOVE_TEAM = `
local p, team = ARGV[1], ARGV[2]
local keys = redis.call('SMEMBERS', p..':team:'..team)
for _, key in ipairs(keys) do
  redis.call('DEL', p..':w:'..key, p..':c:'..key)
  redis.call('ZREM', p..':due', key)
end
redis.call('DEL', p..':team:'..team)
return #keys`;

/** Takes the due watches, pushes each one's due time ahead by the lease and marks it with the claim's token (ARGV[5]), in one step. */
export const CLAIM = `
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
return out`;

/**
 * Moves the due time only while the watch exists (it may have been stopped meanwhile) and, with a
 * lease (ARGV[5] not empty), only while that claim holds it; the claim ends.
 */
export const RESCHEDULE = `
local p, key = ARGV[1], ARGV[2]
if redis.call('EXISTS', p..':w:'..key) == 0 then return 0 end
if ARGV[5] ~= '' and redis.call('HGET', p..':w:'..key, 'lease') ~= ARGV[5] then return 0 end
local due = tonumber(ARGV[3])
local nudged = tonumber(redis.call('HGET', p..':w:'..key, 'nudgedAt') or '')
if nudged and nudged < due then due = nudged end
redis.call('HDEL', p..':w:'..key, 'lease', 'nudgedAt')
redis.call('ZADD', p..':due', 'XX', due, key)
redis.call('HSET', p..':w:'..key, unpack(cjson.decode(ARGV[4])))
return 1`;

/** Replaces a card's JSON only while the card is still there (and the claim ARGV[5], if any, holds the watch). */
export const SET_CARD = `
local c = ARGV[1]..':c:'..ARGV[2]
if redis.call('HEXISTS', c, ARGV[3]) == 0 then return 0 end
if ARGV[5] ~= '' and redis.call('HGET', ARGV[1]..':w:'..ARGV[2], 'lease') ~= ARGV[5] then return 0 end
redis.call('HSET', c, ARGV[3], ARGV[4])
return 1`;

/**
 * Due by ARGV[3] at the latest: the score only moves down (ZADD LT). A watch under a claim is not
 * made claimable again (a second read beside the first); the claim's reschedule honours the nudge.
 */
export const DUE_BY = `
local w = ARGV[1]..':w:'..ARGV[2]
if redis.call('EXISTS', w) == 0 then return 0 end
if (redis.call('HGET', w, 'lease') or '') ~= '' then
  local nudged = tonumber(redis.call('HGET', w, 'nudgedAt') or '')
  if not nudged or tonumber(ARGV[3]) < nudged then redis.call('HSET', w, 'nudgedAt', ARGV[3]) end
else
  redis.call('ZADD', ARGV[1]..':due', 'XX', 'LT', ARGV[3], ARGV[2])
end
return 1`;

/** Tell once: the state and amounts move on only from what the caller saw (and while its claim ARGV[8], if any, holds). */
export const TELL = `
local w = ARGV[1]..':w:'..ARGV[2]
local seen = redis.call('HMGET', w, 'state', 'amounts', 'lease')
if seen[1] ~= ARGV[3] or seen[2] ~= ARGV[4] then return 0 end
if ARGV[8] ~= '' and seen[3] ~= ARGV[8] then return 0 end
redis.call('HSET', w, 'state', ARGV[5], 'amounts', ARGV[6], 'invoice', ARGV[7])
return 1`;

/**
 * Reserves the register's next read slot (KEYS[1] holds when it starts) at now ARGV[1], slots ARGV[2]
 * ms apart: the wait in ms, or -1 when the slot is more than ARGV[3] ms away (nothing reserved).
 */
export const TAKE_READ = `
local now = tonumber(ARGV[1])
local slot = math.max(tonumber(redis.call('GET', KEYS[1]) or ARGV[1]), now)
if slot - now > tonumber(ARGV[3]) then return -1 end
redis.call('SET', KEYS[1], slot + tonumber(ARGV[2]), 'PX', slot - now + tonumber(ARGV[2]) + 1000)
return slot - now`;

/** Renews a claim: the due time moves to ARGV[4] while the claim ARGV[3] still holds the watch. */
export const RENEW = `
if redis.call('HGET', ARGV[1]..':w:'..ARGV[2], 'lease') ~= ARGV[3] then return 0 end
redis.call('ZADD', ARGV[1]..':due', 'XX', ARGV[4], ARGV[2])
return 1`;
