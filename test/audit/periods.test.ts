import { describe, expect, it } from "vitest";
import { auditPeriodOf, auditPeriodRange } from "../../src/audit/periods.js";
import { auditPeriodLabel } from "../../src/blocks/audit.js";
import { parseInvoiceText } from "../../src/listeners/commands/invoice-text.js";

const NOW = new Date("2026-11-26T20:00:00.000Z");

describe("/invoice audit periods", () => {
  it("reads periods, months included, and nothing else", () => {
    expect(["all", "today", "7d", "30d", "2026-11", "1999-01"].map(auditPeriodOf)).toEqual([
      "all",
      "today",
      "7d",
      "30d",
      "2026-11",
      "1999-01",
    ]);
    expect(["2026-13", "2026-00", "2026-1", "yesterday", undefined, "26-11"].map(auditPeriodOf)).toEqual(
      Array(6).fill(undefined),
    );
  });

  it("turns a period into UTC times, a month from its first day to the next month's", () => {
    expect(auditPeriodRange("all", NOW)).toEqual({});
    expect(auditPeriodRange("today", NOW)).toEqual({ from: Date.parse("2026-11-26T00:00:00Z") });
    expect(auditPeriodRange("7d", NOW)).toEqual({ from: Date.parse("2026-11-20T00:00:00Z") });
    expect(auditPeriodRange("30d", NOW)).toEqual({ from: Date.parse("2026-10-28T00:00:00Z") });
    expect(auditPeriodRange("2026-12", NOW)).toEqual({
      from: Date.parse("2026-12-01T00:00:00Z"),
      to: Date.parse("2027-01-01T00:00:00Z"),
    });
  });

  it("names a month in the reader's language", () => {
    expect(auditPeriodLabel("2026-11", "en")).toBe("November 2026");
    expect(auditPeriodLabel("2026-11", "ru")).toMatch(/^ноябрь 2026/);
    expect(auditPeriodLabel("7d", "ru")).toBe("Последние 7 дней");
  });
});

describe("parseInvoiceText: audit", () => {
  const list = { kind: "audit", op: "list", what: null, person: null, period: "all" };
  it("takes a period, a person as Slack sends a mention, and a subject, in any order", () => {
    expect(parseInvoiceText("audit")).toEqual(list);
    expect(parseInvoiceText("audit <@U0ANNA|anna> 2026-10 payout")).toEqual({
      ...list,
      period: "2026-10",
      person: "U0ANNA",
      what: "payout",
    });
    expect(parseInvoiceText("audit payout <@W0BOB>")).toEqual({ ...list, person: "W0BOB", what: "payout" });
  });

  it("takes verify, channel, channel off and export [period]", () => {
    const op = (name: string, period = "all") => ({ ...list, op: name, period });
    expect(parseInvoiceText("audit verify")).toEqual(op("verify"));
    expect(parseInvoiceText("audit channel")).toEqual(op("channel"));
    expect(parseInvoiceText("audit Channel OFF")).toEqual(op("channel_off"));
    expect(parseInvoiceText("audit export")).toEqual(op("export", "30d"));
    expect(parseInvoiceText("audit export 2026-11")).toEqual(op("export", "2026-11"));
  });

  it("refuses what it cannot read", () => {
    for (const text of [
      "audit yesterday",
      "audit 7d 30d",
      "audit <@U0A> <@U0B>",
      "audit @anna",
      "audit export 7d payout",
      "audit channel on",
      "audit 2026-13",
    ])
      expect(parseInvoiceText(text), text).toMatchObject({ kind: "invalid", reason: "audit_arg" });
  });
});
