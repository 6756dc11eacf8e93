import { describe, expect, it } from "vitest";
import {
  formatAmount,
  formatDecimal,
  formatMoney,
  minorUnits,
  padToMinorUnits,
} from "../../src/blocks/format.js";

describe("formatDecimal", () => {
  it("groups whole digits by three and keeps every decimal", () => {
    expect(formatDecimal("0")).toBe("0");
    expect(formatDecimal("12")).toBe("12");
    expect(formatDecimal("123")).toBe("123");
    expect(formatDecimal("1234")).toBe("1,234");
    expect(formatDecimal("123456")).toBe("123,456");
    expect(formatDecimal("1234567.0000001")).toBe("1,234,567.0000001");
    expect(formatDecimal("-1234567.5")).toBe("-1,234,567.5");
  });

  it("is linear: a million digits are grouped in one pass (the lookahead regex was quadratic)", () => {
    const grouped = formatDecimal("1".repeat(1_000_000));
    expect(grouped.length).toBe(1_000_000 + 333_333);
    expect(grouped.startsWith("1,111,")).toBe(true);
  });
});

describe("formatAmount: money as finance staff write it", () => {
  it("pads to the currency's ISO 4217 minor units and never rounds", () => {
    expect(formatAmount("1500.5", "RUB")).toBe("1,500.50 RUB");
    expect(formatAmount("1500.5", "RUB", "ru")).toBe("1\u00a0500,50 RUB");
    expect(formatAmount("1500", "USD")).toBe("1,500.00 USD");
    expect(formatAmount("-3", "rub")).toBe("-3.00 rub");
    expect(formatAmount("1500", "JPY")).toBe("1,500 JPY");
    expect(formatAmount("2.5", "KWD")).toBe("2.500 KWD");
    // More digits than the minor units: all kept, nothing rounded away.
    expect(formatAmount("0.123456", "RUB")).toBe("0.123456 RUB");
  });

  it("leaves codes outside ISO 4217 (crypto) with exactly the digits the service sent", () => {
    expect(minorUnits("BTC")).toBeUndefined();
    expect(minorUnits("USDT")).toBeUndefined();
    expect(formatAmount("0.0005", "BTC", "ru")).toBe("0,0005 BTC");
    expect(formatAmount("1", "USDT")).toBe("1 USDT");
    expect(padToMinorUnits("7", undefined)).toBe("7");
    expect(padToMinorUnits("not a number", "RUB")).toBe("not a number");
  });

  it("pads through formatMoney too, but not an amount whose currency the answer does not tie down", () => {
    expect(formatMoney({ value: "100", currency: "RUB" })).toBe("100.00 RUB");
    expect(formatMoney({ value: "100", currency: null })).toBe("100 (currency unclear)");
  });
});
