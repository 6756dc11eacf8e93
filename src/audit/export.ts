import { inertText } from "../exports/columns.js";
import { csvRecord, UTF8_BOM } from "../exports/csv.js";
import { canonicalJson } from "./chain.js";
import type { AuditQuery } from "./engine.js";
import type { AuditPage, ListedEntry } from "./trail.js";

// `/invoice audit export`: a period's entries as CSV and as JSON Lines, oldest first, every field
// with each entry's number, previous hash and hash, so an auditor can recompute the chain.

/** The most entries one export holds (a workspace's busiest month is far below it). */
export const MAX_EXPORTED = 100_000;
const PAGE = 200;

export const AUDIT_CSV_COLUMNS = [
  "seq",
  "time",
  "team",
  "org",
  "register",
  "actor",
  "action",
  "object",
  "before",
  "after",
  "outcome",
  "reason",
  "prev_hash",
  "hash",
] as const;

/**
 * Every entry of `team` from `from` up to `to` (ms), oldest first, read newest first a page at a
 * time; `truncated` when more than MAX_EXPORTED were there (the newest are kept).
 */
export async function collectEntries(
  trail: { list(team: string, query: Omit<AuditQuery, "limit"> & { limit?: number }): Promise<AuditPage> },
  team: string,
  range: { from?: number; to?: number },
  max = MAX_EXPORTED,
): Promise<{ entries: ListedEntry[]; truncated: boolean }> {
  const entries: ListedEntry[] = [];
  let beforeSeq: number | undefined;
  for (;;) {
    const page = await trail.list(team, { ...range, ...(beforeSeq ? { beforeSeq } : {}), limit: PAGE });
    entries.push(...page.entries);
    if (entries.length >= max) return { entries: entries.slice(0, max).reverse(), truncated: true };
    if (page.next === undefined) return { entries: entries.reverse(), truncated: false };
    beforeSeq = page.next;
  }
}

/** JSON of a before/after for one CSV cell ("" when absent). */
const json = (value: unknown) => (value === undefined ? "" : canonicalJson(value));

/** The entries as CSV (UTF-8 with a BOM, CRLF): a header, then a row each; no cell computes. */
export function auditCsv(entries: readonly ListedEntry[]): string {
  let text = UTF8_BOM + csvRecord(AUDIT_CSV_COLUMNS);
  for (const { seq, hash, prevHash, entry } of entries) {
    const cells = [
      entry?.time,
      entry?.team,
      entry?.org,
      entry?.register,
      entry?.actor,
      entry?.action ?? "(unreadable)",
      entry?.object,
      json(entry?.before),
      json(entry?.after),
      entry?.outcome,
      entry?.reason,
    ].map((cell) => inertText(cell));
    text += csvRecord([String(seq), ...cells, prevHash, hash]);
  }
  return text;
}

/** The entries as JSON Lines: one object a line, `{seq, prevHash, hash, entry}` (entry null: unreadable). */
export function auditJsonLines(entries: readonly ListedEntry[]): string {
  return entries
    .map(
      ({ seq, prevHash, hash, entry }) =>
        `${JSON.stringify({ seq, prevHash, hash, entry: entry ?? null })}\n`,
    )
    .join("");
}
