import type { HistoryEntry } from "../payments/history.js";
import { readExtra } from "../payments/marker.js";
import { PAYMENT_PAGE_HOST } from "../payments/payment-link.js";
import type { WorkspacePayments } from "../registers/workspace-payments.js";
import type { LinkRecord } from "./record.js";

// Finding an invoice whose create answer was lost, by Kassa's marker in its `extra` (marker.ts). v3's
// history items are whole invoices and carry `extra`; v2's carry no `extra`, so each v2 invoice
// created in the minutes around the attempt is read with invoice/info (a few at most). The history
// is read newest first, back to a little before the attempt, within a few pages.

export type FinderDeps = { payments: Pick<WorkspacePayments, "history" | "invoice" | "register"> };

/** How far the service's clock may be from Kassa's (its times are read in PAYMENTS_TIMEZONE). */
export const CLOCK_SLACK_MS = 5 * 60_000;
/** v2: invoices created this long after the attempt may be it (a slow service creates late). */
const V2_AFTER_MS = 15 * 60_000;
const PAGE_ITEMS = 100;
const MAX_PAGES = 5;
/** v2: the most invoices read one by one for one lost answer in one pass. */
const MAX_V2_READS = 20;

export type Found = { id: string; url: string };

/** The invoice carrying the link's marker in the register's recent history; undefined when not (yet) there. */
export async function findByMarker(
  deps: FinderDeps,
  registerKey: string,
  record: Pick<LinkRecord, "ref" | "createdAt">,
): Promise<Found | undefined> {
  const { apiVersion } = await deps.payments.register(registerKey);
  const from = record.createdAt - CLOCK_SLACK_MS;
  const candidates: HistoryEntry[] = [];
  for (let page = 1; page <= MAX_PAGES; page += 1) {
    const read = await deps.payments.history(registerKey, page, PAGE_ITEMS, "background");
    for (const entry of read.entries) {
      const at = entry.createdAt.epochSeconds * 1000;
      if (at < from) continue;
      if (apiVersion === "v3" && readExtra(entry.details?.extra).ref === record.ref) return foundOf(entry);
      if (apiVersion === "v2" && at <= record.createdAt + V2_AFTER_MS) candidates.push(entry);
    }
    const oldest = read.entries.at(-1);
    const more = read.hasNextPage ?? read.entries.length + read.unreadable >= PAGE_ITEMS;
    if (!more || !oldest || oldest.createdAt.epochSeconds * 1000 < from) break;
  }
  // v2: the candidates read one by one, the nearest to the attempt first.
  candidates.sort((a, b) => distance(a, record.createdAt) - distance(b, record.createdAt));
  for (const entry of candidates.slice(0, MAX_V2_READS)) {
    const invoice = await deps.payments.invoice(registerKey, entry.id);
    if (readExtra(invoice.extra).ref === record.ref)
      return { id: invoice.id, url: invoice.url ?? pageOf(invoice.id) };
  }
  return undefined;
}

function distance(entry: HistoryEntry, at: number): number {
  return Math.abs(entry.createdAt.epochSeconds * 1000 - at);
}

function foundOf(entry: HistoryEntry): Found {
  return { id: entry.id, url: entry.details?.url ?? pageOf(entry.id) };
}

function pageOf(id: string): string {
  return `https://${PAYMENT_PAGE_HOST}/?i=${id}`;
}
