import Keyv from "keyv";
import { describe, expect, it } from "vitest";
import { FeedRunner } from "../../src/feed/runner.js";
import { FeedStore } from "../../src/feed/store.js";
import { createLogger } from "../../src/util/logger.js";

/** A history read that waits until the test lets it answer. */
function heldReader() {
  const reads: Array<() => void> = [];
  return {
    reads,
    reader: {
      history: () =>
        new Promise<{ entries: []; hasNextPage: boolean; unreadable: number }>((resolve) => {
          reads.push(() => resolve({ entries: [], hasNextPage: false, unreadable: 0 }));
        }),
      invoice: () => Promise.reject(new Error("not read in this test")),
      methodFor: async () => undefined,
    },
  };
}

describe("FeedRunner.checkSoon", () => {
  it("reads once more after the read under way when told of a change during it, never two at once", async () => {
    const feeds = new FeedStore(new Keyv(), new Keyv(), new Keyv());
    await feeds.subscribe("T1", { channel: "C1", mode: "paid", by: "U1", now: Date.now() });
    const { reads, reader } = heldReader();
    const runner = new FeedRunner(
      {
        feeds,
        reader,
        claimOnce: async () => true,
        slack: async () => undefined,
        logger: createLogger("silent"),
      },
      { intervalMs: 60_000 },
    );
    runner.checkSoon("T1");
    await expect.poll(() => reads.length).toBe(1);
    // Two callbacks while the first read is under way: one read after it, not two, not beside it.
    runner.checkSoon("T1");
    runner.checkSoon("T1");
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(reads.length).toBe(1);
    reads[0]?.();
    await expect.poll(() => reads.length).toBe(2);
    reads[1]?.();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(reads.length).toBe(2);
    await runner.close(100);
  });
});
