import type { types } from "@slack/bolt";
import type { Lang } from "../i18n/lang.js";
import { LINK_REMINDERS_TEXT, type RemindedHere } from "../i18n/link-reminders.js";
import { linkButton } from "./button-values.js";
import { formatAmount } from "./format.js";
import { LINK_ACTIONS } from "./ids.js";
import { LIMITS } from "./limits.js";
import type { SlackMessage } from "./message.js";
import { methodTime } from "./method-watch.js";
import { inlineCode, safeText, truncate } from "./mrkdwn.js";

// A payment link's reminder before it expires (issue 51), what its buttons answer, and the alert
// when a link and its re-issue were both paid. Outside text (the customer, ids) is escaped.

/** What a reminder shows: the link's record as the pass read it. */
export type ReminderFacts = {
  team: string;
  ref: string;
  register?: string | undefined;
  invoiceId: string;
  amount: string;
  currency: string;
  customer?: string | undefined;
  /** When its page closes (epoch ms). */
  expiresAt: number;
  /** The creator's timezone (the date's fallback text; Slack shows each reader their own). */
  zone: string;
  lang: Lang;
  /** Posted in the card's channel instead of the creator's messages: why, and who the creator was. */
  here?: { why: RemindedHere; creator: string } | undefined;
};

const section = (text: string): types.SectionBlock => ({
  type: "section",
  text: { type: "mrkdwn", text: truncate(text, LIMITS.sectionText) },
});
const context = (text: string): types.ContextBlock => ({
  type: "context",
  elements: [{ type: "mrkdwn", text: truncate(text, LIMITS.sectionText) }],
});
const button = (actionId: string, text: string, value: string): types.Button => ({
  type: "button",
  action_id: actionId,
  text: { type: "plain_text", text },
  value,
});

/** The reminder's words, without its buttons (the message a Stop reminding leaves shows them too). */
function reminderBlocks(facts: ReminderFacts): types.KnownBlock[] {
  const t = LINK_REMINDERS_TEXT[facts.lang];
  const what = formatAmount(facts.amount, facts.currency, facts.lang);
  const when = methodTime(facts.expiresAt, facts.zone, facts.lang);
  const lines = [t.reminder(inlineCode(facts.invoiceId), what, when)];
  if (facts.customer) lines.push(t.customerLine(safeText(facts.customer, 80)));
  const here = facts.here ? [context(t.reminderHere(facts.here.why, facts.here.creator))] : [];
  return [...here, section(lines.join("\n"))];
}

function fallback(facts: ReminderFacts): string {
  const what = formatAmount(facts.amount, facts.currency, facts.lang);
  return safeText(
    LINK_REMINDERS_TEXT[facts.lang].reminderFallback(facts.invoiceId, what),
    LIMITS.fallbackText,
  );
}

/** The reminder: the invoice, customer, amount and expiry, with Copy link, Re-issue and Stop reminding. */
export function reminderMessage(facts: ReminderFacts): SlackMessage {
  const t = LINK_REMINDERS_TEXT[facts.lang];
  const value = linkButton.write({
    t: facts.team,
    k: facts.ref,
    ...(facts.register ? { r: facts.register } : {}),
  });
  return {
    text: fallback(facts),
    blocks: [
      ...reminderBlocks(facts),
      {
        type: "actions",
        elements: [
          button(LINK_ACTIONS.copy, t.copyLink, value),
          button(LINK_ACTIONS.reissue, t.reissue, value),
          button(LINK_ACTIONS.stopReminding, t.stopReminding, value),
        ],
      },
      context(t.reminderNext),
    ],
  };
}

/** The reminder once Stop reminding was pressed: its words, no buttons, who stopped it. */
export function stoppedReminderMessage(facts: ReminderFacts, by: string, schedule: boolean): SlackMessage {
  const t = LINK_REMINDERS_TEXT[facts.lang];
  const line = schedule ? t.stoppedSchedule(`<@${by}>`) : t.stopped(`<@${by}>`);
  return { text: fallback(facts), blocks: [...reminderBlocks(facts), context(line)] };
}

/** Copy link's answer: the URL in a block of code, or why there is none to send. */
export function copiedLinkText(
  facts: { invoiceId: string; url: string | undefined; paid: boolean; expiresAt: number; zone: string },
  lang: Lang,
): string {
  const t = LINK_REMINDERS_TEXT[lang];
  const id = inlineCode(facts.invoiceId);
  if (facts.paid) return t.copiedPaid(id);
  if (!facts.url) return t.linkGone(id);
  return t.copied(id, facts.url.replace(/`/g, ""), methodTime(facts.expiresAt, facts.zone, lang));
}

/** One link of a pair paid twice: its invoice and amount. */
export type PaidLink = { invoiceId: string; amount: string; currency: string };

/** Both a link and its re-issue were paid: the ids and amounts, and what to do. */
export function paidTwiceMessage(first: PaidLink, second: PaidLink, lang: Lang): SlackMessage {
  const t = LINK_REMINDERS_TEXT[lang];
  const named = (link: PaidLink) =>
    `${inlineCode(link.invoiceId)} (${formatAmount(link.amount, link.currency, lang)})`;
  return {
    text: safeText(t.paidTwiceFallback(first.invoiceId, second.invoiceId), LIMITS.fallbackText),
    blocks: [section(t.paidTwice(named(first), named(second))), context(t.paidTwiceNext)],
  };
}
