import { addDecimals } from "../payments/decimal.js";
import type { Invoice } from "../payments/model.js";
import type { ClaimBoard } from "../store/claims/board.js";
import type { LinkBook } from "./book.js";
import { refsMadeBetween } from "./days.js";
import { type LinkRecord, linkKey, readLink } from "./record.js";

// What is still unpaid (issue 51): the links Kassa made in a period that are open, or expired unpaid,
// and not re-issued, grouped by customer. A closed link's outcome is the links' pass's (record.outcome);
// an open one, or a closed one the pass has not looked at yet, is read at the service, and only for
// what is shown (a page, the digest's line within a budget).

export type UnpaidDeps = {
  links: Pick<LinkBook, "board">;
  payments: { invoice(registerKey: string, invoiceId: string): Promise<Pick<Invoice, "state">> };
};

/**
 * One link not known to be paid: `expired` (the pass saw it unpaid once its page closed), `open`
 * (its page still works), `closed` (its page closed; the pass has not told yet). `state`: the
 * service's, once read; `unchecked`: the read failed (shown as it is known).
 */
export type UnpaidLink = {
  record: LinkRecord;
  invoiceId: string;
  expiresAt: number;
  known: "expired" | "open" | "closed";
  state?: string;
  unchecked?: boolean;
};

export type Total = { value: string; currency: string };

export type UnpaidGroup = {
  /** The customer named at create (undefined: none). */
  customer: string | undefined;
  /** The group's links and totals over every page (the paid ones this page found left out). */
  count: number;
  totals: Total[];
  /** The group's links on this page; `continued`: it began on an earlier page. */
  rows: UnpaidLink[];
  continued: boolean;
};

export type UnpaidPage = { groups: UnpaidGroup[]; page: number; hasMore: boolean; count: number };

export type UnpaidQuery = {
  registerKey: string;
  /** The links made in [from, to), epoch ms. */
  from: number;
  to: number;
  /** Only customers whose name holds this (any case). */
  customer?: string | undefined;
  page: number;
  pageSize: number;
  now: number;
};

/** Records read at once. */
const READS_AT_ONCE = 16;
/** Service reads at once. */
const CHECKS_AT_ONCE = 4;

/** The records of the links made in [from, to) (by their day; records gone are skipped). */
export async function linksMade(
  board: ClaimBoard,
  registerKey: string,
  from: number,
  to: number,
): Promise<LinkRecord[]> {
  const refs = await refsMadeBetween(board, registerKey, from, to);
  const records: LinkRecord[] = [];
  for (let start = 0; start < refs.length; start += READS_AT_ONCE) {
    const batch = refs.slice(start, start + READS_AT_ONCE);
    const read = await Promise.all(batch.map((ref) => readLink(board, linkKey(registerKey, ref))));
    for (const record of read)
      if (record && record.createdAt >= from && record.createdAt < to) records.push(record);
  }
  return records;
}

/** The links not known to be paid, not re-issued, made (created) with an invoice. */
export function unpaidOf(records: readonly LinkRecord[], now: number): UnpaidLink[] {
  return records.flatMap((record): UnpaidLink[] => {
    const { invoiceId } = record;
    if (record.status !== "created" || !invoiceId || record.replacedBy || record.outcome === "paid")
      return [];
    const expiresAt = record.expiresAt ?? record.createdAt + record.lifetimeMinutes * 60_000;
    const known = record.outcome === "expired" ? "expired" : now < expiresAt ? "open" : "closed";
    return [{ record, invoiceId, expiresAt, known }];
  });
}

/** A customer filter's match: the name holds the words, any case. */
export function customerMatches(customer: string | undefined, wanted: string | undefined): boolean {
  if (!wanted) return true;
  return (customer ?? "").toLocaleLowerCase().includes(wanted.trim().toLocaleLowerCase());
}

/** Customers by name (none last); in each, open ones by the soonest to close, then the latest to close first. */
export function inOrder(links: readonly UnpaidLink[]): UnpaidLink[] {
  const name = (link: UnpaidLink) => link.record.customer;
  return [...links].sort((a, b) => {
    const [ca, cb] = [name(a), name(b)];
    if (ca !== cb) {
      if (ca === undefined) return 1;
      if (cb === undefined) return -1;
      return ca.localeCompare(cb) || (ca < cb ? -1 : 1);
    }
    const [oa, ob] = [a.known === "open", b.known === "open"];
    if (oa !== ob) return oa ? -1 : 1;
    return oa ? a.expiresAt - b.expiresAt : b.expiresAt - a.expiresAt;
  });
}

