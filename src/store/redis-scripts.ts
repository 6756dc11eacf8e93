import { createHash } from "node:crypto";
import type { RedisConnection } from "./connection.js";

// Every Lua script Kassa runs in Redis goes through here (test/store/redis-scripts.test.ts keeps
// it so): a script is sent by its SHA1 (EVALSHA), and its text only when the server does not know it
// yet (first use, or after a restart or SCRIPT FLUSH emptied the script cache), as BullMQ does.

/** A Lua script as data: its text begins with a header (Purpose, Input, Output) in BullMQ's style. */
export type RedisScript = {
  /** Names it in errors. */
  readonly name: string;
  /** How many KEYS it takes; the rest of its input is ARGV. */
  readonly keys: number;
  readonly lua: string;
  /** SHA1 of `lua` in hex, as Redis names a loaded script. */
  readonly sha: string;
};

/** Declares a script; its text must open with the --[[ … ]] header saying what it takes and returns. */
export function redisScript(name: string, keys: number, lua: string): RedisScript {
  const header = /^\s*--\[\[([\s\S]*?)\]\]/.exec(lua)?.[1] ?? "";
  if (!/\bInput\b[\s\S]*\bOutput:/.test(header))
    throw new Error(`Redis script ${name} must open with a --[[ … Input … Output: … ]] header`);
  return { name, keys, lua, sha: createHash("sha1").update(lua).digest("hex") };
}

/** What Redis says to EVALSHA when its script cache does not hold the script. */
function isNoScript(error: unknown): boolean {
  return error instanceof Error && error.message.startsWith("NOSCRIPT");
}

/**
 * Runs `script` by its SHA with `keys` as KEYS and `args` as ARGV. On NOSCRIPT it loads the script
 * (SCRIPT LOAD) and tries once more; any other error is the script's own and is thrown as it is, not
 * retried (the script may have written before it failed).
 */
export async function runRedisScript(
  client: RedisConnection,
  script: RedisScript,
  keys: string[],
  args: Array<string | number>,
): Promise<unknown> {
  if (keys.length !== script.keys)
    throw new Error(`Redis script ${script.name} takes ${script.keys} keys, given ${keys.length}`);
  const options = { keys, arguments: args.map(String) };
  try {
    return await client.evalSha(script.sha, options);
  } catch (error) {
    if (!isNoScript(error)) throw error;
  }
  await client.scriptLoad(script.lua);
  return client.evalSha(script.sha, options);
}
