import { z } from "zod";
import type { AuditHead, AuditLink } from "./chain.js";
import type { AuditAction } from "./entry.js";

// What a store engine does for the trail: keep links, name a team's head, and append only on the
// head an entry's hash was computed on (compare-and-append), so replicas appending at once never
// fork the chain nor leave a gap: of two appends on one head, one lands and the other is told to
// read the head again. Hashing and checking stay engine-free (chain.ts, verify.ts).

/** Which entries a page holds: newest first, below a cursor, within a time range, by actor or action. */
export type AuditQuery = {
  /** Entries older than this sequence number only (a page's `next`). */
  beforeSeq?: number | undefined;
  /** Times in ms: from inclusive, to exclusive. */
  from?: number | undefined;
  to?: number | undefined;
  actor?: string | undefined;
  action?: AuditAction | undefined;
  limit: number;
};

/** The oldest kept link and the newest of the prefix older than a time, which retention may remove. */
export type AuditPrefix = { first: AuditLink; last: AuditLink };

export interface AuditEngine {
  /** The team's newest link's place; undefined while the team has none. */
  head(team: string): Promise<AuditHead | undefined>;
  /**
   * Stores `link` only while the team's head is still `expected` (undefined: the team has no link)
   * and `link` is the one after it; false, with nothing written, when another append came first.
   */
  append(link: AuditLink, expected: AuditHead | undefined): Promise<boolean>;
  /**
   * As append, and in the same atomic step removes the team's links up to `throughSeq` (a prefix of
   * the chain): retention and its record land together or not at all.
   */
  removeThrough(throughSeq: number, link: AuditLink, expected: AuditHead): Promise<boolean>;
  /** Up to `limit` links numbered above `afterSeq` (0: from the oldest kept), in order. */
  walk(team: string, afterSeq: number, limit: number): Promise<AuditLink[]>;
  /** The links a query matches, newest (highest number) first. */
  page(team: string, query: AuditQuery): Promise<AuditLink[]>;
  /** The prefix of links whose times are before `before` (ms); undefined when there is none. */
  prefixBefore(team: string, before: number): Promise<AuditPrefix | undefined>;
  /** Every team with a chain (uninstalled ones too: retention needs them all). */
  teams(): Promise<string[]>;
}

/** A stored link as any engine reads it back (PostgreSQL's BIGINT arrives as text). */
export const auditLinkSchema = z.object({
  team: z.string(),
  seq: z.coerce.number().int().positive(),
  at: z.coerce.number().int(),
  actor: z.string(),
  action: z.string(),
  entry: z.string(),
  prevHash: z.string(),
  hash: z.string(),
});

/** An SQL row of `<prefix>_audit_entries` as a link. */
export const auditRowSchema = z
  .object({
    team: z.string(),
    seq: z.coerce.number().int().positive(),
    at: z.coerce.number().int(),
    actor: z.string(),
    action: z.string(),
    entry: z.string(),
    prev_hash: z.string(),
    hash: z.string(),
  })
  .transform(({ prev_hash, ...row }): AuditLink => ({ ...row, prevHash: prev_hash }));

export const auditHeadSchema = z.object({
  seq: z.coerce.number().int().positive(),
  hash: z.string(),
  at: z.coerce.number().int(),
});

export const teamRowsSchema = z.array(z.object({ team: z.string() }));
export const seqRowSchema = z.object({ seq: z.coerce.number().int().positive() });

/** Whether a head read is the one expected (both none, or the same place and hash). */
export function sameHead(found: AuditHead | undefined, expected: AuditHead | undefined): boolean {
  if (!found || !expected) return !found && !expected;
  return found.seq === expected.seq && found.hash === expected.hash;
}

/** The columns of `<prefix>_audit_entries` in the order the SQL engines write them. */
export const AUDIT_COLUMNS = "team, seq, at, actor, action, entry, prev_hash, hash";

/** A link's values in AUDIT_COLUMNS' order. */
export const linkValues = (link: AuditLink) =>
  [link.team, link.seq, link.at, link.actor, link.action, link.entry, link.prevHash, link.hash] as const;
