import type { Lang } from "../i18n/lang.js";
import { PAYOUT_REQUEST_TEXT } from "../i18n/payout-request.js";
import { PAYOUT_VOTE_TEXT, type VoteRefusalWord } from "../i18n/payout-vote.js";
import { addDecimals, compareDecimals } from "../payments/decimal.js";
import type { LineOutcome } from "../payouts/repeats.js";
import type { RequestRefusal } from "../payouts/requests.js";
import type { VoteRefusal } from "../payouts/votes.js";
import type { AmountUnread } from "../util/rub-amount.js";
import { formatAmount, slackDateFromEpoch } from "./format.js";
import type { SlackMessage } from "./message.js";
import { escapeMrkdwn, inlineCode, safeText } from "./mrkdwn.js";
import { overLimitText } from "./payout-rules.js";
import { refundRefusalText } from "./refunds.js";
import { ephemeral } from "./replies.js";

const people = (ids: readonly string[]) => ids.map((id) => `<@${id}>`).join(", ");
const at = (iso: string, lang: Lang) => slackDateFromEpoch(Math.floor(Date.parse(iso) / 1000), lang);

/** Why a request was not made, in words the requester can act on (the service's own words quoted). */
export function requestRefusalText(refusal: RequestRefusal, register: string, lang: Lang): string {
  const t = PAYOUT_REQUEST_TEXT[lang].requestRefusals;
  switch (refusal.kind) {
    case "payouts_off":
      return t.payouts_off(`*${escapeMrkdwn(register)}*`);
    case "not_a_requester":
      return t.not_a_requester(refusal.requesters.length > 0 ? people(refusal.requesters) : t.admins);
    case "method_not_allowed":
      return t.method_not_allowed(refusal.methods.map(inlineCode).join(", "));
    case "invalid":
      return t.invalid[refusal.field];
    case "service_refused":
      return t.service_refused(safeText(refusal.messages.join("; ") || refusal.reason, 1000));
    case "too_few_approvers":
      return t.too_few_approvers(
        refusal.needed,
        refusal.approvers.length > 0 ? people(refusal.approvers) : "—",
      );
    case "rub_amount_wrong":
      return t.rub_amount_wrong(
        formatAmount(refusal.amount, refusal.currency, lang),
        formatAmount(refusal.rub, "RUB", lang),
      );
    case "cap_reached": {
      const left = addDecimals(refusal.limit, `-${refusal.total}`);
      return t.cap_reached(
        refusal.cap,
        formatAmount(refusal.total, "RUB", lang),
        formatAmount(refusal.limit, "RUB", lang),
        formatAmount(compareDecimals(left, "0") > 0 ? left : "0", "RUB", lang),
      );
    }
    case "refund_over":
    case "refund_currency":
    case "refund_unreadable":
      return refundRefusalText(refusal, lang);
    default:
      return t[refusal.kind];
  }
}

/**
 * Why a written amount was not read, with what was typed and how to write it: mrkdwn for a reply,
 * or plain text (the typed amount in quotes) for a form's field.
 */
export function amountUnreadText(typed: string, why: AmountUnread, lang: Lang, plain = false): string {
  const shown = typed.trim().slice(0, 40);
  return PAYOUT_REQUEST_TEXT[lang].amountUnread[why](plain ? `"${shown}"` : inlineCode(shown));
}

/** A one-line /payout sent again within seconds: where the first went (or that it is under way). */
export function repeatedText(earlier: LineOutcome | undefined, lang: Lang): string {
  const t = PAYOUT_REQUEST_TEXT[lang].repeated;
  if (!earlier) return t.underWay;
  return earlier.kind === "refused"
    ? t.refused
    : t.requested(inlineCode(earlier.id), `<#${earlier.channel}>`);
}

/** The request form's field a refusal belongs next to (the amount for the rest). */
export function refusalField(
  refusal: RequestRefusal,
): "amount" | "method" | "wallet" | "reason" | "reference" {
  if (refusal.kind === "invalid") return refusal.field;
  if (refusal.kind === "method_not_allowed") return "method";
  if (refusal.kind === "service_refused" && refusal.reason === "unknown-method") return "method";
  return "amount";
}

export function requestRefusedMessage(refusal: RequestRefusal, register: string, lang: Lang): SlackMessage {
  return ephemeral(
    `:no_entry_sign: ${requestRefusalText(refusal, register, lang)}`,
    PAYOUT_REQUEST_TEXT[lang].refusedFallback,
  );
}

/** A refusal decided on Slack's side of a click (who the person is, the wallet's ending). */
export type SlackVoteRefusal = { kind: "not_a_member" | "unchecked" | "wallet_mismatch" };

/** Why a click changed nothing, and who can (a stale click: who decided it, and when). */
export function voteRefusalText(refusal: VoteRefusal | SlackVoteRefusal, lang: Lang): string {
  const text = PAYOUT_VOTE_TEXT[lang];
  const t = text.voteRefusals;
  switch (refusal.kind) {
    case "not_an_approver":
      return t.not_an_approver(people(refusal.approvers));
    case "over_limit":
      return overLimitText(refusal, lang);
    case "already_voted":
      return t.already_voted(at(refusal.at, lang));
    case "not_the_requester":
      return t.not_the_requester(`<@${refusal.requester}>`);
    case "expired":
      return t.expired(at(refusal.at, lang));
    case "closed": {
      if (refusal.status === "outside") return text.closedOutside(at(refusal.at, lang));
      const word =
        refusal.status === "waiting" ? text.closedWords.approved : text.closedWords[refusal.status];
      const by = refusal.by === "kassa" ? text.kassa : `<@${refusal.by}>`;
      return text.closed(word, by, at(refusal.at, lang));
    }
    default:
      return t[refusal.kind satisfies VoteRefusalWord];
  }
}

export function voteRefusedMessage(refusal: VoteRefusal | SlackVoteRefusal, lang: Lang): SlackMessage {
  const text = voteRefusalText(refusal, lang);
  return ephemeral(text, text.replace(/<[^>]+>/g, "").slice(0, 200));
}

/** A reply's text as a modal's field error shows it (plain text: no mentions, dates or bold). */
export function plainOf(text: string): string {
  return text
    .replace(/<!date\^[^|>]*\|([^>]*)>/g, "$1")
    .replace(/<@([A-Z0-9]+)>/g, "@$1")
    .replace(/<#([A-Z0-9]+)>/g, "#$1")
    .replace(/\*/g, "")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");
}
