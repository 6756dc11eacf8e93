import { describe, expect, it } from "vitest";
import { formatDecimal } from "../../src/blocks/format.js";

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
