import type { RedisClientConnectionType } from "@keyv/redis";
import { z } from "zod";
import { redisSchemaKey } from "./names.js";
import { refuseNewer } from "./version.js";

// Redis keeps no structure to set up (keys come into being when written), so its steps are data
// moves a release may need: each a Lua body run with the version check in the same script.

/** One numbered step: Lua run with KEYS[1] the version key and ARGV[1] the prefix. */
export type RedisStep = string;

export const REDIS_STEPS: RedisStep[] = [
  // 1: nothing to move; the version key is written so later steps have a place.
  "",
];

/** Runs a step only while the version is the one before it; returns the version found. */
const stepScript = (body: string) => `
local found = tonumber(redis.call('GET', KEYS[1]) or '0')
if found ~= tonumber(ARGV[2]) - 1 then return found end
${body}
redis.call('SET', KEYS[1], ARGV[2])
return found`;

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
    const found = await client.eval(stepScript(steps[step - 1] ?? ""), {
      keys: [key],
      arguments: [prefix, String(step)],
    });
    refuseNewer(z.number().parse(found), steps.length, key);
  }
  return steps.length;
}
