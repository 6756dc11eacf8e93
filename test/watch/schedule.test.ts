import { describe, expect, it } from "vitest";
import { readIntervalMs } from "../../src/watch/decide.js";

const options = { intervalMs: 30_000, maxReadsPerSecond: 2 };
const MINUTE = 60_000;

describe("how often a live card's invoice is read", () => {
  it("in its first hour: every WATCH_INTERVAL_MS while the register's budget allows, never blind backoff", () => {
    // One register holding 10 watches at 2 reads a second: each can be read every 5 s; 30 s is the floor.
    expect(readIntervalMs(options, 10, 40 * MINUTE, 30_000)).toBe(30_000);
    expect(readIntervalMs(options, 10, 40 * MINUTE, 600_000)).toBe(30_000);
  });

  it("shares the register's budget: 200 watches at 2 reads a second are each read every 100 s", () => {
    expect(readIntervalMs(options, 200, 10 * MINUTE, 30_000)).toBe(100_000);
    expect(readIntervalMs({ intervalMs: 100, maxReadsPerSecond: 100 }, 1, 0, 100)).toBe(100);
  });

  it("after an hour, slows down by half each read towards 5 minutes, never below the budget's pace", () => {
    expect(readIntervalMs(options, 10, 61 * MINUTE, 30_000)).toBe(45_000);
    expect(readIntervalMs(options, 10, 3 * 60 * MINUTE, 290_000)).toBe(300_000);
    expect(readIntervalMs(options, 1000, 2 * 60 * MINUTE, 30_000)).toBe(500_000);
  });
});
