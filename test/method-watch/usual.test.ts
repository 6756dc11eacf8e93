import { describe, expect, it } from "vitest";
import type { MethodFigures } from "../../src/method-watch/figures.js";
import { USUAL_FRESH_MS, UsualFigures, withUsual } from "../../src/method-watch/usual.js";

const NOW = Date.parse("2026-11-28T12:00:00Z");
const WINDOW = 60 * 60_000;

const figures = (code: string, over: Partial<MethodFigures>): MethodFigures => ({
  code,
  window: { invoices: 0, failures: 0, wrongAmounts: 0 },
  before: { invoices: 0, failures: 0 },
  lastPaidAt: undefined,
  usualQuietMs: undefined,
  ...over,
});

describe("the usual figures built on for an hour", () => {
  it("serves a whole read of the same window for under an hour, then not", () => {
    const usual = new UsualFigures();
    usual.remember("T1", { at: NOW, windowMs: WINDOW, figures: new Map() });
    expect(usual.recent("T1", NOW + USUAL_FRESH_MS - 1, WINDOW)).toBeDefined();
    expect(usual.recent("T1", NOW + USUAL_FRESH_MS, WINDOW)).toBeUndefined();
    // Another failure window (the form changed): read whole again.
    expect(usual.recent("T1", NOW + 1, 30 * 60_000)).toBeUndefined();
    expect(usual.recent("T2", NOW + 1, WINDOW)).toBeUndefined();
    usual.forget("T1");
    expect(usual.recent("T1", NOW + 1, WINDOW)).toBeUndefined();
  });

  it("drops the registers' reads past their hour when it keeps a new one", () => {
    const usual = new UsualFigures();
    usual.remember("T1", { at: NOW, windowMs: WINDOW, figures: new Map() });
    usual.remember("T2", { at: NOW + USUAL_FRESH_MS, windowMs: WINDOW, figures: new Map() });
    expect(usual.recent("T1", NOW + 10, WINDOW)).toBeUndefined();
  });

  it("takes the window and newer payments from the short read, the 28 days before and the usual quiet from the whole", () => {
    const whole = new Map([
      [
        "BITCOIN",
        figures("BITCOIN", {
          before: { invoices: 1000, failures: 50 },
          lastPaidAt: NOW - 5,
          usualQuietMs: 1800_000,
        }),
      ],
      [
        "USDTTRC",
        figures("USDTTRC", {
          before: { invoices: 500, failures: 0 },
          lastPaidAt: NOW - 100,
          usualQuietMs: 3600_000,
        }),
      ],
    ]);
    const short = new Map([
      [
        "BITCOIN",
        figures("BITCOIN", {
          window: { invoices: 14, failures: 9, wrongAmounts: 1 },
          lastPaidAt: NOW + 600_000,
        }),
      ],
      [
        "NEWCOIN",
        figures("NEWCOIN", { window: { invoices: 2, failures: 0, wrongAmounts: 0 }, usualQuietMs: 5 }),
      ],
    ]);
    const merged = withUsual(short, { at: NOW, windowMs: WINDOW, figures: whole });
    expect(merged.get("BITCOIN")).toEqual({
      code: "BITCOIN",
      window: { invoices: 14, failures: 9, wrongAmounts: 1 },
      before: { invoices: 1000, failures: 50 },
      lastPaidAt: NOW + 600_000,
      usualQuietMs: 1800_000,
    });
    // Not paid since the whole read: its last payment and usual stand; nothing in the window.
    expect(merged.get("USDTTRC")).toEqual({
      code: "USDTTRC",
      window: { invoices: 0, failures: 0, wrongAmounts: 0 },
      before: { invoices: 500, failures: 0 },
      lastPaidAt: NOW - 100,
      usualQuietMs: 3600_000,
    });
    // New since the whole read: no usual yet (a short read never makes one).
    expect(merged.get("NEWCOIN")?.usualQuietMs).toBeUndefined();
    expect(merged.get("NEWCOIN")?.before).toEqual({ invoices: 0, failures: 0 });
  });
});
