import { describe, expect, it } from "vitest";
import { feedChanges, SEEN_LIMIT } from "../../src/feed/changes.js";
import { emptyState, type Subscription } from "../../src/feed/model.js";
import { oncePerInvoice } from "../../src/feed/repeats.js";
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
    const first = feedChanges(emptyState(SINCE), paid, [
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
    const before = feedChanges(emptyState(SINCE), paid, [entry("a", "notpayed", -3)]).state;
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
    const first = feedChanges(emptyState(SINCE), paid, [
      entry("fresh", "payed", 0),
      entry("new", "notpayed", 1),
    ]);
    expect(first.announce).toMatchObject([{ id: "fresh", state: "payed", isNew: true, event: "paid" }]);
  });

  it("`paid` tells paid only; `all` also new, failed and wrong-amount invoices, oldest first", () => {
    const page = [entry("c", "wrongamount", 3), entry("b", "failed", 2), entry("a", "notpayed", 1)];
    expect(feedChanges(emptyState(SINCE), paid, page).announce).toEqual([]);
    expect(feedChanges(emptyState(SINCE), all, page).announce).toEqual([
      { id: "a", state: "notpayed", isNew: true, event: "new", rub: null, method: null },
      { id: "b", state: "failed", isNew: true, event: "failed", rub: null, method: null },
      { id: "c", state: "wrongamount", isNew: true, event: "wrongamount", rub: null, method: null },
    ]);
    // An invoice going back to processing is not news in either mode.
    const seen = feedChanges(emptyState(SINCE), all, [entry("a", "notpayed", 1)]).state;
    expect(feedChanges(seen, all, [entry("a", "processing", 1)]).announce).toEqual([]);
  });

  it("remembers a bounded number of invoices: those created last, whenever they were read", () => {
    // A long history, newest first, then an old invoice read again deep in a backlog.
    const page = Array.from({ length: SEEN_LIMIT + 10 }, (_, i) =>
      entry(`i${SEEN_LIMIT + 10 - i}`, "notpayed", -i),
    );
    const state = feedChanges(emptyState(SINCE), paid, page).state;
    expect(state.seen).toHaveLength(SEEN_LIMIT);
    const ids = new Set(state.seen.map((seen) => seen[0]));
    expect(ids.has(`i${SEEN_LIMIT + 10}`)).toBe(true);
    expect(ids.has("i1")).toBe(false);
    const deep = feedChanges(state, paid, [entry("ancient", "payed", -SEEN_LIMIT * 2)]).state;
    expect(deep.seen.some((seen) => seen[0] === `i${SEEN_LIMIT + 10}`)).toBe(true);
    expect(deep.seen.some((seen) => seen[0] === "ancient")).toBe(false);
  });
});

describe("an invoice the history lists more than once (issue 43)", () => {
  const states = (entries: HistoryEntry[]) => entries.map((e) => `${e.id}:${e.state}`);

  it("counts one listing per invoice, the furthest along, whatever the order it is listed in", () => {
    const listings = [
      ["payed", "notpayed", "payed"],
      ["notpayed", "payed", "notpayed"],
      ["processing", "notpayed", "payed"],
    ];
    for (const order of listings) {
      const page = [entry("x", order[0] as string, 3), entry("y", "notpayed", 2)];
      page.push(...order.slice(1).map((state) => entry("x", state, 3)));
      expect(states(oncePerInvoice(page, new Map())).sort()).toEqual(["x:payed", "y:notpayed"]);
    }
    // Unknown states: decided by name, not by place.
    const odd = [entry("z", "refunded", 1), entry("z", "disputed", 1)];
    expect(states(oncePerInvoice(odd, new Map()))).toEqual(states(oncePerInvoice(odd.reverse(), new Map())));
  });

  it("leaves out a later page's listing not further along than one this turn counted", () => {
    const counted = new Map<string, string>();
    oncePerInvoice([entry("x", "payed", 3), entry("y", "notpayed", 2)], counted);
    const next = oncePerInvoice([entry("x", "notpayed", 3), entry("y", "payed", 2)], counted);
    expect(states(next)).toEqual(["y:payed"]);
  });

  it("announces a payment once while the listings say paid, unpaid, paid pass after pass", () => {
    let state = feedChanges(emptyState(SINCE), paid, [entry("x", "notpayed", 1)]).state;
    const announced: string[] = [];
    for (const page of [
      [entry("x", "payed", 1), entry("x", "notpayed", 1), entry("x", "payed", 1)],
      [entry("x", "notpayed", 1)], // a pass that read only the stale listing
      [entry("x", "payed", 1)],
    ]) {
      const changes = feedChanges(state, paid, oncePerInvoice(page, new Map()));
      announced.push(...changes.announce.map((a) => a.state));
      state = changes.state;
    }
    expect(announced).toEqual(["payed"]);
    expect(state.seen).toEqual([["x", "payed", Math.floor(SINCE / 1000) + 60]]);
  });
});
