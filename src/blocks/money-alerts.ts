import type { Lang } from "../i18n/lang.js";
import { MONEY_ALERTS_TEXT } from "../i18n/money-alerts.js";
import type { PayoffHistoryEntry } from "../payments/payoff-model.js";
import { formatAmount, formatMoney, slackDate } from "./format.js";
import { LIMITS } from "./limits.js";
import type { SlackMessage } from "./message.js";
import { inlineCode, safeText, truncate } from "./mrkdwn.js";
import { ephemeral } from "./replies.js";

// The money alerts' messages: the /balance alert replies (ephemeral), the alerts posted in a
// channel (a crossing, the one note on failing checks) and a payout made outside Kassa.

/** An alert as a reply or a message names it: its channel, method, threshold and what was seen. */
export type AlertLine = {
  channel: string;
  method: string;
  below: string;
  currency: string;
  seen?: "above" | "below" | undefined;
};

function section(mrkdwn: string, fallback: string): SlackMessage {
  return {
    text: safeText(fallback, LIMITS.fallbackText),
    blocks: [{ type: "section", text: { type: "mrkdwn", text: truncate(mrkdwn, LIMITS.sectionText) } }],
  };
}

const plain = (mrkdwn: string) => mrkdwn.replace(/[*`]/g, "");

export type AlertReply =
  | { kind: "set" | "changed"; method: string; below: string; currency: string; balance: string }
  | { kind: "removed" | "not_found"; method: string }
  | { kind: "too_many"; max: number }
  | { kind: "unknown_method"; method: string; codes: string[] }
  | { kind: "bad_amount"; input: string }
  | { kind: "usage" };

/** What `/balance alert …` answers, visible only to the asker. */
export function alertReply(reply: AlertReply, lang: Lang = "en"): SlackMessage {
  const t = MONEY_ALERTS_TEXT[lang];
  const text = alertReplyText(reply, lang);
  return ephemeral(text, plain(text) || t.alertUsage);
}

function alertReplyText(reply: AlertReply, lang: Lang): string {
  const t = MONEY_ALERTS_TEXT[lang];
  switch (reply.kind) {
    case "set":
    case "changed": {
      const threshold = formatAmount(reply.below, reply.currency, lang);
      const said = (reply.kind === "set" ? t.alertSet : t.alertChanged)(inlineCode(reply.method), threshold);
      return `${said} ${t.alertSetNow(formatAmount(reply.balance, reply.currency, lang))}`;
    }
    case "removed":
      return t.alertRemoved(inlineCode(reply.method));
    case "not_found":
      return t.alertNotFound(inlineCode(reply.method));
    case "too_many":
      return t.alertTooMany(reply.max);
    case "unknown_method":
      return t.unknownMethod(inlineCode(reply.method), reply.codes.map(inlineCode).join(", "));
    case "bad_amount":
      return `${t.badAmount(inlineCode(reply.input))}\n${t.alertUsage}`;
    case "usage":
      return t.alertUsage;
  }
}

/** `/balance alerts`: every alert of the register, a line each. */
export function alertListReply(alerts: readonly AlertLine[], lang: Lang = "en"): SlackMessage {
  const t = MONEY_ALERTS_TEXT[lang];
  if (alerts.length === 0) return ephemeral(t.listEmpty, plain(t.listEmpty));
  const state = (seen: AlertLine["seen"]) =>
    seen === "below" ? t.stateBelow : seen === "above" ? t.stateAbove : t.stateUnknown;
  const lines = alerts.map((alert) =>
    t.listLine(
      `<#${alert.channel}>`,
      inlineCode(alert.method),
      formatAmount(alert.below, alert.currency, lang),
      state(alert.seen),
    ),
  );
  return ephemeral([`*${t.listHeader}*`, ...lines].join("\n"), t.listHeader);
}

/** Posted in the alert's channel: the balance crossed its threshold ("below") or came back ("above"). */
export function crossingMessage(
  kind: "below" | "above",
  alert: { method: string; below: string; currency: string },
  balance: string,
  lang: Lang = "en",
): SlackMessage {
  const t = MONEY_ALERTS_TEXT[lang];
  const text = (kind === "below" ? t.below : t.above)(
    inlineCode(alert.method),
    formatAmount(balance, alert.currency, lang),
    formatAmount(alert.below, alert.currency, lang),
  );
  return section(text, plain(text));
}

/** Posted once in each alert channel after an hour of failing checks. */
export function failingNote(lang: Lang = "en"): SlackMessage {
  const t = MONEY_ALERTS_TEXT[lang];
  return section(t.failing, plain(t.failing));
}

/** Posted in the approval channel: a payout the service made that Kassa did not. */
/** A Kassa request whose quote was sent outside: its requester and where it stood in Kassa. */
export type OutsideKassaQuote = { requester: string; was: "waiting" | "approved" | "ended" };

export function outsidePayoutMessage(
  payoff: PayoffHistoryEntry,
  lang: Lang = "en",
  kassa?: OutsideKassaQuote,
): SlackMessage {
  const t = MONEY_ALERTS_TEXT[lang];
  const amount = payoff.amount ? formatMoney(payoff.amount, lang) : "—";
  const details = `${t.outside(
    inlineCode(payoff.id),
    amount,
    payoff.method ? inlineCode(payoff.method) : "—",
    payoff.wallet ? inlineCode(payoff.wallet) : "—",
  )}\n${t.outsideState(inlineCode(payoff.state), payoff.createdAt ? slackDate(payoff.createdAt, lang) : "—")}`;
  return {
    text: safeText(t.outsideFallback(payoff.id, amount), LIMITS.fallbackText),
    blocks: [
      {
        type: "header",
        text: { type: "plain_text", text: plain(t.outsideHeader).replace(/:[a-z_]+:\s*/g, "") },
      },
      { type: "section", text: { type: "mrkdwn", text: truncate(details, LIMITS.sectionText) } },
      ...(kassa
        ? [
            {
              type: "section" as const,
              text: {
                type: "mrkdwn" as const,
                text: t.outsideKassaQuote(`<@${kassa.requester}>`, t.outsideWas[kassa.was]),
              },
            },
          ]
        : []),
      { type: "context", elements: [{ type: "mrkdwn", text: t.outsideNotKassa }] },
    ],
  };
}
