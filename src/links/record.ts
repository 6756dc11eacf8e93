import { z } from "zod";
import { REF_PATTERN } from "../payments/marker.js";
import type { ClaimBoard } from "../store/claims/board.js";
import { type Change, defineFamily, type Stored } from "../store/claims/family.js";

// A payment link's record (issue 51): written on the claim board before invoice/create is sent, so
// Kassa knows every invoice it asked for, whatever the answer: who it is for, what it asked, and
// where it went. Its item's schedule is the link's next look (links/pass.ts): a lost one looked
// for, a stuck `creating` taken as lost, a kept one forgotten. The later items of issue 51
// (reminders, re-issues, schedules) keep their fields here.

export const LINK_FAMILY = "link";
const LINK_FIELD = "link";

/** An amount as the create form takes it: exact, never a float. */
const AMOUNT = /^\d{1,15}(\.\d{1,8})?$/;
const ref = z.string().regex(REF_PATTERN);

/**
 * `creating`: sent, or about to be; `created`: the service answered with its id (or the pass found
 * it by its marker); `unsure`: the answer was lost, so it may exist; `failed`: refused, or never sent.
 */
export const LINK_STATUSES = ["creating", "created", "unsure", "failed"] as const;
export type LinkStatus = (typeof LINK_STATUSES)[number];

export const linkSchema = z.object({
  v: z.literal(1),
  ref,
  status: z.enum(LINK_STATUSES),
  /** The invoice, once the service named it (answered, or found by its marker). */
  invoiceId: z.string().min(1).max(100).optional(),
  url: z.string().max(500).optional(),
  /** Whether `extra` carries the marker (false: the user's text left no room; only this record knows it). */
  marked: z.boolean(),
  team: z.string().min(1).max(40),
  /** The register's name, where it is not main. */
  register: z.string().min(1).max(100).optional(),
  /** Who it is for: a label Kassa keeps (never sent to the service). */
  customer: z.string().min(1).max(80).optional(),
  /** v3's `payer_details`. */
  email: z.string().min(3).max(254).optional(),
  amount: z.string().regex(AMOUNT),
  currency: z.string().min(1).max(12),
  description: z.string().max(500).optional(),
  /** The user's own `extra`, without the marker. */
  extra: z.string().max(200).optional(),
  method: z.string().min(1).max(60).optional(),
  lifetimeMinutes: z.number().int().min(1).max(4320),
  /** Who asked: a person's Slack id, or "workflow" for a step that named nobody. */
  creator: z.string().min(1).max(40),
  /** Where its card goes (a workflow step may name none). */
  channel: z.string().min(1).max(40).optional(),
  via: z.enum(["form", "step", "create_now", "reissue", "schedule"]),
  /** The workflow run that asked, for a step's. */
  run: z.string().min(1).max(80).optional(),
  /** When Kassa asked (epoch ms, the server's clock). */
  createdAt: z.number().int().nonnegative(),
  /** When its page closes: the ask's time plus its lifetime (the service counts from its own, seconds later). */
  expiresAt: z.number().int().nonnegative().optional(),
  /** Create now made another for this unsure one: a late find is told, never posted as a second card. */
  supersededBy: ref.optional(),
  /** The unsure one this was made for (Create now). */
  supersedes: ref.optional(),
  // Issue 51's later items: each link's reminder, re-issue and schedule.
  /** Minutes before expiry to remind the creator (0 or absent: none). */
  remind: z.number().int().min(0).max(4320).optional(),
  /** Slack took the reminder: it is never sent again. */
  reminded: z.boolean().optional(),
  /**
   * The reminder is being sent since then (epoch ms, the server's clock): written before Slack is
   * called, cleared by Slack's answer. Younger than the grace (next-look.ts) another look is sending
   * it; older, its sender stopped before Slack's answer was written, and it is owed again.
   */
  reminding: z.number().int().nonnegative().optional(),
  /** The re-issued link's ref, and the one this one re-issues. */
  replacedBy: ref.optional(),
  replaces: ref.optional(),
  scheduleId: z.string().min(1).max(80).optional(),
  /** Where its card was posted (the card's thread takes a re-issue's card; the card is marked replaced). */
  card: z.object({ channel: z.string().min(1).max(40), ts: z.string().min(1).max(40) }).optional(),
  /** How it ended, once the pass looked after its page closed (or saw it paid): what `/invoice unpaid` reads. */
  outcome: z.enum(["paid", "expired"]).optional(),
  /** Who re-issued it (a person's Slack id). */
  replacedByUser: z.string().min(1).max(40).optional(),
  /** Both this link and its re-issue were paid: the alert was given (once). */
  paidTwiceTold: z.boolean().optional(),
});
export type LinkRecord = z.infer<typeof linkSchema>;

/** How long a record is kept after its page closed (a quarter): `/invoice unpaid` and re-issues read it. */
const KEPT_DAYS = 92;
export const KEPT_AFTER_CLOSE_MS = KEPT_DAYS * 86_400_000;

/** The family: one item per link, keyed by its register and ref. */
export const LINKS = defineFamily({
  name: LINK_FAMILY,
  fields: { [LINK_FIELD]: linkSchema },
  kept: `until ${KEPT_DAYS} days after its page closes`,
});

/** A link's key: its register's key (main's is the team id) and its ref. */
export function linkKey(registerKey: string, linkRef: string): string {
  return `${registerKey}:${linkRef}`;
}

/** The register key and ref a link's key names. */
export function keyParts(key: string): { registerKey: string; ref: string } | undefined {
  const at = key.lastIndexOf(":");
  const linkRef = key.slice(at + 1);
  if (at <= 0 || !REF_PATTERN.test(linkRef)) return undefined;
  return { registerKey: key.slice(0, at), ref: linkRef };
}

/** The link's record (undefined: none, or unreadable). */
export async function readLink(board: ClaimBoard, key: string): Promise<LinkRecord | undefined> {
  return (await LINKS.read(board, key, LINK_FIELD)).value;
}

/** Read-change-compare-and-set of a link's record (the family's one loop). */
export function changeLink<R>(
  board: ClaimBoard,
  key: string,
  change: (stored: Stored<LinkRecord>) => Change<LinkRecord, R> | Promise<Change<LinkRecord, R>>,
): Promise<R> {
  return LINKS.update(board, key, LINK_FIELD, change);
}

/** When the record may be forgotten: its page's close (or the ask's, when never known) plus the keep. */
export function keptUntil(record: LinkRecord): number {
  const closes = record.expiresAt ?? record.createdAt + record.lifetimeMinutes * 60_000;
  return closes + KEPT_AFTER_CLOSE_MS;
}
