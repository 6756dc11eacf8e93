import { z } from "zod";
import type { RedisConnection } from "../connection.js";
import { type RedisScript, redisScript, runRedisScript } from "../redis-scripts.js";
import { DEFAULT_PREFIX, redisSchemaKey } from "./names.js";
import { BASELINE_VERSION, refuseNewer, refuseOlder } from "./version.js";

// Redis keeps no structure to set up (keys come into being when written): a new store's version key
// is set to the baseline (BASELINE_VERSION, where release 63116c6 left every store), and the steps
// after it are data moves a release may need, each a Lua body run with the version check in the
// same script.

/** One numbered step: what it does, and its Lua, run with ARGV[1] the prefix. */
export type RedisStep = { purpose: string; lua: string };

/** The steps after the baseline: REDIS_STEPS[0] is step BASELINE_VERSION + 1. */
export const REDIS_STEPS: RedisStep[] = [
  // 9: the audit trail's head has been apart from its entries on Redis from the start (P:audit:T:head).
  { purpose: "nothing to move: the audit trail's heads are kept apart already", lua: "" },
];

/**
 * The keys releases before the schema version wrote under a prefix P (the feed's and the live
 * cards' under P:, leases, callback keys, exports owed) and, under the store's own, its Keyv
 * namespaces and once-only claims: any one of them makes a store with no version an old one.
 */
function olderKeys(prefix: string): string[] {
  const own = prefix === DEFAULT_PREFIX;
  const namespaces = own
    ? [
        "credentials",
        "settings",
        "feedsubs",
        "cardowners",
        "callbacks",
        "exportsowed",
        "kassa-leases",
        "kassa-claims",
      ]
    : [`${prefix}-leases`, `${prefix}-callbacks`, `${prefix}-exportsowed`];
  return [`${prefix}:`, ...namespaces.map((namespace) => `${namespace}::`)];
}

/** A new store's version key set to the baseline, unless the keys hold what an older release wrote. */
const BASELINE = redisScript(
  "schema baseline",
  1,
  `--[[
  The schema's baseline: a store with no version and none of the keys older releases wrote gets the
  version BASELINE_VERSION; Redis runs the script alone, so two replicas starting together agree.
    Input:
      KEYS[1] the version key (P:schema)
      ARGV[1] the baseline version, ARGV[2...] the starts of the keys older releases wrote
    Output:
      the version found (0: the baseline was set), or -1 when the keys hold older data
]]
local found = tonumber(redis.call('GET', KEYS[1]) or '0')
if found ~= 0 then return found end
local function glob(text) return (string.gsub(text, '([%*%?%[%]\\\\])', '\\\\%1')) end
for i = 2, #ARGV do
  local cursor = '0'
  repeat
    local page = redis.call('SCAN', cursor, 'MATCH', glob(ARGV[i]) .. '*', 'COUNT', 1000)
    if #page[2] > 0 then return -1 end
    cursor = page[1]
  until cursor == '0'
end
redis.call('SET', KEYS[1], ARGV[1])
return 0`,
);

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
 * Brings the keys under `prefix` to the last step: the baseline for a new store, then each missing
 * step one script, which Redis runs with nothing in between, so of two replicas starting together
 * one runs it and the other finds it done. Refuses a store newer than this release knows, or older
 * than it upgrades. Returns the version.
 */
export async function applyRedisSchema(
  client: RedisConnection,
  prefix: string,
  steps = REDIS_STEPS,
): Promise<number> {
  const key = redisSchemaKey(prefix);
  const last = BASELINE_VERSION + steps.length;
  let current = z.coerce
    .number()
    .int()
    .parse((await client.get(key)) ?? 0);
  refuseNewer(current, last, key);
  refuseOlder(current, false, key);
  if (current === 0) {
    const found = z
      .number()
      .parse(await runRedisScript(client, BASELINE, [key], [BASELINE_VERSION, ...olderKeys(prefix)]));
    refuseNewer(found, last, key);
    refuseOlder(Math.max(found, 0), found < 0, key);
    current = Math.max(found, BASELINE_VERSION);
  }
  for (let step = current + 1; step <= last; step++) {
    const script = stepScript(steps[step - BASELINE_VERSION - 1] ?? { purpose: "none", lua: "" }, step);
    const found = await runRedisScript(client, script, [key], [prefix, step]);
    refuseNewer(z.number().parse(found), last, key);
  }
  return last;
}
