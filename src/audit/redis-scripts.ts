import { redisScript } from "../store/redis-scripts.js";

// The trail's one step in Redis that must be atomic, as a script Redis runs alone. Keys (P = the
// trail's prefix, T = a team): P:T:head hash (seq, hash and at of the newest entry, first: the
// oldest kept number), P:T:entries hash of each entry's stored link (JSON) by its number, P:T:at
// sorted set of the numbers (zero-padded to 12 digits, so equal times keep their order) by time (ms);
// P:teams set of the teams with a chain.

export const APPEND_ON_HEAD = redisScript(
  "audit append on head",
  4,
  `--[[
  Appends an entry to a team's chain only while the chain's head is the one the entry's hash was
  computed on; first removes the entries numbered up to ARGV[6] when that is above 0 (retention,
  whose own entry this is), in the same step.
    Input:
      KEYS[1] P:T:head, KEYS[2] P:T:entries, KEYS[3] P:T:at, KEYS[4] P:teams
      ARGV[1] the expected head's number ('0': the chain has none), ARGV[2] its hash ('' for none),
      ARGV[3] the entry's number (ARGV[1] + 1), ARGV[4] its time (ms), ARGV[5] its stored link (JSON),
      ARGV[6] remove the entries numbered up to this first ('0': none), ARGV[7] the entry's hash,
      ARGV[8] the team T
    Output:
      1 appended, 0 the head was another (nothing written: read it again)
]]
if (redis.call('HGET', KEYS[1], 'seq') or '0') ~= ARGV[1] then return 0 end
if (redis.call('HGET', KEYS[1], 'hash') or '') ~= ARGV[2] then return 0 end
local seq = tonumber(ARGV[3])
if seq ~= tonumber(ARGV[1]) + 1 then return 0 end
local first = tonumber(redis.call('HGET', KEYS[1], 'first') or ARGV[3])
local through = tonumber(ARGV[6])
if through >= first then
  for old = first, through do
    redis.call('HDEL', KEYS[2], old)
    redis.call('ZREM', KEYS[3], string.format('%012d', old))
  end
  first = through + 1
end
redis.call('HSET', KEYS[2], ARGV[3], ARGV[5])
redis.call('ZADD', KEYS[3], ARGV[4], string.format('%012d', seq))
redis.call('HSET', KEYS[1], 'seq', ARGV[3], 'hash', ARGV[7], 'at', ARGV[4], 'first', first)
redis.call('SADD', KEYS[4], ARGV[8])
return 1`,
);
