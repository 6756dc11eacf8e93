import { describe, expect, it } from "vitest";
import { feedChanges, SEEN_LIMIT } from "../../src/feed/changes.js";
import { emptyState, type Subscription } from "../../src/feed/model.js";
import type { HistoryEntry } from "../../src/payments/history.js";

const SINCE = Date.UTC(2026, 10, 24, 12, 0, 0);
const paid: Subscription = { channel: "C0FEED", mode: "paid", by: "U0ADMIN", since: SINCE };
const all: Subscription = { ...paid, mode: "all" };

/** An entry created `minutes` after the subscription (negative: before it). */
function entry(id: string, state: string, minutes: number): HistoryEntry {
  const epochSeconds = Math.floor(SINCE / 1000) + minutes * 60;
  return {
    id,
    state,
    method: null,
    createdAt: { text: "", zone: "Europe/Moscow", epochSeconds },
    expiresAt: null,
    amount: null,
    rub: null,
  };
}

describe("feedChanges", () => {
  it("notes invoices from before the subscription without announcing them, paid or not", () => {
    const first = feedChanges(emptyState(), paid, [
      entry("old-paid", "payed", -5),
      entry("old-open", "notpayed", -3),
    ]);
    expect(first.announce).toEqual([]);
    expect(first.anythingNew).toBe(true);
    const at = (minutes: number) => Math.floor(SINCE / 1000) + minutes * 60;
    expect(first.state.seen).toEqual([
      ["old-open", "notpayed", at(-3)],
      ["old-paid", "payed", at(-5)],
    ]);
  });

  it("announces an invoice paid after subscribing once, and nothing when the page is read again", () => {
    const before = feedChanges(emptyState(), paid, [entry("a", "notpayed", -3)]).state;
    const after = feedChanges(before, paid, [entry("a", "payed", -3)]);
    const owedPaid = { id: "a", state: "payed", event: "paid", rub: null, method: null };
    expect(after.announce).toEqual([owedPaid]);
    expect(after.state.owed).toEqual([owedPaid]);
    const again = feedChanges(after.state, paid, [entry("a", "payed", -3)]);
    expect(again.announce).toEqual([]);
    expect(again.anythingNew).toBe(false);
    expect(again.state.owed).toEqual([owedPaid]); // still owed until Slack has it
  });

  it("announces one made and paid since subscribing even on the first read (the second it was made counts)", () => {
    const first = feedChanges(emptyState(), paid, [entry("fresh", "payed", 0), entry("new", "notpayed", 1)]);
    expect(first.announce).toMatchObject([{ id: "fresh", state: "payed", isNew: true, event: "paid" }]);
  });

  it("`paid` tells paid only; `all` also new, failed and wrong-amount invoices, oldest first", () => {
    const page = [entry("c", "wrongamount", 3), entry("b", "failed", 2), entry("a", "notpayed", 1)];
    expect(feedChanges(emptyState(), paid, page).announce).toEqual([]);
    expect(feedChanges(emptyState(), all, page).announce).toEqual([
      { id: "a", state: "notpayed", isNew: true, event: "new", rub: null, method: null },
      { id: "b", state: "failed", isNew: true, event: "failed", rub: null, method: null },
      { id: "c", state: "wrongamount", isNew: true, event: "wrongamount", rub: null, method: null },
    ]);
    // An invoice going back to processing is not news in either mode.
    const seen = feedChanges(emptyState(), all, [entry("a", "notpayed", 1)]).state;
    expect(feedChanges(seen, all, [entry("a", "processing", 1)]).announce).toEqual([]);
  });

  it("remembers a bounded number of invoices: those created last, whenever they were read", () => {
    // A long history, newest first, then an old invoice read again deep in a backlog.
    const page = Array.from({ length: SEEN_LIMIT + 10 }, (_, i) =>
      entry(`i${SEEN_LIMIT + 10 - i}`, "notpayed", -i),
    );
    const state = feedChanges(emptyState(), paid, page).state;
    expect(state.seen).toHaveLength(SEEN_LIMIT);
    const ids = new Set(state.seen.map((seen) => seen[0]));
    expect(ids.has(`i${SEEN_LIMIT + 10}`)).toBe(true);
    expect(ids.has("i1")).toBe(false);
    const deep = feedChanges(state, paid, [entry("ancient", "payed", -SEEN_LIMIT * 2)]).state;
    expect(deep.seen.some((seen) => seen[0] === `i${SEEN_LIMIT + 10}`)).toBe(true);
    expect(deep.seen.some((seen) => seen[0] === "ancient")).toBe(false);
  });
});