/** Totals per currency, in the order the currencies first come. */
export function totalsOf(links: readonly UnpaidLink[]): Total[] {
  const sums = new Map<string, string>();
  for (const { record } of links)
    sums.set(record.currency, addDecimals(sums.get(record.currency) ?? "0", record.amount));
  return [...sums].map(([currency, value]) => ({ value, currency }));
}

/**
 * Each link that is not known expired read at the service, a few at once: paid ones dropped, the
 * others with their state (or unchecked when the read failed).
 */
export async function checked(
  deps: UnpaidDeps,
  registerKey: string,
  links: UnpaidLink[],
): Promise<UnpaidLink[]> {
  const out: (UnpaidLink | undefined)[] = [];
  for (let start = 0; start < links.length; start += CHECKS_AT_ONCE) {
    const batch = links.slice(start, start + CHECKS_AT_ONCE);
    out.push(...(await Promise.all(batch.map((link) => checkOne(deps, registerKey, link)))));
  }
  return out.filter((link): link is UnpaidLink => link !== undefined);
}

async function checkOne(
  deps: UnpaidDeps,
  registerKey: string,
  link: UnpaidLink,
): Promise<UnpaidLink | undefined> {
  if (link.known === "expired") return link;
  try {
    const { state } = await deps.payments.invoice(registerKey, link.invoiceId);
    return state === "payed" ? undefined : { ...link, state };
  } catch {
    return { ...link, unchecked: true };
  }
}

/** One page of what is still unpaid: its rows read at the service, grouped by customer with totals. */
export async function unpaidPage(deps: UnpaidDeps, query: UnpaidQuery): Promise<UnpaidPage> {
  const board = await deps.links.board();
  const records = await linksMade(board, query.registerKey, query.from, query.to);
  const all = inOrder(
    unpaidOf(records, query.now).filter((link) => customerMatches(link.record.customer, query.customer)),
  );
  const start = (query.page - 1) * query.pageSize;
  const slice = all.slice(start, start + query.pageSize);
  const shown = await checked(deps, query.registerKey, slice);
  const shownRefs = new Map(shown.map((link) => [link.record.ref, link]));
  const paid = new Set(
    slice.filter((link) => !shownRefs.has(link.record.ref)).map((link) => link.record.ref),
  );
  const counted = all.filter((link) => !paid.has(link.record.ref));
  const groups: UnpaidGroup[] = [];
  for (const link of slice) {
    const row = shownRefs.get(link.record.ref);
    const customer = link.record.customer;
    let group = groups.at(-1);
    if (!group || group.customer !== customer) {
      const mine = counted.filter((other) => other.record.customer === customer);
      const first = all.findIndex((other) => other.record.customer === customer);
      group = { customer, count: mine.length, totals: totalsOf(mine), rows: [], continued: first < start };
      groups.push(group);
    }
    if (row) group.rows.push(row);
  }
  return {
    groups: groups.filter((group) => group.rows.length > 0),
    page: query.page,
    hasMore: all.length > start + query.pageSize,
    count: counted.length,
  };
}

/** The digest's line: open links (and for how much) and expired unpaid ones made since `from`. */
export type UnpaidTally = { open: number; openTotals: Total[]; expired: number };

/** How many service reads the digest's line makes at most; the rest count as they are known. */
const TALLY_CHECKS = 50;

export async function unpaidTally(
  deps: UnpaidDeps,
  registerKey: string,
  from: number,
  now: number,
): Promise<UnpaidTally> {
  const board = await deps.links.board();
  const links = unpaidOf(await linksMade(board, registerKey, from, now + 1), now);
  const toCheck = links.filter((link) => link.known !== "expired").slice(0, TALLY_CHECKS);
  const read = new Set(toCheck);
  const still = [...(await checked(deps, registerKey, toCheck)), ...links.filter((link) => !read.has(link))];
  const open = still.filter((link) => link.known === "open");
  return { open: open.length, openTotals: totalsOf(open), expired: still.length - open.length };
}
