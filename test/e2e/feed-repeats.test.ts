import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { renderHistory } from "../../sandbox/fake-payments.js";
import { Stack } from "../../sandbox/stack.js";
import { askIn, feedPosts, invoiceMaker } from "../support/feed-e2e.js";

const ADMIN = "U0ADMIN";
const FEED = "C0REPEATS";
/** The feed's history page (src/feed/runner.ts): where one page ends and the next begins. */
const PAGE_SIZE = 50;

const freshInvoice = invoiceMaker("7155", "FeedRepeat");

describe("a history that lists an invoice more than once (issue 43)", () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await Stack.start({ env: { FEED_INTERVAL_MS: "200" }, storeMemoMs: 0 });
    stack.slack.users[ADMIN] = { is_admin: true };
    await askIn(stack, "subscribe", FEED, ADMIN);
  });
  afterAll(async () => {
    await stack?.stop();
  });

  /** Reads of history page `page` begun since `since`. */
  const readsOf = (page: number, since: number) =>
    stack.fake.requests.filter(
      (request) => request.at >= since && request.path.includes("history") && request.body?.page === page,
    ).length;
  /** Until the feed has read `page` `times` more times: passes counted, not time guessed. */
  const passes = (page: number, times: number) => {
    const since = Date.now();
    return expect.poll(() => readsOf(page, since), { timeout: 10_000 }).toBeGreaterThanOrEqual(times);
  };
  /** The page of the history `id` is listed on with `state` (the fake's own listing). */
  const pageOf = (id: string, state: string) => {
    for (let page = 1; page <= 5; page += 1) {
      const body = { page, items: PAGE_SIZE };
      const listed = JSON.parse(
        renderHistory([...stack.fake.invoices.values()], body, "v2", stack.fake.historyRepeats),
      ) as { payments: Array<{ id: string; state: string }> };
      if (listed.payments.some((entry) => entry.id === id && entry.state === state)) return page;
    }
    return null;
  };

  it("posts a payment once when one page lists it paid, unpaid, paid", async () => {
    const id = freshInvoice(stack);
    await passes(1, 2); // noted unpaid
    stack.fake.historyRepeats.set(id, [{ state: "notpayed" }, { state: "payed" }]);
    stack.fake.pay(id);
    await stack.slack.waitForMessages(() => feedPosts(stack, FEED, id).length === 1, 5000);
    await passes(1, 5);
    expect(feedPosts(stack, FEED, id)).toHaveLength(1);
  });

  it("posts a payment once when its repeat is on the next page, whichever page says paid", async () => {
    for (let i = 0; i < 20; i += 1) freshInvoice(stack);
    const paidDeeper = freshInvoice(stack);
    for (let i = 0; i < 10; i += 1) freshInvoice(stack);
    const paidOnTop = freshInvoice(stack);
    for (let i = 0; i < 45; i += 1) freshInvoice(stack);
    await passes(2, 2); // all noted unpaid
    stack.fake.historyRepeats.set(paidOnTop, [{ state: "notpayed", shift: 8 }]);
    stack.fake.historyRepeats.set(paidDeeper, [{ state: "notpayed", shift: -16 }]);
    stack.fake.pay(paidOnTop);
    stack.fake.pay(paidDeeper);
    expect([pageOf(paidOnTop, "payed"), pageOf(paidOnTop, "notpayed")]).toEqual([1, 2]);
    expect([pageOf(paidDeeper, "notpayed"), pageOf(paidDeeper, "payed")]).toEqual([1, 2]);
    await stack.slack.waitForMessages(
      () => feedPosts(stack, FEED, paidOnTop).length === 1 && feedPosts(stack, FEED, paidDeeper).length === 1,
      5000,
    );
    await passes(2, 5);
    expect(feedPosts(stack, FEED, paidOnTop)).toHaveLength(1);
    expect(feedPosts(stack, FEED, paidDeeper)).toHaveLength(1);
  });
});
