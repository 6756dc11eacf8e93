import { createHash, createHmac } from "node:crypto";
import { z } from "zod";

// One act done through Kassa, as the audit trail keeps it. What an auditor asks about a month of
// money, and nothing that would embarrass the team if the file leaked: people by Slack id, never
// by name; a changed key by its fingerprint, never the key.

/** Every act the trail records (issue 41, item 1): a closed list, so a report can word each one. */
export const AUDIT_ACTIONS = [
  "register.connected",
  "register.edited",
  "register.disconnected",
  // An admin's `/invoice use NAME`: which register a channel's commands read.
  "register.channel_set",
  "app.installed",
  "app.uninstalled",
  "settings.language_changed",
  "settings.visibility_changed",
  "settings.creators_changed",
  "settings.workflow_changed",
  "feed.subscribed",
  "feed.unsubscribed",
  "feed.form_saved",
  "digest.set",
  "callback.rotated",
  "invoice.created",
  // An invoice whose create answer was lost, found by Kassa's marker in the history (issue 51).
  "invoice.found",
  // A payment link made again with the same fields (issue 51): `object` the old invoice, `after` the new one.
  "invoice.reissued",
  // A repeating invoice (issue 51): made, paused (by a person, or by Kassa when its register was
  // disconnected at a run), resumed, deleted, and each run (by Kassa; outcome "failed" with why).
  "schedule.created",
  "schedule.paused",
  "schedule.resumed",
  "schedule.deleted",
  "schedule.ran",
  "export.asked",
  // A channel's balance alert set (or its threshold changed) or removed (/balance alert).
  "balance.alert_set",
  "balance.alert_removed",
  "payout.policy_changed",
  "payout.requested",
  "payout.approved",
  "payout.rejected",
  "payout.cancelled",
  "payout.submitted",
  "payout.ended",
  // A payout in the service's history that Kassa did not make (written by Kassa's payout watch).
  "payout.outside",
  // An approved payout not sent yet back to waiting: the policy now asks more approvals of its amount.
  "payout.reopened",
  // A refund of a paid invoice (issue 52): its amount held for the request, paid out, or let go.
  "refund.asked",
  "refund.paid",
  "refund.released",
  // A batch of payouts (issue 52): asked (its rows quoted), its refused rows dropped, each approval
  // (outcome "refused" for a click that may not), rejected, cancelled (by its requester or by Kassa),
  // expired, and ended (every row at its end). Each row's own steps are its payout's entries.
  "batch.requested",
  "batch.rows_dropped",
  "batch.approved",
  "batch.rejected",
  "batch.cancelled",
  "batch.expired",
  "batch.ended",
  // A register's trusted payout recipients (issue 52): added, each approver's confirmation (outcome
  // "refused" for a wrong last four or a person who may not), trusted after two, removed by an admin.
  "recipient.added",
  "recipient.confirmed",
  "recipient.trusted",
  "recipient.removed",
  // A method switched on or off, or its surcharge set, at the service from Kassa (outcome "refused"
  // when the service refused it, "failed" with the reason "unsure" when its answer was lost), and a
  // change Kassa did not make.
  "method.switched",
  "method.surcharge_set",
  "method.outside",
  // An admin's `/paymethods watch` form saved, or `watch off`; an alert snoozed.
  "method.watch_set",
  "method.watch_off",
  "method.snoozed",
  // A refused admin-only or money act that has no action of its own above (a listed act that is
  // refused keeps its own action, with outcome "refused"); `object` names what was tried.
  "act.refused",
  // The trail's own retention (written by Kassa): which entries went, and the hash the rest chain from.
  "audit.days_removed",
  // An admin's `/invoice audit channel` (or `off`): where the daily head of the chain is posted.
  "audit.channel_set",
] as const;

export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** A Slack workspace (T…) or an org-wide install's org (E…). */
const TEAM_ID = /^[TE][A-Z0-9]{2,20}$/;
const ORG_ID = /^E[A-Z0-9]{2,20}$/;
/** A person's Slack id, a workflow run ("workflow:<id>"), the operators' CLI, or Kassa itself. */
const ACTOR = /^(?:[UW][A-Z0-9]{2,20}|workflow:[A-Za-z0-9_.:-]{1,80}|cli|kassa)$/;
/** ISO 8601 in UTC to the millisecond, as Date#toISOString writes it: text order is time order. */
const UTC_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** The longest canonical form of one entry: before/after are summaries, not documents. */
export const MAX_ENTRY_CHARS = 8000;

export const auditEntrySchema = z
  .strictObject({
    time: z
      .string()
      .regex(UTC_TIME, { error: "must be an ISO time in UTC such as 2026-11-26T09:28:00.000Z" }),
    team: z.string().regex(TEAM_ID),
    org: z.string().regex(ORG_ID).optional(),
    register: z.string().min(1).max(100).optional(),
    actor: z.string().regex(ACTOR, { error: 'must be a Slack user id, "workflow:<id>", "cli" or "kassa"' }),
    action: z.enum(AUDIT_ACTIONS),
    object: z.string().min(1).max(300),
    before: z.json().optional(),
    after: z.json().optional(),
    outcome: z.enum(["done", "refused", "failed"]),
    /** Why it was refused or failed, in a few words (a code or a short sentence). */
    reason: z.string().min(1).max(200).optional(),
    /**
     * The act's own id, for an entry written first as owed with its act (src/audit/owed.ts): the
     * trail appends an entry of a given ref once, however often it is handed over.
     */
    ref: z
      .string()
      .regex(/^[A-Za-z0-9_.-]{8,80}$/)
      .optional(),
  })
  .refine((entry) => entry.outcome === "done" || entry.reason !== undefined, {
    error: "a refused or failed act says why (reason)",
    path: ["reason"],
  })
  .refine((entry) => Number.isFinite(Date.parse(entry.time)), { error: "not a real time", path: ["time"] });

export type AuditEntry = z.output<typeof auditEntrySchema>;

/** What a caller records: the entry; its time is the trail's clock unless given. */
export type AuditInput = Omit<AuditEntry, "time"> & { time?: string };

/**
 * A secret's fingerprint for an entry's before/after: "sha256:" and the first 12 hex digits of its
 * SHA-256 (or, given a key, its HMAC-SHA-256), enough to see that a key changed and to match it
 * against a key someone holds, never enough to recover it.
 */
export function fingerprint(secret: string, key?: Buffer): string {
  const digest = key ? createHmac("sha256", key) : createHash("sha256");
  return `${key ? "hmac-sha256" : "sha256"}:${digest.update(secret, "utf8").digest("hex").slice(0, 12)}`;
}
