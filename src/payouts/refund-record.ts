import { z } from "zod";
import { appendOwed, type OwedDeps, type OwedEntry, owedEntry } from "../audit/owed.js";
import { addDecimals, compareDecimals } from "../payments/decimal.js";
import { type PaidRefund, paidRefundSchema } from "../reports/refunds.js";
import { type Change, defineFamily } from "../store/claims/family.js";
import type { ClaimBoard } from "../store/claims/index.js";
import { MAIN_REGISTER, registerOfKey } from "../store/registers.js";
import { USER_ID } from "./policy.js";

// A paid invoice's refunds (issue 52): one item of family `invoice-refund` per register and invoice,
// listing each refund asked for it. A refund's amount is held there (`reserved`) by compare-and-set
// before its request is stored, so two refunds asked at once on two replicas can never together
// give back more than was paid; it becomes `paid` once its payout ends paid, and is let go (removed)
// when its request ends without paying. The register's paid refunds are listed too (for reports and
// exports), in the same family under the register's own key.

export const REFUND_FAMILY = "invoice-refund";
const REFUND_FIELD = "refund";
const PAID_FIELD = "paid";
/** How many paid refunds a register's list keeps (the oldest go first). */
const PAID_LIST_MAX = 5000;

const decimal = z.string().regex(/^\d+(\.\d+)?$/);
const time = z.iso.datetime();

const entrySchema = z.object({
  payout: z.string().regex(/^[A-Za-z0-9_-]{1,100}$/),
  amount: decimal,
  by: z.string().regex(USER_ID),
  at: time,
  status: z.enum(["reserved", "paid"]),
  paidAt: time.optional(),
});
export type RefundEntry = z.infer<typeof entrySchema>;

/** What the invoice's payment brought in: the amount refunds are held against, and when it was paid. */
export const paidSchema = z.object({
  amount: decimal,
  currency: z.string().min(1).max(16),
  at: time.nullable(),
});
export type InvoicePaid = z.infer<typeof paidSchema>;

export const refundRecordSchema = z.object({
  v: z.literal(1),
  registerKey: z.string().min(1).max(200),
  invoiceId: z.string().min(1).max(100),
  paid: paidSchema,
  refunds: z.array(entrySchema).max(200),
});
export type RefundRecord = z.infer<typeof refundRecordSchema>;

const paidListSchema = z.object({ v: z.literal(1), refunds: z.array(paidRefundSchema).max(PAID_LIST_MAX) });

/** The family, declared once: an item per register and invoice (state `refund`), and per register (`paid`). */
export const REFUNDS = defineFamily({
  name: REFUND_FAMILY,
  fields: { [REFUND_FIELD]: refundRecordSchema, [PAID_FIELD]: paidListSchema },
  kept: "as long as the register is connected (an invoice's refunds and the register's paid list)",
});

export const refundKey = (registerKey: string, invoiceId: string) => `${registerKey}/${invoiceId}`;

/** What an invoice's refunds come to: paid out, still on their way (held), and what is left to refund. */
export type RefundFigures = { paid: InvoicePaid; refunded: string; onItsWay: string; left: string };

export function figuresOf(record: Pick<RefundRecord, "paid" | "refunds">): RefundFigures {
  const sum = (status: RefundEntry["status"]) =>
    addDecimals("0", ...record.refunds.filter((one) => one.status === status).map((one) => one.amount));
  const refunded = sum("paid");
  const onItsWay = sum("reserved");
  const left = addDecimals(record.paid.amount, `-${refunded}`, `-${onItsWay}`);
  return { paid: record.paid, refunded, onItsWay, left: compareDecimals(left, "0") > 0 ? left : "0" };
}

/** What holding and ending refunds needs: the board, and the audit trail their entries go to. */
export type RefundDeps = OwedDeps & { board: ClaimBoard };

/** The audit entry of a step of an invoice's refund. */
function refundEntry(
  registerKey: string,
  invoiceId: string,
  act: { action: "refund.asked" | "refund.paid" | "refund.released"; actor: string; time: Date },
  entry: Pick<RefundEntry, "payout" | "amount">,
  currency: string,
  reason?: string,
): OwedEntry {
  const { team, name } = registerOfKey(registerKey);
  return owedEntry({
    time: act.time.toISOString(),
    team,
    ...(name === MAIN_REGISTER ? {} : { register: name }),
    actor: act.actor,
    action: act.action,
    object: `invoice ${invoiceId}`,
    after: { payout: entry.payout, amount: entry.amount, currency },
    outcome: "done",
    ...(reason ? { reason } : {}),
  });
}

/** A refund to hold: the invoice (and what it was paid), the payout quoted for it, who asks. */
export type RefundHold = {
  registerKey: string;
  invoiceId: string;
  paid: InvoicePaid;
  payout: string;
  /** In the payment's currency. */
  amount: string;
  currency: string;
  by: string;
  time: Date;
};

export type HoldResult =
  | { ok: true; figures: RefundFigures }
  | { ok: false; why: "over"; figures: RefundFigures }
  | { ok: false; why: "currency"; paid: InvoicePaid }
  | { ok: false; why: "unreadable" };

