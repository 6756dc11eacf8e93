import { Big } from "../payments/decimal.js";
import type { HistoryEntry } from "../payments/history.js";
import { type Invoice, TEST_METHOD } from "../payments/model.js";
import {
  type Announcement,
  FAILURE_EVENTS,
  type FeedEvent,
  type FeedFilter,
  filterOf,
  type Subscription,
} from "./model.js";

/** What a feed's filter and mentions look at in one change. */
export type ChangeFacts = {
  event: FeedEvent;
  /** The rouble amount (decimal string); null when the service gives none. */
  rub: string | null;
  /** The method chosen; null when none is yet. */
  method: string | null;
};

/** What a state seen for the first time or changed to is news of; null: not news (processing, back to unpaid). */
export function eventOf(state: string, isNew: boolean): FeedEvent | null {
  if (state === "payed") return "paid";
  if (state === "failed") return "failed";
  if (state === "wrongamount") return "wrongamount";
  if (state === "notpayed" && isNew) return "new";
  return null;
}

/** The rouble amount of a history entry: v2 `amount`, v3 `rub_amount`, else an amount the answer ties to RUB. */
export function rubOfEntry(entry: HistoryEntry): string | null {
  return entry.rub ?? (entry.amount?.currency === "RUB" ? entry.amount.value : null);
}

/** The rouble amount of an invoice as invoice/info tells it (v3 `rub_amount`, v2 `amount`, which is RUB). */
export function rubOfInvoice(invoice: Invoice): string | null {
  const amount = invoice.amounts.amount;
  return invoice.amounts.rubAmount?.value ?? (amount?.currency === "RUB" ? amount.value : null);
}

/** a >= b, exactly; false when either is not a decimal big.js reads. */
export function atLeast(amount: string, floor: string): boolean {
  try {
    return new Big(amount).gte(new Big(floor));
  } catch {
    return false;
  }
}

/**
 * Does the filter take this change? An amount the service does not give in roubles passes an
 * amount filter (nothing is lost for want of a figure), and an invoice with no method chosen yet
 * (a new one, an expired one nobody tried to pay) passes a method filter.
 */
export function wanted(filter: FeedFilter, facts: ChangeFacts): boolean {
  if (!filter.events.includes(facts.event)) return false;
  if (filter.tests === false && facts.method === TEST_METHOD) return false;
  if (filter.methods && facts.method !== null && !filter.methods.includes(facts.method)) return false;
  if (filter.minRub && facts.rub !== null && !atLeast(facts.rub, filter.minRub)) return false;
  return true;
}

/**
 * The people a message mentions, and why: a failure when the form asks for failures, a payment of
 * at least the form's amount (any amount without one) when it asks for payments. A payment whose
 * rouble amount is not known mentions nobody by amount.
 */
export function mentionsFor(
  subscription: Pick<Subscription, "mentions">,
  facts: ChangeFacts,
): { users: string[]; why: "failure" | "payment"; minRub: string | null } | null {
  const mentions = subscription.mentions;
  if (!mentions) return null;
  if (FAILURE_EVENTS.includes(facts.event))
    return mentions.failures ? { users: mentions.users, why: "failure", minRub: null } : null;
  if (facts.event !== "paid" || !mentions.payments) return null;
  if (mentions.minRub && (facts.rub === null || !atLeast(facts.rub, mentions.minRub))) return null;
  return { users: mentions.users, why: "payment", minRub: mentions.minRub ?? null };
}

/** The facts an owed announcement carries (one owed before filters: from its state, the rest unknown). */
export function factsOfAnnouncement(announcement: Announcement): ChangeFacts | null {
  const event = announcement.event ?? eventOf(announcement.state, announcement.isNew === true);
  if (!event) return null;
  return { event, rub: announcement.rub ?? null, method: announcement.method ?? null };
}

/** Is an owed announcement still wanted by the feed's filter as it is now (it may have changed since)? */
export function stillWanted(subscription: Subscription, facts: ChangeFacts): boolean {
  return wanted(filterOf(subscription), facts);
}

/**
 * Does a feed's message say why it is there? Yes for a filtered feed or one that mentions people;
 * a plain feed of paid invoices (the default) says it in its welcome, not in every message.
 */
export function saysWhy(subscription: Pick<Subscription, "mode" | "filter" | "mentions">): boolean {
  const filter = filterOf(subscription);
  const plain =
    filter.events.length === 1 &&
    filter.events[0] === "paid" &&
    !filter.minRub &&
    !filter.methods?.length &&
    filter.tests !== false;
  return !plain || Boolean(subscription.mentions);
}
