import { describe, expect, it } from "vitest";
import { ALL_CALM, assess, failureLevel, HOUR_MS, silenceLimit } from "../../src/method-watch/assess.js";
import {
  DAY_MS,
  FigureCounter,
  type MethodFigures,
  pastMoments,
  zoneOffsetMs,
} from "../../src/method-watch/figures.js";
import { DEFAULT_FAILURE_RULE, DEFAULT_SILENCE_RULE } from "../../src/method-watch/state.js";

const NOW = Date.parse("2026-11-28T12:00:00Z"); // 15:00 in Moscow
const MIN = 60_000;
const invoice = (method: string | null, state: string, at: number) => ({
  method,
  state,
  createdAt: { epochSeconds: Math.floor(at / 1000) },
});

function counted(invoices: ReturnType<typeof invoice>[], zone = "Europe/Moscow"): Map<string, MethodFigures> {
  const counter = new FigureCounter(NOW, 60 * MIN, zone);
  for (const one of invoices) counter.add(one);
  return counter.finish();
}

describe("FigureCounter", () => {
  it("counts the window's invoices, failures and wrong amounts apart; the test method and no method never", () => {
    const figures = counted([
      ...Array.from({ length: 9 }, (_, i) =>
        invoice("BITCOIN", i % 2 ? "failed" : "unavailable", NOW - i * MIN),
      ),
      ...Array.from({ length: 5 }, (_, i) => invoice("BITCOIN", "payed", NOW - (10 + i) * MIN)),
      invoice("BITCOIN", "wrongamount", NOW - 20 * MIN),
      invoice("BITCOIN", "notpayed", NOW - 30 * MIN),
      invoice("BITCOIN", "failed", NOW - 61 * MIN), // before the window
      invoice("TEST", "failed", NOW - MIN),
      invoice(null, "notpayed", NOW - MIN),
      invoice("BITCOIN", "failed", NOW + MIN), // after now: not yet
      invoice("BITCOIN", "failed", NOW - 29 * DAY_MS), // older than 28 days
    ]);
    expect([...figures.keys()]).toEqual(["BITCOIN"]);
    const bitcoin = figures.get("BITCOIN");
    expect(bitcoin?.window).toEqual({ invoices: 15, failures: 9, wrongAmounts: 1 });
    expect(bitcoin?.before).toEqual({ invoices: 1, failures: 1 });
    expect(bitcoin?.lastPaidAt).toBe(NOW - 10 * MIN);
  });

  it("gives the usual quiet at this time of day: the median over the days of the time since the last payment", () => {
    // Paid every day at 14:40 Moscow (20 min before now's 15:00), and on three days also at 10:00.
    const paid = Array.from({ length: 28 }, (_, day) =>
      invoice("USDTTRC", "payed", NOW - (day + 1) * DAY_MS - 20 * MIN),
    );
    const morning = [1, 2, 3].map((day) => invoice("USDTTRC", "payed", NOW - day * DAY_MS - 5 * HOUR_MS));
    expect(counted([...paid, ...morning]).get("USDTTRC")?.usualQuietMs).toBe(20 * MIN);
  });

  it("has no usual for a method paid on fewer than seven of the days, nor for one never paid", () => {
    const six = Array.from({ length: 6 }, (_, day) =>
      invoice("ETH", "payed", NOW - (day + 1) * DAY_MS - 1000),
    );
    const figures = counted([
      ...six,
      invoice("TON", "failed", NOW - MIN),
      invoice("TON", "failed", NOW - 20 * DAY_MS),
    ]);
    expect(figures.get("ETH")?.usualQuietMs).toBeUndefined();
    expect(figures.get("ETH")?.lastPaidAt).toBe(NOW - DAY_MS - 1000);
    expect(figures.get("TON")?.usualQuietMs).toBeUndefined();
    expect(figures.get("TON")?.lastPaidAt).toBeUndefined();
  });

  it("takes only the days the history covers", () => {
    // History from 10 days back only: ten moments, each an hour after a payment.
    const paid = Array.from({ length: 10 }, (_, day) =>
      invoice("BITCOIN", "payed", NOW - (day + 1) * DAY_MS - HOUR_MS),
    );
    const figures = counted(paid);
    expect(figures.get("BITCOIN")?.usualQuietMs).toBe(HOUR_MS);
    expect(pastMoments(NOW, "UTC", NOW - 10.5 * DAY_MS)).toHaveLength(10);
  });

  it("keeps the wall-clock time across a clock change of the zone", () => {
    const now = Date.parse("2026-11-03T17:00:00Z"); // 09:00 in Los Angeles (PST, after 1 November)
    const moments = pastMoments(now, "America/Los_Angeles", 0);
    expect(new Date(moments[0] as number).toISOString()).toBe("2026-11-02T17:00:00.000Z");
    // Before 1 November the zone was on PDT: 09:00 there is 16:00 UTC.
    expect(new Date(moments[2] as number).toISOString()).toBe("2026-10-31T16:00:00.000Z");
    expect(zoneOffsetMs(now, "Europe/Moscow")).toBe(3 * HOUR_MS);
    expect(zoneOffsetMs(now, "Asia/Kathmandu")).toBe(5.75 * HOUR_MS);
  });
});

