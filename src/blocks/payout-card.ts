import type { types } from "@slack/bolt";
import type { Lang } from "../i18n/lang.js";
import { type CardStatusWord, PAYOUT_CARD_TEXT } from "../i18n/payout-card.js";
import { PAYOUT_NOTES_TEXT } from "../i18n/payout-notes.js";
import { compareDecimals } from "../payments/decimal.js";
import type { PayoutNotice } from "../payouts/notice-model.js";
import type { PayoutRequest } from "../payouts/request-model.js";
import { button } from "./button.js";
import { formatAmount, slackDateFromEpoch } from "./format.js";
import { PAYOUT_ACTIONS } from "./ids.js";
import type { SlackMessage } from "./message.js";
import { inlineCode, safeText } from "./mrkdwn.js";
import { approvalFacts, asideLines, overLimitStopped } from "./payout-rules.js";
import { refundOfLines } from "./refund-lines.js";

export { PAYOUT_ACTIONS };

/** Who a card is for: the approvers (the channel's card) or the requester (their copy). */
export type CardReader = "approvers" | "requester";

/** The card's status word: an ended payout by what the service said. */
export function statusWordOf(request: PayoutRequest): CardStatusWord {
  if (request.status !== "ended") return request.status;
  const state = request.service?.state;
  return state === "payed" || state === "canceled" ? state : "failed";
}

/** What a card shows of the request: another key means the card is owed an update. */
export function cardKeyOf(request: PayoutRequest): string {
  const votes = request.votes.map((vote) => vote.by).join(",");
  return [request.status, votes, request.service?.state ?? "", request.service?.message ?? ""].join("|");
}

const at = (iso: string, lang: Lang) => slackDateFromEpoch(Math.floor(Date.parse(iso) / 1000), lang);
const money = (value: string, request: PayoutRequest, lang: Lang) =>
  formatAmount(value, request.currency, lang);

/** The wallet as the card shows it: whole, as code (so nothing in it becomes a mention or a link). */
export function walletText(wallet: string): string {
  return inlineCode(wallet);
}

/** The last characters a person must type to approve: the wallet's last four, spaces left out. */
export function walletEnding(wallet: string): string {
  return wallet.replace(/\s+/g, "").slice(-4);
}

function figureFields(request: PayoutRequest, notice: PayoutNotice, lang: Lang): types.MrkdwnElement[] {
  const t = PAYOUT_CARD_TEXT[lang];
  const field = (label: string, value: string): types.MrkdwnElement => ({
    type: "mrkdwn",
    text: `*${label}*\n${value}`,
  });
  const balance = notice.balance
    ? formatAmount(notice.balance.value, notice.balance.currency, lang)
    : t.balanceUnknown;
  return [
    field(t.wallet, walletText(request.wallet)),
    field(t.amount, money(request.amount, request, lang)),
    field(
      t.fee(request.subtractFrom === "amount" ? t.feeFromAmount : t.feeOnTop),
      money(request.fee, request, lang),
    ),
    field(t.receives, money(request.receives, request, lang)),
    field(t.leaves, money(request.leavesBalance, request, lang)),
    field(t.balanceNow, balance),
  ];
}

/** The balance (same currency) is below what the payout takes from it: the service will refuse it. */
export function balanceShort(request: PayoutRequest, notice: PayoutNotice): boolean {
  const balance = notice.balance;
  if (!balance || balance.currency.toUpperCase() !== request.currency.toUpperCase()) return false;
  return compareDecimals(balance.value, request.leavesBalance) < 0;
}

function statusLines(request: PayoutRequest, lang: Lang): string {
  const t = PAYOUT_CARD_TEXT[lang];
  const lines = [`*${t.status[statusWordOf(request)]}*`];
  if (request.rejection)
    lines.push(t.rejectedBy(`<@${request.rejection.by}>`, safeText(request.rejection.reason, 500)));
  if (request.status === "cancelled" && request.cancellation)
    lines.push(t.cancelledBy(`<@${request.cancellation.by}>`));
  if (request.changed) lines.push(t.changedWhat(changedWords(request, lang)));
  if (request.status === "stopped") lines.push(stoppedWords(request, lang));
  lines.push(...asideLines(request, lang));
  const words = request.refusal?.join("; ") ?? (request.status === "ended" ? request.service?.message : null);
  if (words) lines.push(t.serviceSaid(safeText(words, 500)));
  return lines.join("\n");
}

/** Why an approved payout was stopped before the send, in plain words. */
export function stoppedWords(request: PayoutRequest, lang: Lang): string {
  const t = PAYOUT_CARD_TEXT[lang].stoppedWhy;
  switch (request.stop?.why) {
    case "expired":
      return t.expired(at(request.expiresAt, lang));
    case "approver_removed":
      return t.approver_removed(`<@${request.stop.approver ?? "?"}>`);
    case "day_cap": {
      const cap = request.stop.cap;
      if (!cap) return t.day_full;
      const rub = (value: string) => formatAmount(value, "RUB", lang);
      return t.day_cap(cap.which, rub(cap.limit), rub(cap.total));
    }
    case "over_limit":
      return overLimitStopped(request, lang);
    case "batch_approvals":
      return t.batch_approvals;
    default:
      return t.payouts_off;
  }
}

