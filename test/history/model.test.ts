import { describe, expect, it } from "vitest";
import { dayChunkSchema, keep, keptEntrySchema, unkeep } from "../../src/history/model.js";
import { historyFrom } from "../../src/payments/history.js";
import { cutText, HISTORY_LIMITS } from "../../src/payments/history-limits.js";

const long = (length: number) => "Ж".repeat(length);
/** 40 significant digits at each end of the magnitudes an amount may have. */
const hugeAmount = `${"9".repeat(40)}${"0".repeat(1)}`;
const tinyAmount = `0.${"0".repeat(0)}${"1".repeat(40)}`;

describe("what the service's history reads, the kept record takes and gives back", () => {
  for (const version of ["v2", "v3"] as const) {
    it(`${version}: every field at or past its limit, every amount at its bounds`, () => {
      const raw = {
        id: "i".repeat(HISTORY_LIMITS.id),
        state: "s".repeat(HISTORY_LIMITS.state),
        method: long(HISTORY_LIMITS.method * 3),
        type: long(HISTORY_LIMITS.type + 1),
        url: `https://pay.example/${"u".repeat(HISTORY_LIMITS.url)}`,
        description: long(HISTORY_LIMITS.description + 1),
        extra: long(HISTORY_LIMITS.extra * 2),
        created_at: "2026-11-24 12:00:00",
        expired_at: "2026-11-24 13:00:00",
        amount: hugeAmount,
        remaining_amount: `-${tinyAmount}`,
        rub_amount: `-${tinyAmount}`,
        commission_amount: tinyAmount,
        currency: "C".repeat(12),
      };
      const page = historyFrom([raw, { ...raw, state: "payed" }], true, "Europe/Moscow", version);
      expect(page.unreadable).toBe(0);
      expect(page.entries).toHaveLength(2);
      for (const entry of page.entries) {
        const kept = keep(entry);
        expect(keptEntrySchema.safeParse(kept).error).toBeUndefined();
        // Through the store's JSON and back: the same invoice.
        const stored = dayChunkSchema.parse(JSON.parse(JSON.stringify([kept])));
        expect(unkeep(stored[0] as (typeof stored)[0], "Europe/Moscow")).toEqual({
          ...entry,
          details: entry.details,
        });
        expect(entry.method).toHaveLength(HISTORY_LIMITS.method);
        expect(entry.method?.endsWith("…")).toBe(true);
        expect(entry.details?.description).toHaveLength(HISTORY_LIMITS.description);
        // A link cut short leads nowhere: left out (the export writes the page by the id).
        expect(entry.details?.url).toBeNull();
      }
      // The paid amount, amount less what remains, spans both bounds and is still kept.
      if (version === "v3")
        expect(page.entries[1]?.details?.paid?.value).toBe(`${hugeAmount}.${"1".repeat(40)}`);
    });
  }

  it("an id or state past its limit: the entry is counted as unreadable, never kept half", () => {
    const raw = { state: "payed", created_at: "2026-11-24 12:00:00" };
    const page = historyFrom(
      [
        { ...raw, id: "i".repeat(HISTORY_LIMITS.id + 1) },
        { ...raw, id: "ok", state: "s".repeat(HISTORY_LIMITS.state + 1) },
      ],
      null,
      "UTC",
      "v2",
    );
    expect(page).toMatchObject({ entries: [], unreadable: 2 });
  });

  it("cuts text to its limit with a visible mark, never between the halves of a character", () => {
    expect(cutText("short", 10)).toBe("short");
    expect(cutText("abcdefghijk", 5)).toBe("abcd…");
    const emoji = "ab😀😀😀";
    const cut = cutText(emoji, 4);
    expect(cut).toBe("ab…");
    expect(cut.length).toBeLessThanOrEqual(4);
  });
});
