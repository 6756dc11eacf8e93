import { describe, expect, it } from "vitest";
import { feedChanges } from "../../src/feed/changes.js";
import { expiredUnpaid, UNPAID_LIMIT } from "../../src/feed/expiry.js";
import { factsOfAnnouncement, mentionsFor, saysWhy, stillWanted, wanted } from "../../src/feed/filter.js";
import { emptyState, type FeedFilter, type Subscription } from "../../src/feed/model.js";
import type { HistoryEntry } from "../../src/payments/history.js";

const SINCE = Date.UTC(2026, 10, 24, 12, 0, 0);
const SINCE_S = Math.floor(SINCE / 1000);
const base: Subscription = { channel: "C0FEED", mode: "paid", by: "U0ADMIN", since: SINCE };
const withFilter = (filter: FeedFilter, extra: Partial<Subscription> = {}): Subscription => ({
  ...base,
  filter,
  ...extra,
});
const FAILURES: FeedFilter = { events: ["failed", "wrongamount", "expired"] };

/** An entry created `minutes` after the subscription, of `rub` roubles, expiring an hour after it was made. */
function entry(
  id: string,
  state: string,
  minutes: number,
  rub: string | null = "2500",
  extra: Partial<HistoryEntry> = {},
): HistoryEntry {
  const epochSeconds = SINCE_S + minutes * 60;
  return {
    id,
    state,
    method: "CARDRUBP2P",
    createdAt: { text: "", zone: "Europe/Moscow", epochSeconds },
    expiresAt: { text: "", zone: "Europe/Moscow", epochSeconds: epochSeconds + 3600 },
    amount: rub === null ? null : { value: rub, currency: "RUB" },
    rub,
    ...extra,
  };
}
const ids = (changes: { announce: Array<{ id: string }> }) => changes.announce.map((a) => a.id);

describe("feed filters (`wanted`)", () => {
  it("`over 10000` takes 15,000 and exactly 10,000, not 5,000 or 9,999.99 (big.js, never floats)", () => {
    const over = withFilter({ events: ["paid"], minRub: "10000" });
    const page = [
      entry("p15000", "payed", 4, "15000"),
      entry("p10000", "payed", 3, "10000.00"),
      entry("p9999", "payed", 2, "9999.99"),
      entry("p5000", "payed", 1, "5000"),
    ];
    expect(ids(feedChanges(emptyState(SINCE), over, page))).toEqual(["p10000", "p15000"]);
    // 0.1 + 0.2 is not 0.3 in floats; in decimals it is at least 0.3.
    expect(wanted({ events: ["paid"], minRub: "0.3" }, { event: "paid", rub: "0.30", method: null })).toBe(
      true,
    );
    expect(
      wanted(
        { events: ["paid"], minRub: "999999999999.99" },
        { event: "paid", rub: "999999999999.98", method: null },
      ),
    ).toBe(false);
  });

  it("an amount the service gives in no roubles passes an amount filter (nothing is lost for want of a figure)", () => {
    const v3usd = entry("usd", "payed", 1, null, { amount: { value: "100", currency: "USD" } });
    expect(
      ids(feedChanges(emptyState(SINCE), withFilter({ events: ["paid"], minRub: "10000" }), [v3usd])),
    ).toEqual(["usd"]);
  });

  it("`failures` takes failed and wrong-amount invoices, not payments or new ones", () => {
    const page = [
      entry("wrong", "wrongamount", 4),
      entry("failed", "failed", 3),
      entry("paid", "payed", 2),
      entry("new", "notpayed", 1),
    ];
    expect(ids(feedChanges(emptyState(SINCE), withFilter(FAILURES), page))).toEqual(["failed", "wrong"]);
  });

  it("methods and test payments: only the methods chosen (an invoice with none chosen passes), tests left out on request", () => {
    const filter: FeedFilter = { events: ["paid", "new"], methods: ["BITCOIN"], tests: false };
    const page = [
      entry("test", "payed", 4, "100", { method: "TEST" }),
      entry("btc", "payed", 3, "100", { method: "BITCOIN" }),
      entry("card", "payed", 2, "100", { method: "CARDRUBP2P" }),
      entry("fresh", "notpayed", 1, "100", { method: null }),
    ];
    expect(ids(feedChanges(emptyState(SINCE), withFilter(filter), page))).toEqual(["fresh", "btc"]);
    expect(wanted({ events: ["paid"] }, { event: "paid", rub: null, method: "TEST" })).toBe(true);
  });

  it("a filter change never replays: what a channel saw under one filter is not news under another", () => {
    const page = [entry("old-failed", "failed", 2), entry("old-open", "notpayed", 1)];
    const seenUnderPaid = feedChanges(emptyState(SINCE), base, page);
    expect(seenUnderPaid.announce).toEqual([]);
    const everything = withFilter({ events: ["new", "paid", "failed", "wrongamount", "expired"] });
    const again = feedChanges(seenUnderPaid.state, everything, page);
    expect(again.announce).toEqual([]);
    expect(again.anythingNew).toBe(false);
    // A change after the filter changed is told under the new filter.
    expect(ids(feedChanges(again.state, everything, [entry("old-open", "wrongamount", 1)]))).toEqual([
      "old-open",
    ]);
  });

  it("an owed message is checked again against the filter as it is when posted", () => {
    const owed = feedChanges(emptyState(SINCE), base, [entry("p", "payed", 1, "5000")]).state.owed[0];
    const facts = owed ? factsOfAnnouncement(owed) : null;
    expect(facts).toEqual({ event: "paid", rub: "5000", method: "CARDRUBP2P" });
    if (!facts) return;
    expect(stillWanted(base, facts)).toBe(true);
    expect(stillWanted(withFilter(FAILURES), facts)).toBe(false);
    expect(stillWanted(withFilter({ events: ["paid"], minRub: "10000" }), facts)).toBe(false);
    // Owed before filters: its state says what it was; amount and method come from the invoice then.
    expect(factsOfAnnouncement({ id: "x", state: "notpayed", isNew: true })).toEqual({
      event: "new",
      rub: null,
      method: null,
    });
    expect(factsOfAnnouncement({ id: "x", state: "processing" })).toBeNull();
  });
});

