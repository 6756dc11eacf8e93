import { FamilyBusyError } from "../store/claims/family.js";
import type { ClaimBoard } from "../store/claims/index.js";
import { NOTICE_FIELD, type PayoutNotice, payoutNoticeSchema } from "./notice-model.js";
import { PAYOUTS } from "./request-model.js";

// A request's notice on the board: the state `notice` of its item in the payout family (PAYOUTS),
// read, patched and compare-and-set through it.

/** A notice as read: its parsed state and the raw value a compare-and-set compares with. */
export type ReadNotice = { notice: PayoutNotice; raw: unknown };

export async function readNotice(board: ClaimBoard, id: string): Promise<ReadNotice | undefined> {
  const stored = await PAYOUTS.read(board, id, NOTICE_FIELD);
  return stored.value ? { notice: stored.value, raw: stored.raw } : undefined;
}

/**
 * Applies `patch` to the notice as stored now (PAYOUTS.update, a few tries): the notice written, or
 * undefined when there is none, `patch` declined (undefined), or it never landed.
 */
export async function patchNotice(
  board: ClaimBoard,
  id: string,
  patch: (notice: PayoutNotice) => PayoutNotice | undefined,
): Promise<PayoutNotice | undefined> {
  try {
    return await PAYOUTS.update(
      board,
      id,
      NOTICE_FIELD,
      (stored) => {
        const next = stored.value && patch(stored.value);
        return next ? { next, result: next } : { result: undefined };
      },
      5,
    );
  } catch (error) {
    if (error instanceof FamilyBusyError) return undefined;
    throw error;
  }
}

/** Compare-and-set of the notice (undefined `read`: only when there is none yet). */
export async function swapNotice(
  board: ClaimBoard,
  id: string,
  read: ReadNotice | undefined,
  next: PayoutNotice,
): Promise<ReadNotice | undefined> {
  const checked = payoutNoticeSchema.parse(next);
  const swapped = await PAYOUTS.swap(board, id, NOTICE_FIELD, read?.raw, checked);
  return swapped ? { notice: checked, raw: checked } : undefined;
}
