import { describe, expect, it } from "vitest";
import { buildSummaryMessage } from "../../src/blocks/summary.js";
import type { HistoryEntry, HistoryPage } from "../../src/payments/history.js";
import { digestDue, periodBounds, SUMMARY_PAGE_SIZE, summarize } from "../../src/reports/summary.js";
import { expectWithinBlockKitLimits } from "../support/block-kit-limits.js";

// 2026-11-25 01:30 in Moscow (UTC+3) is 2026-11-24 22:30 UTC: the day differs by zone.
const NOW = new Date(Date.UTC(2026, 10, 24, 22, 30, 0));
const epoch = (iso: string) => Math.floor(Date.parse(iso) / 1000);

function entry(
  id: string,
  iso: string,
  state: string,
  rub: string | null,
  method: string | null = "CARDRUBP2P",
): HistoryEntry {
  return {
    id,
    state,
    method,
    createdAt: { text: "", zone: "UTC", epochSeconds: epoch(iso) },
    expiresAt: null,
    amount: rub ? { value: rub, currency: "RUB" } : null,
    rub,
  };
}

function pages(entries: HistoryEntry[]) {
  const reads: number[] = [];
  const read = async (page: number, items: number): Promise<HistoryPage> => {
    reads.push(page);
    return { entries: entries.slice((page - 1) * items, page * items), unreadable: 0, hasNextPage: null };
  };
  return { read, reads };
}

describe("periodBounds", () => {
  it("starts each period at midnight in the reader's timezone", () => {
    expect(periodBounds("today", NOW, "Europe/Moscow").from).toBe(epoch("2026-11-24T21:00:00Z"));
    expect(periodBounds("today", NOW, "UTC").from).toBe(epoch("2026-11-24T00:00:00Z"));
    const yesterday = periodBounds("yesterday", NOW, "Europe/Moscow");
    expect([yesterday.from, yesterday.to]).toEqual([
      epoch("2026-11-23T21:00:00Z"),
      epoch("2026-11-24T21:00:00Z"),
    ]);
    expect(periodBounds("7d", NOW, "Europe/Moscow").from).toBe(epoch("2026-11-18T21:00:00Z"));
  });
});

describe("summarize", () => {
  it("counts what was created in the period, paid ones summed exactly in roubles, test payments apart", async () => {
    const { read, reads } = pages([
      entry("a", "2026-11-24T22:10:00Z", "payed", "0.1"),
      entry("b", "2026-11-24T22:00:00Z", "payed", "0.2"),
      entry("t", "2026-11-24T21:50:00Z", "payed", "500", "TEST"),
      entry("c", "2026-11-24T21:30:00Z", "notpayed", "100"),
      entry("old", "2026-11-24T20:59:59Z", "payed", "999"),
    ]);
    const summary = await summarize(read, periodBounds("today", NOW, "Europe/Moscow"));
    expect(summary).toMatchObject({
      created: 3,
      paid: 2,
      paidRub: "0.3",
      test: { created: 1, paid: 1 },
      partial: false,
    });
    expect(reads).toEqual([1]);
    const message = buildSummaryMessage(summary, NOW);
    expectWithinBlockKitLimits(message);
    const text = JSON.stringify(message.blocks);
    expect(text).toContain("*Paid*\\n2 invoices (66.7 %)");
    expect(text).toContain("*Paid total*\\n0.30 RUB");
    expect(text).toContain("1 created, 1 paid");
    expect(text).not.toContain("0.30000000000000004");
  });

  it("reads further pages until an invoice from before the period, and says when it stopped short", async () => {
    const many = Array.from({ length: SUMMARY_PAGE_SIZE * 25 }, (_, i) =>
      entry(`i${i}`, new Date(NOW.getTime() - i * 1000).toISOString(), "payed", "1"),
    );
    const { read, reads } = pages(many);
    const summary = await summarize(read, periodBounds("7d", NOW, "Europe/Moscow"));
    expect(reads).toHaveLength(20);
    expect(summary.partial).toBe(true);
    expect(summary.created).toBe(2000);
    expect(JSON.stringify(buildSummaryMessage(summary, NOW).blocks)).toContain("the newest 2,000");
  });
});

describe("digestDue", () => {
  const digest = { at: "09:00", zone: "Europe/Moscow", since: Date.UTC(2026, 10, 20) };
  it("is due from the time of day on, in the digest's zone, for that local day", () => {
    expect(digestDue(new Date(Date.UTC(2026, 10, 24, 5, 59)), digest)).toBeUndefined(); // 08:59 Moscow
    expect(digestDue(new Date(Date.UTC(2026, 10, 24, 6, 0)), digest)).toBe("2026-11-24");
    expect(digestDue(new Date(Date.UTC(2026, 10, 24, 22, 30)), digest)).toBeUndefined(); // 01:30 on the 25th
  });
  it("is not due on the day it was set up after its time", () => {
    const lateSetup = { ...digest, since: Date.UTC(2026, 10, 24, 12, 0) }; // 15:00 Moscow
    expect(digestDue(new Date(Date.UTC(2026, 10, 24, 13, 0)), lateSetup)).toBeUndefined();
    expect(digestDue(new Date(Date.UTC(2026, 10, 25, 6, 1)), lateSetup)).toBe("2026-11-25");
  });
});
