import { redisScript } from "../redis-scripts.js";

// The claim board's steps in Redis, each one script that Redis runs alone. Keys (P = the board's
// prefix, F = the family, K = an item's key): P:due:F sorted set of the family's items by the time
// they may next be claimed (their due time, or while claimed, the lease's end); P:i:F:K hash of the
// item (owner: the claim's token, until: the lease's end, nudged: when a nudge came during the
// claim, else 0, info: who holds it); P:s:F:K hash of the item's states by field.

export const CLAIM_DUE = redisScript(
  "claims claim due",
  1,
  `--[[
  Claims the family's due items whose claim is free or lapsed: each gets its own token, the lease's
  end, and a due time pushed to that end.
    Input:
      KEYS[1] P:due:F
      ARGV[1] the item hashes' prefix P:i:F:, ARGV[2] now (ms), ARGV[3] lease (ms),
      ARGV[4] most items to claim, ARGV[5] base of the tokens (each is "<base>:<n>")
    Output:
      [key, token, key, token, ...] of the items claimed, oldest due first
]]
local items, now, lease, limit, base = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4]), ARGV[5]
local out, n = {}, 0
for _, key in ipairs(redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', now, 'LIMIT', 0, limit)) do
  local item = items..key
  if (tonumber(redis.call('HGET', item, 'until')) or 0) <= now then
    n = n + 1
    local token = base..':'..n
    redis.call('HSET', item, 'owner', token, 'until', now + lease, 'nudged', 0)
    redis.call('ZADD', KEYS[1], now + lease, key)
    out[#out + 1] = key
    out[#out + 1] = token
  end
end
return out`,
);

export const CLAIM_KEY = redisScript(
  "claims claim key",
  1,
  `--[[
  Claims one item that lives only while held (a lease, a once-only claim) with the caller's token:
  taken when the family lacks it, its lease has run out, or the token holds it already (then
  renewed). The item's hash expires with the lease.
    Input:
      KEYS[1] P:i:F:K
      ARGV[1] token, ARGV[2] now (ms), ARGV[3] the lease's end (ms), ARGV[4] info
    Output:
      [1] taken, or [0, info] held by another claim
]]
local now = tonumber(ARGV[2])
local owner = redis.call('HGET', KEYS[1], 'owner')
if owner and owner ~= ARGV[1] and (tonumber(redis.call('HGET', KEYS[1], 'until')) or 0) > now then
  return {0, redis.call('HGET', KEYS[1], 'info') or ''}
end
redis.call('HSET', KEYS[1], 'owner', ARGV[1], 'until', ARGV[3], 'nudged', 0, 'info', ARGV[4])
redis.call('PEXPIRE', KEYS[1], math.max(1, tonumber(ARGV[3]) - now))
return {1}`,
);

export const RENEW = redisScript(
  "claims renew",
  2,
  `--[[
  Extends a claim while its token still holds the item and its lease has not run out (an item that
  lives only while held expires later too).
    Input:
      KEYS[1] P:due:F, KEYS[2] P:i:F:K
      ARGV[1] K, ARGV[2] token, ARGV[3] the lease's new end (ms), ARGV[4] the lease (ms), ARGV[5] now (ms)
    Output:
      1 extended, 0 the token no longer holds the item, or its lease has run out
]]
if redis.call('HGET', KEYS[2], 'owner') ~= ARGV[2] then return 0 end
if (tonumber(redis.call('HGET', KEYS[2], 'until')) or 0) <= tonumber(ARGV[5]) then return 0 end
redis.call('HSET', KEYS[2], 'until', ARGV[3])
if redis.call('PTTL', KEYS[2]) > 0 then redis.call('PEXPIRE', KEYS[2], ARGV[4]) end
redis.call('ZADD', KEYS[1], 'XX', ARGV[3], ARGV[1])
return 1`,
);

export const RELEASE = redisScript(
  "claims release",
  3,
  `--[[
  Ends a claim: the item is free and due at the given time (or at the nudge's, if one came during
  the claim), or forgotten with its states.
    Input:
      KEYS[1] P:due:F, KEYS[2] P:i:F:K, KEYS[3] P:s:F:K
      ARGV[1] K, ARGV[2] token, ARGV[3] due time (ms), or "forget"
    Output:
      1 released, 0 the token no longer holds the item (nothing changed)
]]
if redis.call('HGET', KEYS[2], 'owner') ~= ARGV[2] then return 0 end
if ARGV[3] == 'forget' then
  redis.call('DEL', KEYS[2], KEYS[3])
  redis.call('ZREM', KEYS[1], ARGV[1])
  return 1
end
local due = tonumber(ARGV[3])
local nudged = tonumber(redis.call('HGET', KEYS[2], 'nudged')) or 0
if nudged > 0 and nudged < due then due = nudged end
redis.call('HSET', KEYS[2], 'owner', '', 'until', 0, 'nudged', 0, 'info', '')
redis.call('ZADD', KEYS[1], due, ARGV[1])
return 1`,
);

