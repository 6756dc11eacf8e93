/**
 * A register disconnected or uninstalled forgets its methods watch and every method's switch record
 * (src/method-watch/state.ts MethodWatches.forget, src/paymethods/switch-state.ts
 * MethodSwitchRecords.forget): the records are listed per register as they are written, so none is
 * left behind; another register's stay.
 */
import { describe, expect, it } from "vitest";
import { DEFAULT_FAILURE_RULE, DEFAULT_SILENCE_RULE, MethodWatches } from "../../src/method-watch/state.js";
import { changeSwitch, MethodSwitchRecords, NO_SWITCH } from "../../src/paymethods/switch-state.js";
import { memoryClaimBoard } from "../support/memory-claim-board.js";

const MAIN = "T0SHOP";
const OTHER = "T0SHOP~cafe";

const switched = (id: string, on: boolean) => ({
  v: 1 as const,
  last: { id, want: { on }, on, surcharge: "0", by: "U0ADMIN", at: 5 },
  done: [id],
});

describe("forgetting a register's methods", () => {
  it("drops every method's switch record of the register, and only its", async () => {
    const board = memoryClaimBoard();
    const records = new MethodSwitchRecords(async () => board);
    for (const [key, code] of [
      [MAIN, "BITCOIN"],
      [MAIN, "CARDRUBP2P"],
      [MAIN, "BITCOIN"],
      [OTHER, "BITCOIN"],
    ] as const)
      await changeSwitch(board, key, code, () => ({ next: switched(`v-${code}`, false), result: true }));
    expect((await records.read(MAIN, "CARDRUBP2P")).last?.by).toBe("U0ADMIN");

    await records.forget(MAIN);

    expect(await records.read(MAIN, "BITCOIN")).toEqual(NO_SWITCH);
    expect(await records.read(MAIN, "CARDRUBP2P")).toEqual(NO_SWITCH);
    expect((await records.read(OTHER, "BITCOIN")).last?.on).toBe(false);
    // Written again after, a record is listed again and forgotten again.
    await changeSwitch(board, MAIN, "QIWI", () => ({ next: switched("v2", true), result: true }));
    await records.forget(MAIN);
    expect(await records.read(MAIN, "QIWI")).toEqual(NO_SWITCH);
  });

  it("drops the register's watch, settings and all", async () => {
    const board = memoryClaimBoard();
    const watches = new MethodWatches(async () => board);
    const settings = {
      channel: "C0ALERTS",
      mention: [],
      failure: DEFAULT_FAILURE_RULE,
      silence: DEFAULT_SILENCE_RULE,
      by: "U0ADMIN",
      at: "2026-11-28T21:00:00.000Z",
    };
    await watches.set(MAIN, settings, 1000);
    await watches.set(OTHER, settings, 1000);
    await watches.forget(MAIN);
    expect((await watches.read(MAIN)).settings).toBeUndefined();
    expect((await watches.read(OTHER)).settings).toEqual(settings);
  });
});