/**
 * Holds `hold.amount` of the invoice's payment for a refund, by compare-and-set: only while what was
 * paid, less what was refunded and what is on its way, still covers it (refund.asked written along).
 */
export async function holdRefund(deps: RefundDeps, hold: RefundHold): Promise<HoldResult> {
  const key = refundKey(hold.registerKey, hold.invoiceId);
  const result = await REFUNDS.update<typeof REFUND_FIELD, HoldResult>(
    deps.board,
    key,
    REFUND_FIELD,
    (stored) =>
      stored.raw !== undefined && !stored.value
        ? { result: { ok: false, why: "unreadable" } }
        : holdIn(stored.value, hold),
  );
  if (result.ok) await appendOwed(deps, hold.time.getTime());
  return result;
}

/** What holding `hold` does to the invoice's record (none yet: a new one): held, or why not. */
function holdIn(stored: RefundRecord | undefined, hold: RefundHold): Change<RefundRecord, HoldResult> {
  const record: RefundRecord = stored ?? {
    v: 1,
    registerKey: hold.registerKey,
    invoiceId: hold.invoiceId,
    paid: hold.paid,
    refunds: [],
  };
  if (record.paid.currency.toUpperCase() !== hold.currency.toUpperCase())
    return { result: { ok: false, why: "currency", paid: record.paid } };
  const figures = figuresOf(record);
  if (record.refunds.some((one) => one.payout === hold.payout)) return { result: { ok: true, figures } };
  if (compareDecimals(hold.amount, figures.left) > 0) return { result: { ok: false, why: "over", figures } };
  const entry: RefundEntry = {
    payout: hold.payout,
    amount: hold.amount,
    by: hold.by,
    at: hold.time.toISOString(),
    status: "reserved",
  };
  const next = { ...record, refunds: [...record.refunds, entry] };
  const act = { action: "refund.asked" as const, actor: hold.by, time: hold.time };
  const along = refundEntry(hold.registerKey, hold.invoiceId, act, entry, record.paid.currency);
  return { result: { ok: true, figures: figuresOf(next) }, next, along };
}

/**
 * Ends the hold of payout `payout`: paid (its payout ended paid: kept, as refunded, and listed in the
 * register's paid refunds) or released (its request ended without paying: removed). Once: a hold
 * already ended is left as it is.
 */
export async function endHold(
  deps: RefundDeps,
  where: { registerKey: string; invoiceId: string; payout: string },
  end: { paid: boolean; at: Date; reason?: string | undefined },
): Promise<void> {
  const key = refundKey(where.registerKey, where.invoiceId);
  const ended = await REFUNDS.update(deps.board, key, REFUND_FIELD, (stored) => {
    const record = stored.value;
    const entry = record?.refunds.find((one) => one.payout === where.payout && one.status === "reserved");
    if (!record || !entry) return { result: undefined };
    const refunds = end.paid
      ? record.refunds.map((one) =>
          one === entry ? { ...one, status: "paid" as const, paidAt: end.at.toISOString() } : one,
        )
      : record.refunds.filter((one) => one !== entry);
    const act = {
      action: end.paid ? ("refund.paid" as const) : ("refund.released" as const),
      actor: "kassa",
      time: end.at,
    };
    const along = refundEntry(
      where.registerKey,
      where.invoiceId,
      act,
      entry,
      record.paid.currency,
      end.reason,
    );
    const paid = {
      invoiceId: where.invoiceId,
      payout: entry.payout,
      amount: entry.amount,
      currency: record.paid.currency,
      at: end.at.toISOString(),
    };
    return { result: paid, next: { ...record, refunds }, along };
  });
  if (ended && end.paid) await listPaid(deps, where.registerKey, ended);
  if (ended) await appendOwed(deps, end.at.getTime());
}

/** A paid refund added to its register's list (once per payout; the oldest go past PAID_LIST_MAX). */
async function listPaid(deps: RefundDeps, registerKey: string, paid: PaidRefund): Promise<void> {
  await REFUNDS.update(deps.board, registerKey, PAID_FIELD, (stored) => {
    const refunds = stored.value?.refunds ?? [];
    if (refunds.some((one) => one.payout === paid.payout)) return { result: undefined };
    return { result: undefined, next: { v: 1 as const, refunds: [...refunds, paid].slice(-PAID_LIST_MAX) } };
  });
}

/** The register's paid refunds, oldest first (none when none were paid, or the list is unreadable). */
export async function paidRefunds(
  deps: Pick<RefundDeps, "board">,
  registerKey: string,
): Promise<PaidRefund[]> {
  return (await REFUNDS.read(deps.board, registerKey, PAID_FIELD)).value?.refunds ?? [];
}

/** The invoice's refunds as stored (undefined: none asked yet, or unreadable). */
export async function refundRecord(
  deps: Pick<RefundDeps, "board">,
  registerKey: string,
  invoiceId: string,
): Promise<RefundRecord | undefined> {
  return (await REFUNDS.read(deps.board, refundKey(registerKey, invoiceId), REFUND_FIELD)).value;
}