export const NUDGE = redisScript(
  "claims nudge",
  2,
  `--[[
  Makes an item due at once; one claimed now is due again right after its release.
    Input:
      KEYS[1] P:due:F, KEYS[2] P:i:F:K
      ARGV[1] K, ARGV[2] now (ms)
    Output:
      1 nudged, 0 the family has no such item
]]
local now = tonumber(ARGV[2])
local score = redis.call('ZSCORE', KEYS[1], ARGV[1])
if not score then return 0 end
if (tonumber(redis.call('HGET', KEYS[2], 'until')) or 0) > now then
  redis.call('HSET', KEYS[2], 'nudged', now)
elseif tonumber(score) > now then
  redis.call('ZADD', KEYS[1], now, ARGV[1])
end
return 1`,
);

export const WRITE_STATE = redisScript(
  "claims write state",
  2,
  `--[[
  Writes one of an item's states while the writer's token holds the item.
    Input:
      KEYS[1] P:i:F:K, KEYS[2] P:s:F:K
      ARGV[1] token, ARGV[2] field, ARGV[3] state (JSON)
    Output:
      1 written, 0 refused (the token no longer holds the item)
]]
if redis.call('HGET', KEYS[1], 'owner') ~= ARGV[1] then return 0 end
redis.call('HSET', KEYS[2], ARGV[2], ARGV[3])
return 1`,
);

export const SWAP_STATE = redisScript(
  "claims swap state",
  1,
  `--[[
  Compare-and-set of one of an item's states, whoever holds the item ('' stands for none: a state
  is JSON, never the empty text).
    Input:
      KEYS[1] P:s:F:K
      ARGV[1] field, ARGV[2] the text it must hold, ARGV[3] the text it holds afterwards ('' deletes it)
    Output:
      1 swapped, 0 the state held something else (nothing changed)
]]
local current = redis.call('HGET', KEYS[1], ARGV[1]) or ''
if current ~= ARGV[2] then return 0 end
if ARGV[3] == '' then redis.call('HDEL', KEYS[1], ARGV[1]) else redis.call('HSET', KEYS[1], ARGV[1], ARGV[3]) end
return 1`,
);

export const DROP = redisScript(
  "claims drop",
  3,
  `--[[
  Forgets an item: its schedule, claim and states.
    Input:
      KEYS[1] P:due:F, KEYS[2] P:i:F:K, KEYS[3] P:s:F:K
      ARGV[1] K
    Output:
      1
]]
redis.call('DEL', KEYS[2], KEYS[3])
redis.call('ZREM', KEYS[1], ARGV[1])
return 1`,
);

/** The Lua that enlists an item with one state: KEYS[k] P:due:F2, KEYS[k + 1] P:s:F2:K2; ARGV[a..a + 3]. */
const enlistWith = (k: number, a: number) => `
redis.call('ZADD', KEYS[${k}], 'NX', ARGV[${a + 1}], ARGV[${a}])
redis.call('HSET', KEYS[${k + 1}], ARGV[${a + 2}], ARGV[${a + 3}])`;

export const SWAP_STATE_ALONG = redisScript(
  "claims swap state along",
  3,
  `--[[
  As "claims swap state", and when the swap lands, in the same step, another item (family F2, key K2)
  is enlisted (its schedule kept if it has one) with one state written: what the write owes.
    Input:
      KEYS[1] P:s:F:K, KEYS[2] P:due:F2, KEYS[3] P:s:F2:K2
      ARGV[1] field, ARGV[2] the text it must hold, ARGV[3] the text it holds afterwards ('' deletes it),
      ARGV[4] K2, ARGV[5] its due time (ms), ARGV[6] its state's field, ARGV[7] that state (JSON)
    Output:
      1 swapped (and enlisted), 0 the state held something else (nothing changed)
]]
local current = redis.call('HGET', KEYS[1], ARGV[1]) or ''
if current ~= ARGV[2] then return 0 end
if ARGV[3] == '' then redis.call('HDEL', KEYS[1], ARGV[1]) else redis.call('HSET', KEYS[1], ARGV[1], ARGV[3]) end${enlistWith(2, 4)}
return 1`,
);

export const ENLIST_WITH = redisScript(
  "claims enlist with",
  2,
  `--[[
  Enlists an item (family F2, key K2; its schedule kept if it has one) with one state written.
    Input:
      KEYS[1] P:due:F2, KEYS[2] P:s:F2:K2
      ARGV[1] K2, ARGV[2] its due time (ms), ARGV[3] its state's field, ARGV[4] that state (JSON)
    Output:
      1
]]${enlistWith(1, 1)}
return 1`,
);
