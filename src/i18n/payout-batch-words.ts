/** A row's refusal (src/payout-batches' RowRefusal kinds). */
export type RowRefusalWord =
  | "duplicate"
  | "method_not_allowed"
  | "unknown_recipient"
  | "invalid"
  | "service_refused"
  | "cap"
  | "other"
  | "unanswered";

/** A pasted line that could not be read (src/payout-batches/rows.ts). */
export type PasteProblemWord = "columns" | "amount" | "fee" | "too_long" | "too_many" | "empty";

/** `/payout batch`: its form, its card, its buttons' modals and what its requester and approvers are told. */
export type PayoutBatchText = {
  formTitle: string;
  formIntro: (register: string, channel: string) => string;
  rows: string;
  rowsHint: string;
  reason: string;
  reasonHint: string;
  submit: string;
  close: string;
  paste: Record<PasteProblemWord, (line: number, detail: string) => string>;
  amountWhy: Record<"empty" | "not_a_number" | "ambiguous" | "zero", string>;
  started: (rows: number, channel: string) => string;
  quotedFailed: string;
  title: (register: string | undefined) => string;
  asks: (who: string, rows: number, total: string) => string;
  reasonLine: (reason: string) => string;
  rowLine: (row: number, to: string, amount: string, fee: string, arrives: string) => string;
  feeFrom: Record<"balance" | "amount", string>;
  trusted: string;
  referenceLine: (reference: string) => string;
  refused: Record<RowRefusalWord, (detail: string) => string>;
  dropped: (who: string) => string;
  rowState: Record<"waiting" | "approved" | "sending" | "sent" | "paid" | "failed" | "not_sent", string>;
  perMethod: string;
  methodLine: (method: string, rows: number, arrives: string, fees: string, leaves: string) => string;
  balanceIs: (balance: string) => string;
  balanceUnknown: string;
  short: (method: string, balance: string, leaves: string) => string;
  rule: (needed: number, rule: "threshold" | "trusted_one", at: string, anyUntrusted: boolean) => string;
  votesSoFar: (names: string, count: number, needed: number) => string;
  howToApprove: (typed: string) => string;
  refusedLeft: (count: number) => string;
  expires: (time: string) => string;
  status: Record<"quoting" | "waiting" | "approved" | "ended" | "expired", string>;
  rejectedBy: (who: string, reason: string) => string;
  cancelledBy: (who: string) => string;
  stoppedBy: (who: string, reason: string) => string;
  stop: string;
  stopTitle: string;
  stopIntro: string;
  cancelledLost: string;
  /** The approval channel refused the card for good: the batch ended unshown. */
  cancelledUnshown: string;
  /** To the requester: the batch could not be shown for approval in `channel`, `because`, and what to do (`fix`). */
  unshown: (rows: number, channel: string, because: string, fix: string) => string;
  /** Why the approval channel refused the card (src/payout-batches' CardRefusal). */
  unshownBecause: Record<"not_in_channel" | "archived" | "restricted", string>;
  /** What to do: invite Kassa to the channel, or have another approval channel chosen. */
  unshownFix: { invite: (channel: string) => string; setup: string };
  progress: (sent: number, rows: number, paid: number, failed: number, notSent: number) => string;
  approve: string;
  reject: string;
  drop: string;
  cancel: string;
  cancelConfirm: { title: string; text: string; confirm: string; deny: string };
  approveTitle: string;
  approveLabel: string;
  approveHint: (rows: number, total: string, typed: string) => string;
  rejectTitle: string;
  rejectLabel: string;
  typedMismatch: (rows: number, total: string, typed: string) => string;
  refusedRows: (count: number) => string;
  noRefusedRows: string;
  quoting: string;
  done: Record<
    "approval_noted" | "approved" | "rejected" | "stopped" | "cancelled" | "dropped",
    (count: number) => string
  >;
  resultComment: (rows: number, paid: number) => string;
  resultTitle: string;
  fallback: string;
};
