/**
 * The outside-payout watch's stored state (src/money-alerts/payout-watch-state.ts), read through its
 * schema: the release before's (v1) is read as v2 following no quote; anything else unreadable reads
 * as no state, so the watch starts again by noting what is there (never a false alarm); a write that
 * does not fit the schema, or under a lost claim, writes nothing.
 */
import { describe, expect, it } from "vitest";
import { PAYOUT_WATCH_FAMILY } from "../../src/money-alerts/alerts.js";
import { readWatchState, writeWatchState } from "../../src/money-alerts/payout-watch-state.js";
import { memoryClaimBoard } from "../support/memory-claim-board.js";

const KEY = "T0WATCH";

describe("the payout watch's stored state", () => {
  it("reads the release before's v1 as v2, following no quote", async () => {
    const board = memoryClaimBoard();
    await board.swapState(PAYOUT_WATCH_FAMILY, KEY, "seen", undefined, {
      v: 1,
      ids: ["p2", "p1"],
      audited: ["p2"],
    });
    expect(await readWatchState(board, KEY)).toEqual({
      v: 2,
      ids: ["p2", "p1"],
      audited: ["p2"],
      quotes: [],
    });
  });

  it("reads a state it cannot read as none (the watch notes what is there again)", async () => {
    const board = memoryClaimBoard();
    for (const bad of [
      "text",
      { v: 3, ids: [] },
      { v: 2, ids: "p1", quotes: [] },
      { v: 2, ids: [], quotes: [{ id: 5 }] },
    ]) {
      await board.deleteState(PAYOUT_WATCH_FAMILY, KEY, "seen");
      await board.swapState(PAYOUT_WATCH_FAMILY, KEY, "seen", undefined, bad);
      expect(await readWatchState(board, KEY)).toBeUndefined();
    }
  });

  it("writes only under the claim, and keeps a read carried over", async () => {
    const board = memoryClaimBoard();
    await board.enlist(PAYOUT_WATCH_FAMILY, KEY, 0);
    const [claim] = await board.claimDue(PAYOUT_WATCH_FAMILY, 1, 60_000, 1);
    if (!claim) throw new Error("not claimed");
    const state = {
      v: 2 as const,
      ids: ["p1"],
      quotes: [{ id: "q1", since: 5 }],
      read: { page: 4, until: "p1", met: false, quotes: [{ id: "q2", since: 6 }] },
    };
    expect(await writeWatchState(board, KEY, claim.token, state)).toBe(true);
    expect(await readWatchState(board, KEY)).toEqual(state);
    expect(await writeWatchState(board, KEY, "another-token", { ...state, ids: [] })).toBe(false);
    expect((await readWatchState(board, KEY))?.ids).toEqual(["p1"]);
  });
});
