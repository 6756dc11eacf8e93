import type { types } from "@slack/bolt";
import type { Lang } from "../i18n/lang.js";
import { PAYOUT_BATCH_TEXT } from "../i18n/payout-batch.js";
import { INPUT_ACTION_ID, modal, textInput } from "./form.js";
import { formatAmount } from "./format.js";
import { BATCH_APPROVE_VIEW, BATCH_FORM_VIEW, BATCH_REJECT_VIEW } from "./ids.js";
import { escapeMrkdwn } from "./mrkdwn.js";
import { typedFigures } from "./payout-batch.js";

export { BATCH_APPROVE_VIEW, BATCH_FORM_VIEW, BATCH_REJECT_VIEW };

/** The batch form's block ids, and the approve and reject modals' fields. */
export const BATCH_FIELDS = { rows: "batch_rows", reason: "batch_reason" } as const;
export const BATCH_APPROVE_FIELD = "batch_typed";
export const BATCH_REJECT_FIELD = "batch_reject_reason";

/** What the batch form carries: team, the channel asked in, the register's name. */
export type BatchFormOrigin = { t: string; c: string; r: string };

/** `/payout batch`: the rows pasted from a spreadsheet, and the batch's reason. */
export function batchFormModal(form: {
  register: string;
  channel: string;
  origin: BatchFormOrigin;
  maxChars: number;
  lang: Lang;
}): types.ModalView {
  const t = PAYOUT_BATCH_TEXT[form.lang];
  const rows: types.InputBlock = {
    type: "input",
    block_id: BATCH_FIELDS.rows,
    label: { type: "plain_text", text: t.rows },
    hint: { type: "plain_text", text: t.rowsHint.slice(0, 2000) },
    element: {
      type: "plain_text_input",
      action_id: INPUT_ACTION_ID,
      multiline: true,
      max_length: form.maxChars,
    },
  };
  return modal({
    callbackId: BATCH_FORM_VIEW,
    title: t.formTitle,
    submit: t.submit,
    close: t.close,
    privateMetadata: JSON.stringify(form.origin),
    blocks: [
      {
        type: "section",
        text: { type: "mrkdwn", text: t.formIntro(escapeMrkdwn(form.register), `<#${form.channel}>`) },
      },
      rows,
      textInput({ block: BATCH_FIELDS.reason, label: t.reason, hint: t.reasonHint, maxLength: 500 }),
    ],
  });
}

/** What Approve's and Reject's modals carry: the batch's id. */
export type BatchVoteOrigin = { b: string };

/** Approve's modal: the batch's rows and total, typed as `ROWS/TOTAL`. */
export function batchApproveModal(
  batch: { id: string; rows: number; total: string },
  lang: Lang,
): types.ModalView {
  const t = PAYOUT_BATCH_TEXT[lang];
  const typed = typedFigures(batch.rows, batch.total);
  return modal({
    callbackId: BATCH_APPROVE_VIEW,
    title: t.approveTitle,
    submit: t.approve,
    close: t.close,
    privateMetadata: JSON.stringify({ b: batch.id } satisfies BatchVoteOrigin),
    blocks: [
      {
        type: "section",
        text: {
          type: "mrkdwn",
          text: t.approveHint(batch.rows, formatAmount(batch.total, "RUB", lang), `\`${typed}\``),
        },
      },
      textInput({ block: BATCH_APPROVE_FIELD, label: t.approveLabel, maxLength: 40 }),
    ],
  });
}

/** Reject's modal (Stop unsent rows once it is approved): the reason, required (the requester is told it). */
export function batchRejectModal(batchId: string, lang: Lang, stopping = false): types.ModalView {
  const t = PAYOUT_BATCH_TEXT[lang];
  return modal({
    callbackId: BATCH_REJECT_VIEW,
    title: stopping ? t.stopTitle : t.rejectTitle,
    submit: stopping ? t.stop : t.reject,
    close: t.close,
    privateMetadata: JSON.stringify({ b: batchId } satisfies BatchVoteOrigin),
    blocks: [
      ...(stopping
        ? [{ type: "section" as const, text: { type: "mrkdwn" as const, text: t.stopIntro } }]
        : []),
      textInput({ block: BATCH_REJECT_FIELD, label: t.rejectLabel, maxLength: 500 }),
    ],
  });
}
