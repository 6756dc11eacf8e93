// What the creator of an invoice is told when the form cannot do its job.
import type { types } from "@slack/bolt";
import { CREATE_TEXT, type FailedReason, type NotSentReason } from "../i18n/invoice-create.js";
import type { Lang } from "../i18n/lang.js";
import { LINKS_TEXT } from "../i18n/links.js";
import { createNowButton } from "./button-values.js";
import { CREATE_NOW_ACTION } from "./ids.js";
import { LIMITS } from "./limits.js";
import type { SlackMessage } from "./message.js";
import { inlineCode, truncate } from "./mrkdwn.js";
import { ephemeral, serviceWords } from "./replies.js";

export type { FailedReason, NotSentReason } from "../i18n/invoice-create.js";

/** The service refused the invoice: its own words, for the field or the private message. */
export function refusalText(messages: string[], lang: Lang = "en"): string {
  return truncate(CREATE_TEXT[lang].refused(messages.join("; ")), 300);
}

export function createNotAllowedMessage(lang: Lang = "en"): SlackMessage {
  return ephemeral(CREATE_TEXT[lang].notAllowed, CREATE_TEXT[lang].notAllowedFallback);
}

/** Told privately when the service refused an invoice after the form had closed. */
export function createRefusedMessage(
  messages: string[],
  amount: string,
  currency: string,
  lang: Lang = "en",
): SlackMessage {
  const t = CREATE_TEXT[lang];
  return ephemeral(
    [t.refusedLine(inlineCode(`${amount} ${currency}`), serviceWords(messages)), t.refusedNext].join("\n"),
    t.refusedFallback(messages.join("; ")),
  );
}

/** Told privately when nothing was sent to the payment service (so nothing was created). */
export function createNotSentMessage(
  amount: string,
  currency: string,
  why: NotSentReason,
  lang: Lang = "en",
): SlackMessage {
  const t = CREATE_TEXT[lang];
  return ephemeral(t.notSent(inlineCode(`${amount} ${currency}`), t.notSentReasons[why]), t.notSentFallback);
}

/** Told privately when the request may have reached the service but no usable answer came back. */
export function createFailedMessage(
  amount: string,
  currency: string,
  why: FailedReason,
  reference: string,
  lang: Lang = "en",
): SlackMessage {
  const t = CREATE_TEXT[lang];
  const message = ephemeral(
    t.failed(inlineCode(`${amount} ${currency}`), t.failedReasons[why]),
    t.failedFallback,
  );
  const context: types.ContextBlock = {
    type: "context",
    elements: [{ type: "mrkdwn", text: t.reference(inlineCode(reference)) }],
  };
  return { ...message, blocks: [...message.blocks, context] };
}

/**
 * Told privately when the request may have reached the service but no usable answer came back:
 * Kassa looks for it by its marker, and Create now makes another (the first, found later, is told).
 */
export function createUnsureMessage(
  asked: { amount: string; currency: string },
  why: FailedReason,
  reference: string,
  link: { t: string; k: string; r?: string | undefined },
  lang: Lang = "en",
): SlackMessage {
  const t = LINKS_TEXT[lang];
  const what = inlineCode(`${asked.amount} ${asked.currency}`);
  const text = `${t.unsure(what, CREATE_TEXT[lang].failedReasons[why])}\n${t.unsureNext}`;
  const button: types.Button = {
    type: "button",
    action_id: CREATE_NOW_ACTION,
    text: { type: "plain_text", text: t.createNow },
    value: createNowButton.write({ t: link.t, k: link.k, ...(link.r ? { r: link.r } : {}) }),
  };
  return {
    response_type: "ephemeral",
    text: t.unsureFallback(`${asked.amount} ${asked.currency}`),
    blocks: [
      { type: "section", text: { type: "mrkdwn", text: truncate(text, LIMITS.sectionText) } },
      { type: "actions", elements: [button] },
      {
        type: "context",
        elements: [{ type: "mrkdwn", text: CREATE_TEXT[lang].reference(inlineCode(reference)) }],
      },
    ],
  };
}

/** Created, but its card could not be read back: the link alone, and how to see the card. */
export function createdWithoutCardMessage(
  id: string,
  url: string,
  userId: string,
  lang: Lang = "en",
): SlackMessage {
  const t = CREATE_TEXT[lang];
  const safeUrl = /^https:\/\/[^\s<>|]+$/.test(url) ? url : undefined;
  return {
    text: t.createdBy(id, `<@${userId}>`),
    blocks: [
      {
        type: "section",
        text: {
          type: "mrkdwn",
          text: truncate(
            t.createdNoCard(
              inlineCode(id),
              safeUrl ? `: <${safeUrl}|${t.paymentPage}>` : "",
              `\`/invoice ${id}\``,
            ),
            LIMITS.sectionText,
          ),
        },
      },
      { type: "context", elements: [{ type: "mrkdwn", text: t.createdByNote(`<@${userId}>`) }] },
    ],
  };
}
