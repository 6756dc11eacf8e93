/** readWrittenAmount (src/util/rub-amount.ts): a payout amount as people write it, read one way only or refused. */
import { describe, expect, it } from "vitest";
import { readWrittenAmount } from "../../src/util/rub-amount.js";

describe("readWrittenAmount", () => {
  it("reads commas in groups of three as English thousands, as the policy form does", () => {
    expect(readWrittenAmount("10,000")).toEqual({ ok: true, value: "10000" });
    expect(readWrittenAmount("1,234,567.89")).toEqual({ ok: true, value: "1234567.89" });
    expect(readWrittenAmount("10 000")).toEqual({ ok: true, value: "10000" });
    expect(readWrittenAmount("10\u00a0000,50")).toEqual({ ok: true, value: "10000.50" });
  });

  it("reads a point, or a single comma not followed by three digits, as the decimal mark, keeping the digits", () => {
    expect(readWrittenAmount("1500.50")).toEqual({ ok: true, value: "1500.50" });
    expect(readWrittenAmount("10000,50")).toEqual({ ok: true, value: "10000.50" });
    expect(readWrittenAmount("10,00")).toEqual({ ok: true, value: "10.00" });
    expect(readWrittenAmount("10,5")).toEqual({ ok: true, value: "10.5" });
    expect(readWrittenAmount("0.00012345")).toEqual({ ok: true, value: "0.00012345" });
    expect(readWrittenAmount("0,00012345")).toEqual({ ok: true, value: "0.00012345" });
    expect(readWrittenAmount("007")).toEqual({ ok: true, value: "7" });
  });

  it("refuses what can be read more than one way, never guessing", () => {
    for (const text of ["10,000.5,1", "1.000,50", "1.000.000", "1,234,5", "0,125", "1000,500", "12,34,567"])
      expect(readWrittenAmount(text), text).toEqual({ ok: false, why: "ambiguous" });
  });

  it("refuses what is no amount, zero, or nothing", () => {
    for (const text of ["abc", "1.", ",5", "1,,000", "-5", "1e3", "10$"])
      expect(readWrittenAmount(text), text).toEqual({ ok: false, why: "not_a_number" });
    expect(readWrittenAmount("0,00")).toEqual({ ok: false, why: "zero" });
    expect(readWrittenAmount("  ")).toEqual({ ok: false, why: "empty" });
  });
});