describe("mentions (`mentionsFor`)", () => {
  const anna = withFilter(
    { events: ["paid", "failed", "wrongamount", "expired"] },
    { mentions: { users: ["U0ANNA"], payments: true, minRub: "50000", failures: true } },
  );

  it("mentions the form's people on a payment from its amount, and on failures when asked", () => {
    expect(mentionsFor(anna, { event: "paid", rub: "50000", method: null })).toEqual({
      users: ["U0ANNA"],
      why: "payment",
      minRub: "50000",
    });
    expect(mentionsFor(anna, { event: "paid", rub: "49999.99", method: null })).toBeNull();
    expect(mentionsFor(anna, { event: "paid", rub: null, method: null })).toBeNull();
    expect(mentionsFor(anna, { event: "expired", rub: "10", method: null })?.why).toBe("failure");
    expect(mentionsFor(anna, { event: "new", rub: "90000", method: null })).toBeNull();
  });

  it("without an amount every payment; failures only when asked; nobody without the form", () => {
    const payments = { users: ["U0ANNA", "U0BORIS"], payments: true, failures: false };
    expect(mentionsFor({ mentions: payments }, { event: "paid", rub: "1", method: null })?.users).toEqual([
      "U0ANNA",
      "U0BORIS",
    ]);
    expect(mentionsFor({ mentions: payments }, { event: "failed", rub: "1", method: null })).toBeNull();
    expect(mentionsFor({}, { event: "paid", rub: "100000", method: null })).toBeNull();
  });
});

