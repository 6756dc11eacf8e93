/**
 * A family declared once (src/store/claims/family.ts): its states read and written through their
 * schemas, and its one read-change-compare-and-set loop, which loses no change to a racing one.
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import type { ClaimBoard } from "../../src/store/claims/board.js";
import { boardOnFirstUse, defineFamily, FamilyBusyError } from "../../src/store/claims/family.js";
import { memoryClaimBoard } from "../support/memory-claim-board.js";

const COUNTERS = defineFamily({
  name: "test-counter",
  fields: { count: z.object({ n: z.number().int().min(0) }) },
  kept: "for the test",
});

describe("a family on the claim board", () => {
  it("reads through the field's schema: none, a value, or unreadable (raw kept for the swap)", async () => {
    const board = memoryClaimBoard();
    expect(await COUNTERS.read(board, "a", "count")).toEqual({ raw: undefined, value: undefined });
    await board.swapState("test-counter", "a", "count", undefined, { n: "three" });
    expect(await COUNTERS.read(board, "a", "count")).toEqual({ raw: { n: "three" }, value: undefined });
    await board.swapState("test-counter", "a", "count", { n: "three" }, { n: 3 });
    expect((await COUNTERS.read(board, "a", "count")).value).toEqual({ n: 3 });
  });

  it("never writes a value its schema refuses", async () => {
    const board = memoryClaimBoard();
    await expect(COUNTERS.swap(board, "a", "count", undefined, { n: -1 })).rejects.toThrow();
    expect(await board.readState("test-counter", "a", "count")).toBeUndefined();
  });

  it("loses no change when many run at once: each is asked again with what is stored now", async () => {
    const board = memoryClaimBoard();
    const add = () =>
      COUNTERS.update(
        board,
        "a",
        "count",
        async (stored) => {
          await new Promise((resolve) => setImmediate(resolve));
          const n = (stored.value?.n ?? 0) + 1;
          return { next: { n }, result: n };
        },
        100,
      );
    const results = await Promise.all(Array.from({ length: 20 }, add));
    expect([...results].sort((x, y) => x - y)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    expect((await COUNTERS.read(board, "a", "count")).value).toEqual({ n: 20 });
  });

  it("a change that writes nothing answers at once; one that keeps losing gives up, saying so", async () => {
    const board = memoryClaimBoard();
    expect(await COUNTERS.update(board, "a", "count", () => ({ result: "nothing" }))).toBe("nothing");
    let n = 0;
    const busy = COUNTERS.update(board, "a", "count", async (stored) => {
      // Another change lands between this read and its swap, every time.
      await board.swapState("test-counter", "a", "count", stored.raw, { n: ++n });
      return { next: { n: 0 }, result: "mine" };
    });
    await expect(busy).rejects.toBeInstanceOf(FamilyBusyError);
  });

  it("opens the board once, and again after a failed opening", async () => {
    let opened = 0;
    const board = memoryClaimBoard();
    const open = boardOnFirstUse(async (): Promise<ClaimBoard> => {
      opened += 1;
      if (opened === 1) throw new Error("store down");
      return board;
    });
    await expect(open()).rejects.toThrow("store down");
    expect(await open()).toBe(board);
    expect(await open()).toBe(board);
    expect(opened).toBe(2);
  });
});

describe("shared state changed through its family", () => {
  it("has no compare-and-set outside src/store/claims: every change goes through a family's swap or update", async () => {
    const { readdirSync, readFileSync } = await import("node:fs");
    const { join } = await import("node:path");
    const files = (readdirSync("src", { recursive: true }) as string[]).filter(
      (path) => path.endsWith(".ts") && !path.startsWith(join("store", "claims")),
    );
    const direct = files.filter((path) => /\.swapState\(/.test(readFileSync(join("src", path), "utf8")));
    expect(direct).toEqual([]);
  });
});
