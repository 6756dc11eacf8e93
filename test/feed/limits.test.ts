import { describe, expect, it } from "vitest";
import { rubOfEntry } from "../../src/feed/filter.js";
import { announcementSchema, feedStateSchema } from "../../src/feed/model.js";
import { historyFrom } from "../../src/payments/history.js";
import { HISTORY_LIMITS } from "../../src/payments/history-limits.js";

describe("what the feed keeps of a history entry", () => {
  it("takes whatever the history reads: the longest id, state, method and rouble amount", () => {
    const raw = {
      id: "i".repeat(HISTORY_LIMITS.id),
      state: "s".repeat(HISTORY_LIMITS.state),
      method: "M".repeat(HISTORY_LIMITS.method * 2),
      created_at: "2026-11-24 12:00:00",
      expired_at: "2026-11-24 13:00:00",
      amount: "1",
      currency: "RUB",
      // The smallest amount there is, 40 digits after the point: 42 characters.
      rub_amount: `0.${"0".repeat(39)}1`,
    };
    const [entry] = historyFrom([raw], true, "UTC", "v3").entries;
    if (!entry) throw new Error("not read");
    const rub = rubOfEntry(entry);
    expect(rub).toHaveLength(42);
    const owed = { id: entry.id, state: entry.state, event: "new" as const, rub, method: entry.method };
    expect(announcementSchema.safeParse(owed).error).toBeUndefined();
    const state = {
      since: 0,
      seen: [[entry.id, entry.state, entry.createdAt.epochSeconds]],
      owed: [owed],
      unpaid: [[entry.id, entry.createdAt.epochSeconds + 3600, rub, entry.method]],
    };
    expect(feedStateSchema.safeParse(JSON.parse(JSON.stringify(state))).error).toBeUndefined();
  });
});