const figures = (change: Partial<MethodFigures> = {}): MethodFigures => ({
  code: "BITCOIN",
  window: { invoices: 0, failures: 0, wrongAmounts: 0 },
  before: { invoices: 100, failures: 5 },
  lastPaidAt: NOW - 10 * MIN,
  usualQuietMs: 20 * MIN,
  ...change,
});

describe("assess", () => {
  it.each([
    // invoices, failures → level (rule: 40 % of at least 8)
    [14, 9, "trouble"],
    [8, 4, "trouble"], // 50 %
    [10, 4, "trouble"], // exactly 40 %
    [7, 7, "between"], // too few invoices to alert, too many failures to be calm
    [10, 3, "between"], // 30 %: above half the threshold
    [10, 2, "between"], // exactly 20 % is not below half
    [11, 2, "calm"],
    [0, 0, "calm"],
  ] as const)("%i invoices with %i failures: %s", (invoices, failures, level) => {
    expect(
      failureLevel(figures({ window: { invoices, failures, wrongAmounts: 0 } }), DEFAULT_FAILURE_RULE),
    ).toBe(level);
  });

  it.each([
    // usual quiet, rule → limit
    [20 * MIN, DEFAULT_SILENCE_RULE, 2 * HOUR_MS], // 4 × 20 min is under the 2 h floor
    [HOUR_MS, DEFAULT_SILENCE_RULE, 4 * HOUR_MS],
    [undefined, DEFAULT_SILENCE_RULE, undefined], // no usual: nothing to say
    [undefined, { mode: "fixed", hours: 6 }, 6 * HOUR_MS],
    [HOUR_MS, { mode: "off" }, undefined],
  ] as const)("usual quiet %s under %j: limit %s", (usualQuietMs, rule, limit) => {
    expect(silenceLimit(figures({ usualQuietMs }), rule)).toBe(limit);
  });

  it.each([
    // minutes since the last payment → silence level (limit 2 h)
    [121, "trouble"],
    [120, "between"],
    [61, "between"],
    [59, "calm"],
  ] as const)("%i min without a payment: %s", (minutes, level) => {
    const rules = { failure: DEFAULT_FAILURE_RULE, silence: DEFAULT_SILENCE_RULE };
    expect(assess(figures({ lastPaidAt: NOW - minutes * MIN }), rules, NOW).silence).toBe(level);
  });

  it("says nothing of a method never paid, whatever its failures", () => {
    const rules = { failure: DEFAULT_FAILURE_RULE, silence: DEFAULT_SILENCE_RULE };
    const never = figures({ lastPaidAt: undefined, window: { invoices: 20, failures: 20, wrongAmounts: 0 } });
    expect(assess(never, rules, NOW)).toEqual(ALL_CALM);
    expect(assess(undefined, rules, NOW)).toEqual(ALL_CALM);
  });
});
