import { randomUUID } from "node:crypto";
import { sometimes } from "../connection.js";
import type { ClaimBoard } from "./board.js";

/** The board's family of once-only claims (KeyvStore.claimOnce): items that live while held. */
const FAMILY = "once";

/**
 * claimOnce on the claim board: true for exactly one caller per key until `ttlMs` has passed; with
 * `owner`, true again for that owner while its claim holds.
 */
export function claimOnceOn(board: ClaimBoard) {
  return async (key: string, ttlMs: number, owner?: string): Promise<boolean> => {
    const now = Date.now();
    // Lapsed claims are swept now and then (Redis lets them expire instead).
    if (sometimes()) await board.sweep(FAMILY, now);
    const token = owner ?? `once:${randomUUID()}`;
    return (await board.claimKey(FAMILY, key, token, now, Math.max(1, Math.round(ttlMs)))).held;
  };
}
