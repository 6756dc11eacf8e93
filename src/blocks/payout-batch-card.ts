import type { types } from "@slack/bolt";
import type { Lang } from "../i18n/lang.js";
import { PAYOUT_BATCH_TEXT } from "../i18n/payout-batch.js";
import { button } from "./button.js";
import { formatAmount, slackDateFromEpoch } from "./format.js";
import { BATCH_ACTIONS } from "./ids.js";
import type { SlackMessage } from "./message.js";
import { safeText } from "./mrkdwn.js";
import { type BatchView, methodBlocks, progressOf, rowSections, typedFigures } from "./payout-batch.js";

const at = (iso: string, lang: Lang) => slackDateFromEpoch(Math.floor(Date.parse(iso) / 1000), lang);

/** Where the batch stands, in words: its status, who decided, how far its rows got. */
function statusText(view: BatchView, lang: Lang): string {
  const t = PAYOUT_BATCH_TEXT[lang];
  const { batch } = view;
  const lines: string[] = [];
  if (batch.status === "rejected" && batch.rejection)
    lines.push(t.rejectedBy(`<@${batch.rejection.by}>`, safeText(batch.rejection.reason, 500)));
  else if (batch.status === "cancelled")
    lines.push(
      batch.cancellation?.why === "card_refused"
        ? t.cancelledUnshown
        : batch.cancellation?.why === "quoting_lost" || !batch.cancellation
          ? t.cancelledLost
          : t.cancelledBy(`<@${batch.cancellation.by}>`),
    );
  else if (batch.status !== "rejected") lines.push(`*${t.status[batch.status]}*`);
  if (batch.stopped) lines.push(t.stoppedBy(`<@${batch.stopped.by}>`, safeText(batch.stopped.reason, 500)));
  if (batch.status === "approved" || batch.status === "ended") {
    const done = progressOf(batch, view.rows);
    lines.push(t.progress(done.sent, done.rows, done.paid, done.failed, done.notSent));
  }
  return lines.join("\n");
}

/** The rule, the approvals so far, how to approve and until when (while it waits). */
function approvalText(view: BatchView, lang: Lang): string {
  const t = PAYOUT_BATCH_TEXT[lang];
  const { batch } = view;
  const kept = batch.rows.filter((row) => row.payout && !row.dropped);
  const anyUntrusted = kept.some((row) => !row.recipient);
  const lines = [t.rule(batch.needed, batch.rule, formatAmount(batch.ruleAt, "RUB", lang), anyUntrusted)];
  if (batch.votes.length > 0)
    lines.push(
      t.votesSoFar(batch.votes.map((vote) => `<@${vote.by}>`).join(", "), batch.votes.length, batch.needed),
    );
  if (batch.status !== "waiting") return lines.join("\n");
  const refused = batch.rows.filter((row) => row.refusal && !row.dropped).length;
  lines.push(refused > 0 ? t.refusedLeft(refused) : t.howToApprove(typedFigures(kept.length, view.total)));
  lines.push(t.expires(at(batch.expiresAt, lang)));
  return lines.join("\n");
}

/** The rows approved with the batch and not yet marked for their send. */
function unsentRows(view: BatchView): number {
  const kept = view.batch.rows.filter((row) => row.payout && !row.dropped);
  return kept.filter((row) => {
    const status = row.payout ? view.rows.get(row.payout)?.status : undefined;
    return status === "waiting" || status === "approved";
  }).length;
}

function buttons(view: BatchView, lang: Lang): types.KnownBlock[] {
  const t = PAYOUT_BATCH_TEXT[lang];
  const { batch } = view;
  // Approved, some rows not on their way yet (the service down, say): an approver can still stop those.
  if (batch.status === "approved" && !batch.stopped && unsentRows(view) > 0)
    return [{ type: "actions", elements: [button(t.stop, BATCH_ACTIONS.reject, batch.id, "danger")] }];
  if (batch.status !== "waiting") return [];
  const refused = batch.rows.some((row) => row.refusal && !row.dropped);
  const cancel = button(t.cancel, BATCH_ACTIONS.cancel, batch.id, "danger");
  cancel.confirm = {
    title: { type: "plain_text", text: t.cancelConfirm.title },
    text: { type: "plain_text", text: t.cancelConfirm.text },
    confirm: { type: "plain_text", text: t.cancelConfirm.confirm },
    deny: { type: "plain_text", text: t.cancelConfirm.deny },
    style: "danger",
  };
  const elements = refused
    ? [button(t.drop, BATCH_ACTIONS.drop, batch.id, "primary"), cancel]
    : [
        button(t.approve, BATCH_ACTIONS.approve, batch.id, "primary"),
        button(t.reject, BATCH_ACTIONS.reject, batch.id, "danger"),
        cancel,
      ];
  return [{ type: "actions", elements }];
}

/** A batch's card: its rows, per method what it takes against the balance, its approvals, its buttons. */
export function batchCardMessage(view: BatchView, lang: Lang): SlackMessage {
  const t = PAYOUT_BATCH_TEXT[lang];
  const { batch } = view;
  const kept = batch.rows.filter((row) => row.payout && !row.dropped).length;
  const total = formatAmount(view.total, "RUB", lang);
  const title = t.title(view.card.several ? view.card.register : undefined).slice(0, 150);
  const blocks: types.KnownBlock[] = [
    { type: "header", text: { type: "plain_text", text: title } },
    {
      type: "section",
      text: {
        type: "mrkdwn",
        text: `${t.asks(`<@${batch.requester}>`, kept, total)}\n${t.reasonLine(safeText(batch.reason, 500))}`,
      },
    },
    ...rowSections(batch, view.rows, lang),
    ...methodBlocks(view.totals, lang),
    { type: "section", text: { type: "mrkdwn", text: statusText(view, lang) } },
    { type: "context", elements: [{ type: "mrkdwn", text: approvalText(view, lang) }] },
    ...buttons(view, lang),
  ];
  return { text: `${title}: ${t.asks(`<@${batch.requester}>`, kept, total)}`.replace(/\*/g, ""), blocks };
}
