/**
 * A one-line /payout sent twice (src/payouts/repeats.ts) on the claim board, in memory and on SQLite:
 * the first claims the line for the window, a repeat learns how the first went, and once the window
 * has passed the same line is a first again, with nothing of the older one read as its outcome.
 */
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { claimLine, lineKey, noteLine, REPEAT_WINDOW_MS } from "../../src/payouts/repeats.js";
import {
  ENGINES,
  NOW,
  openPayoutWorld,
  type PayoutWorld,
  REQUESTER,
  removeSqliteDir,
} from "./payout-world.js";

afterAll(removeSqliteDir);

const later = (ms: number) => new Date(NOW.getTime() + ms);

describe.each(ENGINES)("a repeated one-line request on $name", (engine) => {
  let world: PayoutWorld;
  beforeEach(async () => {
    world = await openPayoutWorld(engine);
  });
  afterEach(async () => {
    await world.close();
  });

  it("is a repeat of the first within the window: under way, then pointed at what the first became", async () => {
    const key = lineKey(world.registerKey, REQUESTER, "1500 CARDRUBP2P 2200700012345678 Rent");
    const first = await claimLine(world.deps, key, NOW);
    if (!first.first) throw new Error("the first line was taken as a repeat");
    expect(await claimLine(world.other, key, later(1000))).toEqual({
      first: false,
      earlier: undefined,
    });
    await noteLine(world.deps, first, { kind: "requested", id: "810000001_a", channel: "C0PAY1" });
    expect(await claimLine(world.other, key, later(2000))).toEqual({
      first: false,
      earlier: { kind: "requested", id: "810000001_a", channel: "C0PAY1" },
    });
    // Another person's, or another text, is a line of its own.
    const other = lineKey(world.registerKey, "U0ALI2", "1500 CARDRUBP2P 2200700012345678 Rent");
    expect((await claimLine(world.deps, other, later(2000))).first).toBe(true);
    // Past the window the same line is a first again, and the old outcome is not taken for its own.
    const again = await claimLine(world.other, key, later(REPEAT_WINDOW_MS + 1));
    expect(again.first).toBe(true);
    expect(await claimLine(world.deps, key, later(REPEAT_WINDOW_MS + 2))).toEqual({
      first: false,
      earlier: undefined,
    });
  });
});
