import { afterEach, describe, expect, it } from "vitest";
import { createLogger } from "../../src/util/logger.js";
import { BoardWatchQueue } from "../../src/watch/board-queue.js";
import { Watcher } from "../../src/watch/watcher.js";
import { ManualClock } from "../support/manual-clock.js";
import { memoryClaimBoard } from "../support/memory-claim-board.js";
import { unpaidInvoice } from "../support/watch-fixtures.js";

let watcher: Watcher | undefined;
afterEach(async () => {
  await watcher?.close(100);
  watcher = undefined;
});

describe("the watcher's pace", () => {
  it("claims the next batch at once after a full one, instead of waiting a tick per batch", async () => {
    const clock = new ManualClock();
    const queue = new BoardWatchQueue(memoryClaimBoard());
    // 600 watches due now: more than two claim batches (256 each), over 60 workspaces, each of its
    // own register (so no read budget holds one back).
    for (let index = 0; index < 600; index += 1) {
      const team = `T${Math.floor(index / 10)}`;
      const invoiceId = `inv${index}`;
      const seed = {
        team,
        invoiceId,
        register: `R${index}`,
        state: "notpayed",
        amounts: "a0",
        invoice: unpaidInvoice(invoiceId),
      };
      const card = {
        kind: "channel" as const,
        channel: "C1",
        ts: `1.${index}`,
        user: "U1",
        postedState: "notpayed",
      };
      await queue.addCard(seed, card, { maxPerWorkspace: 10, firstDueInMs: 0, now: clock.now() - 1000 });
    }
    const read = new Set<string>();
    const reader = {
      invoice: async (_team: string, id: string) => {
        read.add(id);
        return unpaidInvoice(id);
      },
      methodFor: async () => undefined,
    };
    const options = {
      // A tick of 1 s (a quarter of the interval, at most 1 s): three batches a tick apart take 2 s.
      intervalMs: 30_000,
      maxHours: 24,
      maxPerWorkspace: 10,
      maxReadsPerSecond: 100,
      leaseMs: 10_000,
      storeTimeoutMs: 1000,
    };
    watcher = new Watcher(queue, reader, async () => undefined, options, createLogger("silent"), clock);
    watcher.start();
    // The clock never moves: each batch's pass ends, and the next one is due at once.
    for (let step = 0; step < 20 && read.size < 600; step += 1) await clock.advance(0);
    expect(read.size).toBe(600);
  });
});
