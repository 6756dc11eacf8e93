import { z } from "zod";
import { addDecimals } from "../payments/decimal.js";
import { METHOD_CODE, USER_ID } from "../payouts/policy.js";
import { defineFamily } from "../store/claims/family.js";
import type { ClaimBoard } from "../store/claims/index.js";

// A batch of payouts (issue 52, item 3): one item of family `payout-batch` on the claim board (key:
// the batch's id), with its state `batch` (its rows, each row's payout request or refusal, the
// approvals, its status) and its state `card` (where Slack shows it, what the card shows, the result
// file told). Each row that got a quote is a payout request of its own (src/payouts, `batch` set):
// the payout worker sends each one once; the batch decides when they may go. The item's schedule is
// the batch follower's (follow.ts): due while it waits (its expiry), often while its rows are sent.

export const BATCH_FAMILY = "payout-batch";
export const BATCH_FIELD = "batch";
export const CARD_FIELD = "card";

const decimal = z.string().regex(/^-?\d+(\.\d+)?$/);
const time = z.iso.datetime();
const person = z.string().regex(USER_ID);
const byAt = z.object({ by: person, at: time });
export const BATCH_ID = /^[a-z2-7]{10}$/;

/**
 * quoting (rows being checked and quoted) → waiting (approvals being given; refused rows may wait
 * to be dropped) → approved (its rows go to the payout worker) → ended (every row at its end). Off
 * the road: rejected, cancelled (by its requester, or by Kassa when quoting never finished),
 * expired (not approved in time). Each of these ends every row's quote.
 */
export const BATCH_STATUSES = [
  "quoting",
  "waiting",
  "approved",
  "ended",
  "rejected",
  "cancelled",
  "expired",
] as const;
export type BatchStatus = (typeof BATCH_STATUSES)[number];
export const BATCH_FINAL: ReadonlySet<BatchStatus> = new Set(["ended", "rejected", "cancelled", "expired"]);

/** Why a row has no quote: Kassa's checks before the service, or the service's refusal in its words. */
const refusalSchema = z.object({
  kind: z.enum([
    "duplicate",
    "method_not_allowed",
    "unknown_recipient",
    "invalid",
    "service_refused",
    "cap",
    "other",
    "unanswered",
  ]),
  /** What to show: the service's own words, or the duplicate's row, or the field that is wrong. */
  words: z.array(z.string().max(500)).max(5),
});
export type RowRefusal = z.infer<typeof refusalSchema>;

const rowSchema = z.object({
  row: z.number().int().min(1).max(50),
  line: z.number().int().min(1),
  /** The trusted recipient it pays (by its label in the paste, or its method and wallet). */
  recipient: z.object({ id: z.string().regex(BATCH_ID), label: z.string().min(1).max(80) }).optional(),
  label: z.string().max(80).optional(),
  method: z.string().max(40),
  wallet: z.string().max(512),
  amount: decimal,
  feeFrom: z.enum(["balance", "amount"]),
  reference: z.string().max(200),
  /** Its payout request (the service's payout id), once quoted. */
  payout: z.string().min(1).max(100).optional(),
  /** The quote's figures, in `currency`; `rub` what the caps and approvals count. */
  quote: z
    .object({
      amount: decimal,
      fee: decimal,
      receives: decimal,
      leavesBalance: decimal,
      currency: z.string().min(1).max(16),
      rub: decimal,
    })
    .optional(),
  refusal: refusalSchema.optional(),
  /** Taken out by Drop refused rows (a refused row), and by whom. */
  dropped: byAt.optional(),
});
export type BatchRow = z.infer<typeof rowSchema>;

