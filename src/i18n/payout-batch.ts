import type { Lang } from "./lang.js";
import { ru } from "./payout-batch-ru.js";
import type { PayoutBatchText } from "./payout-batch-words.js";

export type { PasteProblemWord, PayoutBatchText, RowRefusalWord } from "./payout-batch-words.js";

const en: PayoutBatchText = {
  formTitle: "Batch payout",
  formIntro: (register, channel) =>
    `Pay several people at once from *${register}*. Kassa checks every row and asks the service for each quote, then posts one card in ${channel} for approval.`,
  rows: "Rows",
  rowsHint:
    "One payout a line, copied from a spreadsheet: a trusted recipient's label (or a method and a wallet), the amount, who pays the fee (balance or amount) and a reference. Cells separated by tabs, ; or , — a header row is fine. At most 50 rows.",
  reason: "Reason",
  reasonHint: "What the batch is for (the approvers see it).",
  submit: "Get quotes",
  close: "Cancel",
  paste: {
    columns: (line) =>
      `Line ${line}: not a row Kassa can read (a label, amount, fee, reference; or method, wallet, amount, fee, reference).`,
    amount: (line, detail) => `Line ${line}: the amount is ${detail}.`,
    fee: (line, detail) => `Line ${line}: "${detail}" is not who pays the fee (write balance or amount).`,
    too_long: (line, detail) => `Line ${line}: the ${detail} is too long.`,
    too_many: (_line, detail) => `A batch has at most 50 rows; this one has ${detail}.`,
    empty: () => "Paste at least one row.",
  },
  amountWhy: {
    empty: "missing",
    not_a_number: "not a number",
    ambiguous: "readable two ways (write 1500.50 or 10000)",
    zero: "zero",
  },
  started: (rows, channel) =>
    `:hourglass_flowing_sand: Kassa is asking the service for quotes for ${rows} rows. The batch's card will be in ${channel} for approval.`,
  quotedFailed:
    ":warning: Kassa could not finish asking for the batch's quotes; nothing was sent. Try again in a few minutes.",
  title: (register) => (register ? `Batch payout · ${register}` : "Batch payout"),
  asks: (who, rows, total) => `${who} asks to pay out *${rows} rows*, *${total}* in all.`,
  reasonLine: (reason) => `*Reason:* ${reason}`,
  rowLine: (row, to, amount, fee, arrives) => `${row}. ${to} · *${amount}* · fee ${fee} · arrives ${arrives}`,
  feeFrom: { balance: "from the balance", amount: "from the amount" },
  trusted: "trusted",
  referenceLine: (reference) => `ref. ${reference}`,
  refused: {
    duplicate: (row) => `the same wallet and amount as row ${row}: stopped before the service`,
    method_not_allowed: (methods) => `the payout policy does not allow this method (allowed: ${methods})`,
    unknown_recipient: (label) => `no trusted recipient is labelled ${label}`,
    invalid: (detail) => `not valid: ${detail}`,
    service_refused: (words) => `the service refused it: ${words}`,
    cap: () => "it would pass a daily cap",
    other: (detail) => `refused (${detail})`,
    unanswered: () => "the service did not answer for its quote: drop it and ask for it again",
  },
  dropped: (who) => `dropped by ${who}`,
  rowState: {
    waiting: "",
    approved: "approved",
    sending: "sending",
    sent: "sent",
    paid: "paid",
    failed: "failed",
    not_sent: "not sent",
  },
  perMethod: "Per method",
  methodLine: (method, rows, arrives, fees, leaves) =>
    `${method} · ${rows} rows · arrives ${arrives} · fees ${fees} · leaves the balance ${leaves}`,
  balanceIs: (balance) => ` · balance ${balance}`,
  balanceUnknown: "not read",
  short: (method, balance, leaves) =>
    `:warning: The ${method} balance (${balance}) is below what this batch takes from it (${leaves}): rows will be refused when sent. Top it up before approving, or cancel the batch.`,
  rule: (needed, rule, at, anyUntrusted) => {
    if (anyUntrusted) return "Needs *2 approvals*: a wallet in it is not a trusted recipient.";
    if (rule === "trusted_one")
      return `Needs *1 approval*: every row pays a trusted recipient and the total is below ${at}.`;
    return needed === 2
      ? `Needs *2 approvals*: the total is ${at} or more.`
      : `Needs *1 approval*: the total is below ${at}.`;
  },
  votesSoFar: (names, count, needed) => `Approved by ${names} (${count} of ${needed}).`,
  howToApprove: (typed) => `To approve, press Approve and type \`${typed}\` (its rows and total).`,
  refusedLeft: (count) =>
    `:warning: ${count} ${count === 1 ? "row was" : "rows were"} refused. Its requester drops them (Drop refused rows) or cancels the batch; nobody can approve it before.`,
  expires: (time) => `Approvals until ${time}.`,
  status: {
    quoting: ":hourglass_flowing_sand: Asking the service for quotes…",
    waiting: ":hourglass: Waiting for approval",
    approved: ":rocket: Approved: its rows are being sent",
    ended: ":white_check_mark: Done: every row is at its end",
    expired: ":alarm_clock: Expired unapproved: nothing was sent, every quote was cancelled",
  },
  rejectedBy: (who, reason) =>
    `:x: Rejected by ${who}: ${reason}. Nothing was sent; every quote was cancelled.`,
  cancelledBy: (who) =>
    `:heavy_multiplication_x: Cancelled by ${who}. Nothing was sent; every quote was cancelled.`,
  stoppedBy: (who, reason) =>
    `:octagonal_sign: Stopped by ${who}: ${reason}. The rows not yet sent were not sent; those already on their way go on.`,
  stop: "Stop unsent rows",
  stopTitle: "Stop unsent rows",
  stopIntro:
    "The rows of this batch not yet on their way are not sent (each quote cancelled); rows already sent go on to their end.",
  cancelledLost:
    ":heavy_multiplication_x: Cancelled: Kassa stopped while asking for its quotes. Nothing was sent; ask again.",
  cancelledUnshown:
    ":heavy_multiplication_x: Cancelled: its approval channel refused its card. Nothing was sent; every quote was cancelled.",
  unshown: (rows, channel, because, fix) =>
    `:warning: Your batch of ${rows} ${rows === 1 ? "row" : "rows"} could not be shown for approval in ${channel}: ${because}. It was cancelled: nothing was sent, and every quote was cancelled. ${fix}`,
  unshownBecause: {
    not_in_channel: "Kassa is not in that channel (or cannot see it)",
    archived: "that channel is archived",
    restricted: "the workspace does not let Kassa post there",
  },
  unshownFix: {
    invite: (channel) =>
      `Invite Kassa to ${channel} (type \`/invite @Kassa\` there), then ask for the batch again with \`/payout batch\`.`,
    setup:
      "Ask an admin to choose another approval channel (`/payout setup`), then ask for the batch again with `/payout batch`.",
  },
  progress: (sent, rows, paid, failed, notSent) =>
    `*${sent} of ${rows} sent* · ${paid} paid · ${failed} failed${notSent > 0 ? ` · ${notSent} not sent` : ""}`,
  approve: "Approve",
  reject: "Reject",
  drop: "Drop refused rows",
  cancel: "Cancel batch",
  cancelConfirm: {
    title: "Cancel this batch?",
    text: "Every quote is cancelled and nothing is sent.",
    confirm: "Cancel batch",
    deny: "Keep it",
  },
  approveTitle: "Approve batch",
  approveLabel: "Rows and total",
  approveHint: (rows, total, typed) =>
    `This batch has ${rows} rows and ${total} in all. Type ${typed} to approve it.`,
  rejectTitle: "Reject batch",
  rejectLabel: "Why (the requester sees it)",
  typedMismatch: (rows, total, typed) =>
    `That is not this batch: it has ${rows} rows and ${total} in all. Type ${typed}.`,
  refusedRows: (count) =>
    `${count} ${count === 1 ? "row of this batch was" : "rows of this batch were"} refused: its requester drops them first (Drop refused rows).`,
  noRefusedRows: "No row of this batch is refused: there is nothing to drop.",
  quoting: "Kassa is still asking for this batch's quotes: try again in a moment.",
  done: {
    approval_noted: () => "Your approval is noted; the batch needs one more.",
    approved: () => "Approved: its rows are being sent. The card follows each one.",
    rejected: () => "Rejected: every quote is being cancelled, nothing is sent.",
    stopped: () => "Stopped: the rows not yet sent are not sent; those on their way go on to their end.",
    cancelled: () => "Batch cancelled: every quote is being cancelled, nothing is sent.",
    dropped: (count) =>
      `${count} refused ${count === 1 ? "row" : "rows"} dropped; the batch waits for approval.`,
  },
  resultComment: (rows, paid) =>
    `The batch's result: ${rows} rows, ${paid} paid (each payout's id, state and the service's message).`,
  resultTitle: "Batch payout result",
  fallback: "Batch payout",
};

export const PAYOUT_BATCH_TEXT: Record<Lang, PayoutBatchText> = { en, ru };