describe("expired unpaid (`expiredUnpaid`)", () => {
  const at = (minutes: number) => SINCE + minutes * 60_000;
  const failures = withFilter(FAILURES);

  it("notes an unpaid invoice with its expiry and tells it once when the expiry passes", () => {
    const noted = feedChanges(emptyState(SINCE), failures, [entry("late", "notpayed", 1, "700")]).state;
    expect(noted.unpaid).toEqual([["late", SINCE_S + 60 + 3600, "700", "CARDRUBP2P"]]);
    expect(expiredUnpaid(noted, failures, at(60), 100).announce).toEqual([]);
    const expired = expiredUnpaid(noted, failures, at(61), 100);
    expect(expired.announce).toEqual([
      { id: "late", state: "notpayed", event: "expired", rub: "700", method: "CARDRUBP2P" },
    ]);
    expect(expired.state.unpaid).toEqual([]);
    expect(expired.state.owed).toEqual(expired.announce);
    expect(expiredUnpaid(expired.state, failures, at(120), 100).announce).toEqual([]);
    // The history showing it unpaid again changes nothing: it is not a change.
    expect(feedChanges(expired.state, failures, [entry("late", "notpayed", 1, "700")]).state.unpaid).toEqual(
      [],
    );
  });

  it("a payment (or any other state) before the expiry takes it off; an invoice that expired before subscribing is never noted", () => {
    const noted = feedChanges(emptyState(SINCE), failures, [entry("paid-in-time", "notpayed", 1)]).state;
    const paid = feedChanges(noted, failures, [entry("paid-in-time", "payed", 1)]).state;
    expect(paid.unpaid).toEqual([]);
    expect(expiredUnpaid(paid, failures, at(600), 100).announce).toEqual([]);
    const ancient = entry("ancient", "notpayed", -120); // expired an hour before the subscription
    expect(feedChanges(emptyState(SINCE), failures, [ancient]).state.unpaid).toEqual([]);
    // Made before the subscription, expiring after it: its expiry is news after subscribing.
    const open = entry("open", "notpayed", -30);
    expect(feedChanges(emptyState(SINCE), failures, [open]).state.unpaid.map((u) => u[0])).toEqual(["open"]);
  });

  it("a feed that takes no failures forgets the expiry without a message; `all` takes it; the filter's amount applies", () => {
    const noted = feedChanges(emptyState(SINCE), base, [entry("small", "notpayed", 1, "100")]).state;
    const quiet = expiredUnpaid(noted, base, at(120), 100);
    expect(quiet.announce).toEqual([]);
    expect(quiet.state.unpaid).toEqual([]);
    const all = { ...base, mode: "all" as const };
    expect(ids(expiredUnpaid(noted, all, at(120), 100))).toEqual(["small"]);
    expect(ids(expiredUnpaid(noted, withFilter({ ...FAILURES, minRub: "1000" }), at(120), 100))).toEqual([]);
  });

  it("owes only as many as there is room for, soonest first; the rest wait; the list is bounded, soonest kept", () => {
    const page = [entry("c", "notpayed", 3), entry("b", "notpayed", 2), entry("a", "notpayed", 1)];
    const noted = feedChanges(emptyState(SINCE), failures, page).state;
    const first = expiredUnpaid(noted, failures, at(200), 2);
    expect(ids(first)).toEqual(["a", "b"]);
    expect(ids(expiredUnpaid(first.state, failures, at(200), 2))).toEqual(["c"]);
    expect(expiredUnpaid(noted, failures, at(200), 0).announce).toEqual([]);

    const many = Array.from({ length: UNPAID_LIMIT + 5 }, (_, i) =>
      entry(`u${i}`, "notpayed", UNPAID_LIMIT + 5 - i),
    );
    const bounded = feedChanges(emptyState(SINCE), failures, many).state.unpaid;
    expect(bounded).toHaveLength(UNPAID_LIMIT);
    expect(bounded.some((u) => u[0] === `u${UNPAID_LIMIT + 4}`)).toBe(true); // made first, expires first
    expect(bounded.some((u) => u[0] === "u0")).toBe(false);
  });
});

describe("saysWhy", () => {
  it("a filtered feed or one with mentions says why each message is there; the plain paid feed does not", () => {
    expect(saysWhy(base)).toBe(false);
    expect(saysWhy(withFilter({ events: ["paid"] }))).toBe(false);
    expect(saysWhy({ ...base, mode: "all" })).toBe(true);
    expect(saysWhy(withFilter({ events: ["paid"], minRub: "1" }))).toBe(true);
    expect(saysWhy(withFilter({ events: ["paid"], tests: false }))).toBe(true);
    expect(saysWhy({ ...base, mentions: { users: ["U0ANNA"], payments: true, failures: false } })).toBe(true);
  });
});
