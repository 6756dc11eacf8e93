import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  StoreCallError,
  storeMissedHere,
  withOneStoreWait,
  withStoreDeadline,
} from "../../src/store/deadline.js";

const DEADLINE_MS = 400;
/** A store call that never answers (a stalled engine). */
const stalled = () => new Promise<string>(() => {});

/** How a call ended, and after how many milliseconds of the fake clock. */
async function outcome(call: Promise<string>): Promise<string> {
  return call.then(
    (value) => `answered ${value}`,
    (error: unknown) => (error instanceof StoreCallError ? `${error.reason} ${error.operation}` : "other"),
  );
}

describe("withOneStoreWait: a request waits for a stalled store once", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("fails the request's later calls at once after one missed its deadline, for one deadline", async () => {
    await withOneStoreWait(async () => {
      const first = outcome(withStoreDeadline(stalled(), DEADLINE_MS, "claimOnce"));
      await vi.advanceTimersByTimeAsync(DEADLINE_MS);
      expect(await first).toBe("timeout claimOnce");
      expect(storeMissedHere(DEADLINE_MS)).toBe(true);
      // No time passes: the next call is refused without waiting.
      expect(await outcome(withStoreDeadline(stalled(), DEADLINE_MS, "get"))).toBe("timeout get");
      // A deadline later the store is asked again, and one that answers is heard.
      await vi.advanceTimersByTimeAsync(DEADLINE_MS);
      expect(storeMissedHere(DEADLINE_MS)).toBe(false);
      expect(await outcome(withStoreDeadline(Promise.resolve("v"), DEADLINE_MS, "get"))).toBe("answered v");
    });
  });

  it("leaves other requests, and calls outside any request, to their own deadlines", async () => {
    let other: Promise<string> = Promise.resolve("");
    await withOneStoreWait(async () => {
      const missed = outcome(withStoreDeadline(stalled(), DEADLINE_MS, "get"));
      await vi.advanceTimersByTimeAsync(DEADLINE_MS);
      await missed;
    });
    await withOneStoreWait(async () => {
      other = outcome(withStoreDeadline(Promise.resolve("v"), DEADLINE_MS, "get"));
    });
    expect(await other).toBe("answered v");
    expect(storeMissedHere(DEADLINE_MS)).toBe(false);
    const outside = outcome(withStoreDeadline(stalled(), DEADLINE_MS, "get"));
    await vi.advanceTimersByTimeAsync(DEADLINE_MS - 1);
    const settled = await Promise.race([outside, Promise.resolve("still waiting")]);
    expect(settled).toBe("still waiting");
    await vi.advanceTimersByTimeAsync(1);
    expect(await outside).toBe("timeout get");
  });
});
