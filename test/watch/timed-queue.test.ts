import { describe, expect, it } from "vitest";
import { StoreCallError } from "../../src/store/deadline.js";
import { createLogger } from "../../src/util/logger.js";
import { BoardWatchQueue } from "../../src/watch/board-queue.js";
import type { WatchQueue } from "../../src/watch/model.js";
import { timedQueue } from "../../src/watch/timed-queue.js";
import { Watcher } from "../../src/watch/watcher.js";
import { memoryClaimBoard } from "../support/memory-claim-board.js";
import { unpaidInvoice } from "../support/watch-fixtures.js";

const never = new Promise<never>(() => undefined);

/** The local queue, with the named steps hanging as on a stalled Redis or PostgreSQL. */
async function hangingQueue(hang: Array<keyof WatchQueue>): Promise<WatchQueue> {
  const queue = new BoardWatchQueue(memoryClaimBoard());
  return new Proxy(queue, {
    get(target, name, receiver) {
      const value = Reflect.get(target, name, receiver);
      if (typeof value !== "function") return value;
      return hang.includes(name as keyof WatchQueue) ? () => never : value.bind(target);
    },
  });
}

const options = {
  intervalMs: 1000,
  maxHours: 24,
  maxPerWorkspace: 10,
  maxReadsPerSecond: 5,
  leaseMs: 10_000,
  storeTimeoutMs: 100,
};

describe("the watch queue's deadlines", () => {
  it("ends a watcher pass with a StoreCallError when the store hangs, instead of holding every card", async () => {
    const reader = { invoice: async () => unpaidInvoice("inv1"), methodFor: async () => undefined };
    const watcher = new Watcher(
      await hangingQueue(["claimDue"]),
      reader,
      async () => undefined,
      options,
      createLogger("silent"),
    );
    const started = performance.now();
    await expect(watcher.pass()).rejects.toBeInstanceOf(StoreCallError);
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it("bounds every step but tell, whose late compare-and-set must not be taken for a failure", async () => {
    const queue = timedQueue(await hangingQueue(["reschedule", "tell"]), 50);
    const patch = { intervalMs: 1000, lastCheckedAt: 0 };
    await expect(queue.reschedule("T1", "inv1", 0, patch)).rejects.toMatchObject({
      name: "StoreCallError",
      operation: "watch.reschedule",
    });
    const from = { state: "notpayed", amounts: "a0" };
    const told = queue.tell("T1", "inv1", from, { ...from, invoice: unpaidInvoice("inv1") });
    const outcome = await Promise.race([
      told.then(() => "settled"),
      new Promise((r) => setTimeout(r, 200, "waiting")),
    ]);
    expect(outcome).toBe("waiting");
  });
});
