/**
 * Lua scripts in Redis go by SHA (src/store/redis-scripts.ts): loaded once, loaded again after the
 * server forgot them, and that module is the only place in src/ that sends a script. The Redis part
 * runs when the run has Redis (test/support/engines.ts), and says so when it is skipped.
 */
import { randomBytes } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { createClient } from "@keyv/redis";
import { afterAll, describe, expect, it } from "vitest";
import type { RedisConnection } from "../../src/store/connection.js";
import { type KeyvStore, openStore } from "../../src/store/keyv.js";
import { type RedisScript, redisScript, runRedisScript } from "../../src/store/redis-scripts.js";
import { REDIS, sayWhatIsSkipped } from "../support/engines.js";

const SRC = resolve(import.meta.dirname, "../../src");
const SCRIPTS_MODULE = "store/redis-scripts.ts";
/** A call that sends a Lua script, in any of node-redis' spellings (eval, evalSha, EVALSHA_RO, ...). */
const SENDS_A_SCRIPT = /\.(eval(sha)?(_?ro)?|script_?load)\s*\(|["'`](eval(sha)?(_ro)?|script)["'`]/i;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith(".ts") ? [path] : [];
  });
}

describe("where scripts are sent", () => {
  it("the pattern finds a script sent by text, by SHA, loaded, or as a raw command", () => {
    for (const line of [
      "await client.eval(SWAP, { keys: [] })",
      "this.client.evalSha(sha, options)",
      "client.EVALSHA_RO(sha)",
      "client.scriptLoad(lua)",
      'client.sendCommand(["EVAL", lua, "0"])',
    ])
      expect(line).toMatch(SENDS_A_SCRIPT);
    expect("const evaluation = evaluate(rows)").not.toMatch(SENDS_A_SCRIPT);
  });

  it("only src/store/redis-scripts.ts sends one", () => {
    const senders = sourceFiles(SRC)
      .filter((file) => SENDS_A_SCRIPT.test(readFileSync(file, "utf8")))
      .map((file) => relative(SRC, file));
    expect(senders).toEqual([SCRIPTS_MODULE]);
  });
});

describe("declaring a script", () => {
  it("needs the header saying what it takes and returns; the SHA is Redis' name for the text", () => {
    expect(() => redisScript("bare", 0, "return 1")).toThrow(/header/);
    const script = redisScript("one", 0, "--[[\n  One.\n    Input: none\n    Output: 1\n]]\nreturn 1");
    // sha1 of the text, as SCRIPT LOAD would answer.
    expect(script.sha).toMatch(/^[0-9a-f]{40}$/);
  });
});

const redisUrl = REDIS.url;
sayWhatIsSkipped("redis scripts", [REDIS]);

/** This run's own script texts, keys and arguments: other runs may share the server. */
const RUN = `kassa-scripts-${randomBytes(5).toString("hex")}`;
const opened: Array<{ close(): Promise<unknown> }> = [];
afterAll(async () => {
  await Promise.all(opened.map((closable) => closable.close()));
});

describe.skipIf(!redisUrl)("running scripts on redis", () => {
  const connect = async (): Promise<RedisConnection> => {
    const store: KeyvStore = await openStore(redisUrl ?? "");
    opened.push(store);
    if (store.native?.kind !== "redis") throw new Error("expected a Redis store");
    return store.native.client;
  };

  /** Adds ARGV[1] to KEYS[1]; its text is this run's own (so is its SHA). */
  const add = (name: string): RedisScript =>
    redisScript(
      name,
      1,
      `--[[
  ${RUN} ${name}: adds to a counter.
    Input: KEYS[1] the counter, ARGV[1] how much
    Output: the new count
]]
return redis.call('INCRBY', KEYS[1], ARGV[1])`,
    );

  /** The commands sent to the server that mention this run, as MONITOR sees them (not those a script runs). */
  async function watchCommands(client: RedisConnection, steps: () => Promise<void>) {
    const monitor = createClient({ url: redisUrl ?? "" });
    await monitor.connect();
    const marker = `${RUN}-done-${randomBytes(3).toString("hex")}`;
    const seen: string[] = [];
    let sawMarker = () => {};
    const done = new Promise<void>((settle) => {
      sawMarker = settle;
    });
    // Awaited: the server watches from here on, before the steps run.
    await monitor.monitor((line: string) => {
      if (line.includes(marker)) sawMarker();
      else if (line.includes(RUN) && !/\[\d+ lua\]/.test(line))
        seen.push(/\] "([^"]+)"(?: "([^"]+)")?/.exec(line)?.slice(1, 3).join(" ") ?? line);
    });
    try {
      await steps();
      await client.echo(marker);
      await done;
    } finally {
      monitor.destroy();
    }
    return seen;
  }

  it("runs a script by its SHA, sending the text once", async () => {
    const client = await connect();
    const script = add("by-sha");
    const counter = `${RUN}:by-sha`;
    const seen = await watchCommands(client, async () => {
      expect(await runRedisScript(client, script, [counter], [2])).toBe(2);
      expect(await runRedisScript(client, script, [counter], [3])).toBe(5);
    });
    // The first EVALSHA finds no script (NOSCRIPT), so the text goes once; after that, the SHA only.
    expect(seen).toEqual([
      `EVALSHA ${script.sha}`,
      "SCRIPT LOAD",
      `EVALSHA ${script.sha}`,
      `EVALSHA ${script.sha}`,
    ]);
    expect(await client.scriptExists(script.sha)).toEqual([1]);
  });

  it("after SCRIPT FLUSH emptied the server's cache, the script is loaded again and runs", async () => {
    const client = await connect();
    const script = add("flushed");
    const counter = `${RUN}:flushed`;
    expect(await runRedisScript(client, script, [counter], [1])).toBe(1);
    await client.scriptFlush();
    expect(await client.scriptExists(script.sha)).toEqual([0]);
    expect(await runRedisScript(client, script, [counter], [1])).toBe(2);
    expect(await client.scriptExists(script.sha)).toEqual([1]);
  });

  it("an error of the script itself is thrown as it is, not run again", async () => {
    const client = await connect();
    const failing = redisScript(
      "failing",
      1,
      `--[[
  ${RUN} failing: counts its runs, then fails.
    Input: KEYS[1] the counter
    Output: an error, always
]]
redis.call('INCR', KEYS[1])
return redis.error_reply('KASSA_TEST the script failed')`,
    );
    const counter = `${RUN}:failing`;
    await expect(runRedisScript(client, failing, [counter], [])).rejects.toThrow("the script failed");
    expect(await client.get(counter)).toBe("1");
    await expect(runRedisScript(client, failing, [counter], [])).rejects.toThrow("the script failed");
    expect(await client.get(counter)).toBe("2");
  });

  it("refuses a call with the wrong number of keys before sending anything", async () => {
    const client = await connect();
    await expect(runRedisScript(client, add("keys"), [], [1])).rejects.toThrow(/takes 1 keys, given 0/);
  });
});