export function changedWords(request: PayoutRequest, lang: Lang): string {
  const t = PAYOUT_CARD_TEXT[lang];
  return (request.changed ?? []).map((what) => t.changedTerms[what]).join(", ");
}

function buttonsFor(request: PayoutRequest, reader: CardReader, lang: Lang): types.KnownBlock[] {
  const t = PAYOUT_CARD_TEXT[lang];
  if (reader === "approvers" && request.status === "waiting")
    return [
      {
        type: "actions",
        elements: [
          button(t.approve, PAYOUT_ACTIONS.approve, request.id, "primary"),
          button(t.reject, PAYOUT_ACTIONS.reject, request.id, "danger"),
        ],
      },
    ];
  // Approved, not yet on its way (the service down, say): an approver can still stop it.
  if (reader === "approvers" && request.status === "approved")
    return [
      {
        type: "actions",
        elements: [button(t.stop, PAYOUT_ACTIONS.reject, request.id, "danger")],
      },
    ];
  if (reader === "requester" && (request.status === "waiting" || request.status === "approved")) {
    const cancel = button(t.cancel, PAYOUT_ACTIONS.cancel, request.id, "danger");
    const { title, text, confirm, deny } = t.cancelConfirm;
    cancel.confirm = {
      title: { type: "plain_text", text: title },
      text: { type: "plain_text", text },
      confirm: { type: "plain_text", text: confirm },
      deny: { type: "plain_text", text: deny },
      style: "danger",
    };
    return [{ type: "actions", elements: [cancel] }];
  }
  return [];
}

/**
 * A request's card: the approvers' in the approval channel (Approve and Reject while it waits), or
 * the requester's copy (Cancel until it is sent). Buttons carry the request's id only.
 */
export function payoutCardMessage(
  request: PayoutRequest,
  notice: PayoutNotice,
  reader: CardReader,
  lang: Lang,
): SlackMessage {
  const t = PAYOUT_CARD_TEXT[lang];
  const amount = money(request.amount, request, lang);
  const method = inlineCode(request.method);
  const intro =
    reader === "approvers"
      ? t.asks(`<@${request.requester}>`, amount, method)
      : t.yourRequest(amount, method, `<#${notice.channel}>`);
  const open = request.status === "waiting" || request.status === "approved";
  const facts = [
    t.today(formatAmount(notice.today.total, "RUB", lang), formatAmount(notice.today.cap, "RUB", lang)),
    ...approvalFacts(request, lang),
    ...(request.status === "waiting" ? [t.expires(at(request.expiresAt, lang))] : []),
  ];
  const reason = [...refundOfLines(request, lang), `*${t.reason}:* ${safeText(request.reason, 500)}`];
  if (request.reference) reason.push(`*${t.reference}:* ${safeText(request.reference, 200)}`);
  const blocks: types.KnownBlock[] = [
    {
      type: "header",
      text: { type: "plain_text", text: t.title(notice.several ? notice.register : undefined).slice(0, 150) },
    },
    { type: "section", text: { type: "mrkdwn", text: intro } },
    { type: "section", fields: figureFields(request, notice, lang) },
    ...(open && balanceShort(request, notice)
      ? [
          {
            type: "section",
            text: {
              type: "mrkdwn",
              text: t.balanceShort(
                formatAmount(notice.balance?.value ?? "0", notice.balance?.currency ?? "", lang),
              ),
            },
          } as const,
        ]
      : []),
    { type: "section", text: { type: "mrkdwn", text: reason.join("\n") } },
    { type: "context", elements: [{ type: "mrkdwn", text: facts.join(" · ") }] },
    { type: "section", text: { type: "mrkdwn", text: statusLines(request, lang) } },
    ...buttonsFor(request, reader, lang),
    {
      type: "context",
      elements: [{ type: "mrkdwn", text: t.context(inlineCode(request.id), at(request.createdAt, lang)) }],
    },
  ];
  const word = t.status[statusWordOf(request)].replace(/^:[a-z_]+: /, "");
  return { text: t.fallback(`<@${request.requester}>`, amount, word), blocks };
}

/** The note at a request's end (in the card's thread and to the requester); undefined while it is open. */
export function payoutEndNote(request: PayoutRequest, lang: Lang): string | undefined {
  const t = PAYOUT_NOTES_TEXT[lang];
  const amount = money(request.amount, request, lang);
  switch (statusWordOf(request)) {
    case "payed":
      return t.payed(money(request.receives, request, lang), walletText(request.wallet));
    case "failed":
      return t.failed(amount, safeText(request.service?.message ?? request.service?.state ?? "?", 500));
    case "canceled":
      return t.canceled;
    case "rejected":
      return t.rejected(`<@${request.rejection?.by}>`, safeText(request.rejection?.reason ?? "", 500));
    case "cancelled":
      return t.cancelled(`<@${request.cancellation?.by ?? request.requester}>`);
    case "expired":
      return t.expired(at(request.expiresAt, lang));
    case "changed":
      return t.changed(changedWords(request, lang));
    case "refused":
      return t.refused(safeText(request.refusal?.join("; ") ?? "", 500));
    case "stopped":
      return t.stopped(stoppedWords(request, lang));
    case "outside":
      return t.outside(inlineCode(request.outside?.state ?? request.service?.state ?? "?"));
    default:
      return undefined;
  }
}
