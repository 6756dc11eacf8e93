import { randomUUID } from "node:crypto";
import { z } from "zod";
import type { RedisConnection } from "../connection.js";
import { runRedisScript } from "../redis-scripts.js";
import type { ClaimBoard, Enlisting, KeyClaim } from "./board.js";
import { parseState, stateText } from "./board.js";
import {
  CLAIM_DUE,
  CLAIM_KEY,
  DROP,
  ENLIST_WITH,
  NUDGE,
  RELEASE,
  RENEW,
  SWAP_STATE,
  SWAP_STATE_ALONG,
  WRITE_STATE,
} from "./redis-scripts.js";

const claimedSchema = z.array(z.string());
const keyClaimSchema = z.tuple([z.literal(1)]).or(z.tuple([z.literal(0), z.string()]));

/** An item enlisted along a write, as the scripts' arguments: key, due time, field, state. */
const alongArgs = (item: Enlisting) => [item.key, item.dueAt, item.field, JSON.stringify(item.state)];

/** Where a family's due list, an item and an item's states are kept under `prefix`. */
function keysOf(prefix: string) {
  return {
    due: (family: string) => `${prefix}:due:${family}`,
    item: (family: string, key: string) => `${prefix}:i:${family}:${key}`,
    states: (family: string, key: string) => `${prefix}:s:${family}:${key}`,
  };
}

type StateSteps = "readState" | "writeState" | "deleteState" | "swapState" | "enlistWith";

/** The claim board in Redis (one server, as the store itself is; not Redis Cluster). */
export function redisClaimBoard(client: RedisConnection, prefix: string): ClaimBoard {
  const { due, item, states } = keysOf(prefix);
  return {
    ...redisSchedule(client, prefix),
    async readState(family, key, field) {
      const text = await client.hGet(states(family, key), field);
      return typeof text === "string" ? parseState(text) : undefined;
    },
    async writeState(family, key, field, token, state) {
      const keys = [item(family, key), states(family, key)];
      return (await runRedisScript(client, WRITE_STATE, keys, [token, field, JSON.stringify(state)])) === 1;
    },
    async deleteState(family, key, field) {
      await client.hDel(states(family, key), field);
    },
    async swapState(family, key, field, expected, replacement, along) {
      // A state's text is JSON, never empty: '' stands for none.
      const args = [field, stateText(expected) ?? "", stateText(replacement) ?? ""];
      if (!along) return (await runRedisScript(client, SWAP_STATE, [states(family, key)], args)) === 1;
      const keys = [states(family, key), due(along.family), states(along.family, along.key)];
      return (await runRedisScript(client, SWAP_STATE_ALONG, keys, [...args, ...alongArgs(along)])) === 1;
    },
    async enlistWith(item) {
      const keys = [due(item.family), states(item.family, item.key)];
      await runRedisScript(client, ENLIST_WITH, keys, alongArgs(item));
    },
  };
}

/** The items: their schedule and claims. */
function redisSchedule(client: RedisConnection, prefix: string): Omit<ClaimBoard, StateSteps> {
  const { due, item, states } = keysOf(prefix);
  return {
    async enlist(family, key, dueAt) {
      await client.zAdd(due(family), { score: dueAt, value: key }, { condition: "NX" });
    },
    async claimDue(family, now, leaseMs, limit) {
      if (limit <= 0) return [];
      const args = [`${prefix}:i:${family}:`, now, leaseMs, limit, randomUUID()];
      const flat = claimedSchema.parse(await runRedisScript(client, CLAIM_DUE, [due(family)], args));
      const claims = [];
      for (let i = 0; i + 1 < flat.length; i += 2)
        claims.push({ key: flat[i] as string, token: flat[i + 1] as string });
      return claims;
    },
    async claimKey(family, key, token, now, leaseMs, info = ""): Promise<KeyClaim> {
      const answer = keyClaimSchema.parse(
        await runRedisScript(client, CLAIM_KEY, [item(family, key)], [token, now, now + leaseMs, info]),
      );
      return answer[0] === 1 ? { held: true } : { held: false, info: answer[1] || undefined };
    },
    async renew(family, key, token, now, leaseMs) {
      const keys = [due(family), item(family, key)];
      return (await runRedisScript(client, RENEW, keys, [key, token, now + leaseMs, leaseMs, now])) === 1;
    },
    async release(family, key, token, next) {
      const keys = [due(family), item(family, key), states(family, key)];
      const when = next === "forget" ? "forget" : next.dueAt;
      return (await runRedisScript(client, RELEASE, keys, [key, token, when])) === 1;
    },
    async nudge(family, key, now) {
      await runRedisScript(client, NUDGE, [due(family), item(family, key)], [key, now]);
    },
    async sweep() {
      // Items claimed by key expire with their lease (PEXPIRE): nothing is left to sweep.
      return 0;
    },
    async drop(family, key) {
      await runRedisScript(client, DROP, [due(family), item(family, key), states(family, key)], [key]);
    },
  };
}