export const batchSchema = z.object({
  v: z.literal(1),
  id: z.string().regex(BATCH_ID),
  registerKey: z.string().min(1).max(200),
  team: z.string().min(1),
  requester: person,
  reason: z.string().min(1).max(500),
  createdAt: time,
  /** Approvals are taken until then (its first row's quote's expiry). */
  expiresAt: time,
  status: z.enum(BATCH_STATUSES),
  rows: z.array(rowSchema).min(1).max(50),
  /** Each method's balance when it was quoted (absent: not read in time). */
  balances: z.array(
    z.object({ method: z.string().regex(METHOD_CODE), value: decimal, currency: z.string() }),
  ),
  needed: z.number().int().min(1).max(2),
  rule: z.enum(["threshold", "trusted_one"]),
  ruleAt: decimal,
  votes: z.array(byAt),
  approvedAt: time.optional(),
  rejection: byAt.extend({ reason: z.string().min(1).max(500) }).optional(),
  /** Approved, then its rows not yet sent stopped by an approver (Stop unsent rows), with why. */
  stopped: byAt.extend({ reason: z.string().min(1).max(500) }).optional(),
  /** requester: its Cancel batch; quoting_lost: its quoting never finished; card_refused: the approval channel refused its card. */
  cancellation: byAt.extend({ why: z.enum(["requester", "quoting_lost", "card_refused"]) }).optional(),
  endedAt: time.optional(),
});
export type Batch = z.infer<typeof batchSchema>;

/**
 * Why Slack refused a card for good (src/slack/failures.ts): Kassa is not in the channel or cannot
 * see it, the channel is archived, or the workspace does not let Kassa post there.
 */
export const CARD_REFUSALS = ["not_in_channel", "archived", "restricted"] as const;
export type CardRefusal = (typeof CARD_REFUSALS)[number];

/** Where the batch's end is told: the card's thread, and its requester's messages with Kassa. */
const TOLD_TO = z.enum(["thread", "requester"]);
export type ToldTo = z.infer<typeof TOLD_TO>;

export const batchCardSchema = z.object({
  v: z.literal(1),
  channel: z.string().min(1).max(40),
  register: z.string().min(1).max(40),
  several: z.boolean(),
  lang: z.enum(["en", "ru"]),
  card: z.object({ channel: z.string().min(1), ts: z.string().min(1) }).optional(),
  /** What the card last showed (a key of the batch and its rows); differs: an update is owed. */
  shows: z.string().optional(),
  /** The result file, posted in the card's thread and to the requester (or the note of `refused`): where it went. */
  told: z.array(TOLD_TO),
  /** The approval channel refused to post the card, for good (Slack's code): the batch ends unshown. */
  refused: z.object({ why: z.enum(CARD_REFUSALS), code: z.string().max(100), at: time }).optional(),
  /** Where Slack refused the end for good (the channel gone, the person deactivated): not tried again. */
  unsent: z.array(z.object({ to: TOLD_TO, code: z.string().max(100), at: time })).optional(),
});
export type BatchCard = z.infer<typeof batchCardSchema>;

export const BATCHES = defineFamily({
  name: BATCH_FAMILY,
  fields: { [BATCH_FIELD]: batchSchema, [CARD_FIELD]: batchCardSchema },
  kept: "until 30 days after it ended (the follower forgets it then)",
});

/** The batch `id` when it is workspace `team`'s; undefined when none, unreadable, or another's. */
export async function readBatch(board: ClaimBoard, id: string, team?: string): Promise<Batch | undefined> {
  if (!BATCH_ID.test(id)) return undefined;
  const read = (await BATCHES.read(board, id, BATCH_FIELD)).value;
  return read && (team === undefined || read.team === team) ? read : undefined;
}

export async function readBatchCard(board: ClaimBoard, id: string): Promise<BatchCard | undefined> {
  return (await BATCHES.read(board, id, CARD_FIELD)).value;
}

/** A method's balance as read when the batch was asked for (its currency is the method's). */
export type MethodBalance = Batch["balances"][number];

/** The rows that go (quoted, not dropped). */
export function keptRows(batch: Batch): BatchRow[] {
  return batch.rows.filter((row) => row.payout !== undefined && row.quote !== undefined && !row.dropped);
}

/** The batch's total (RUB) of its kept rows: what approvers type, and what their limits must cover. */
export function batchTotal(batch: Batch): string {
  const kept = keptRows(batch);
  return kept.length > 0 ? addDecimals(...kept.map((row) => row.quote?.rub ?? "0")) : "0";
}

/** The rows refused and not yet dropped: while any is left, nobody may approve. */
export function refusedRows(batch: Batch): BatchRow[] {
  return batch.rows.filter((row) => row.refusal !== undefined && !row.dropped);
}
