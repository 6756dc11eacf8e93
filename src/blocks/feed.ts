import type { types } from "@slack/bolt";
import type { FeedEvent, FeedFilter } from "../feed/model.js";
import { FEED_TEXT } from "../i18n/feed.js";
import { FEED_FILTER_TEXT } from "../i18n/feed-filter.js";
import type { Lang } from "../i18n/lang.js";
import { REGISTERS_TEXT } from "../i18n/registers.js";
import { type Invoice, type PaymentMethod, TEST_METHOD } from "../payments/model.js";
import { feedSettingsButton, invoiceButton } from "./button-values.js";
import { describeFilter, mentionList, rubThreshold } from "./feed-describe.js";
import { formatMoney } from "./format.js";
import { FEED_ACTIONS, INVOICE_ACTIONS } from "./ids.js";
import { amountLabel } from "./invoice.js";
import { invoiceStates, lookup, plainState } from "./invoice-state.js";
import { LIMITS } from "./limits.js";
import type { SlackMessage } from "./message.js";
import { escapeMrkdwn, inlineCode, safeText, truncate } from "./mrkdwn.js";
import { ephemeral } from "./replies.js";

/** The feed's headline per change: "Paid" first; "New invoice" only in `all` mode; "Expired unpaid". */
function headline(state: string, isNew: boolean, expired: boolean, lang: Lang): string {
  if (expired) return `:alarm_clock: *${FEED_FILTER_TEXT[lang].expiredUnpaid}*`;
  if (state === "notpayed" && isNew) return `:new: *${FEED_TEXT[lang].newInvoice}*`;
  const look = lookup(invoiceStates(lang), state);
  return look ? `${look.emoji} *${look.label}*` : `:grey_question: *${safeText(state, 60)}*`;
}

/** Why a message of a filtered feed is in its channel, and why someone is mentioned in it. */
export type FeedWhy = {
  filter: FeedFilter;
  mention: { users: string[]; why: "failure" | "payment"; minRub?: string | null | undefined } | null;
};

/**
 * One feed message: what happened to which invoice, the amount with the currency the service's
 * answer ties it to (v2: the invoice amount in RUB, the amount paid in the method's currency), the
 * method, the description (escaped: never a mention), a test payment marked, and a button for the
 * full card. A filtered feed's message says why it is there; the people the feed's form names are
 * mentioned in the text (so Slack notifies them) and in that line. Pure.
 */
export function buildFeedMessage(
  invoice: Invoice,
  options: {
    teamId: string;
    isNew: boolean;
    /** What made it news ("expired": an unpaid invoice past its expiry). */
    event?: FeedEvent | undefined;
    method?: PaymentMethod | undefined;
    why?: FeedWhy | undefined;
    lang?: Lang;
    /** The register's name, where the workspace has several: the title starts with it. */
    register?: string | undefined;
  },
): SlackMessage {
  const lang = options.lang ?? "en";
  const t = FEED_TEXT[lang];
  const expired = options.event === "expired";
  const test = invoice.method === TEST_METHOD;
  const from = options.register === undefined ? "" : `*${escapeMrkdwn(options.register)}* · `;
  const title = `${from}${headline(invoice.state, options.isNew, expired, lang)} · ${t.invoice(inlineCode(truncate(invoice.id, 100)))}${test ? `  ·  :test_tube: _${t.testPayment}_` : ""}`;
  const fields = feedFields(invoice, options.method, lang);
  const amount = invoice.amounts.amount;
  const blocks: types.KnownBlock[] = [
    { type: "section", text: { type: "mrkdwn", text: truncate(title, LIMITS.sectionText) } },
  ];
  if (fields.length > 0) blocks.push({ type: "section", fields });
  if (invoice.description)
    blocks.push({
      type: "context",
      elements: [{ type: "mrkdwn", text: truncate(escapeMrkdwn(invoice.description), 300) }],
    });
  blocks.push(openCardActions(invoice, options.teamId, options.register, lang));
  const what = expired
    ? FEED_FILTER_TEXT[lang].expiredUnpaidLower
    : options.isNew && invoice.state === "notpayed"
      ? t.newInvoiceLower
      : plainState(invoice.state, lang);
  const told = t.fallback(invoice.id, what, amount ? formatMoney(amount, lang) : undefined, test);
  const text = options.register === undefined ? told : `${options.register} · ${told}`;
  const why = options.why;
  const people = why?.mention ? mentionList(why.mention.users, lang) : "";
  if (why) blocks.splice(blocks.length - 1, 0, whyContext(why, people, lang));
  // Escaped first, the mentions added after: only the form's people are ever mentioned.
  const safe = safeText(text, LIMITS.fallbackText - people.length - 3);
  return { text: people ? `${safe} · ${people}` : safe, blocks };
}

/**
 * The invoice amount, the amount paid where it says something the invoice amount does not (another
 * currency or figure), and the method (its name where the list had it).
 */
function feedFields(invoice: Invoice, known: PaymentMethod | undefined, lang: Lang): types.MrkdwnElement[] {
  const t = FEED_TEXT[lang];
  const fields: types.MrkdwnElement[] = [];
  const amount = invoice.amounts.amount;
  if (amount) fields.push(field(t.invoiceAmount, escapeMrkdwn(formatMoney(amount, lang))));
  const paid = invoice.amounts.payAmount;
  const paidLabel = amountLabel("payAmount", invoice, false, lang);
  if (paid && paidLabel && amount && (paid.currency !== amount.currency || paid.value !== amount.value))
    fields.push(field(paidLabel, escapeMrkdwn(formatMoney(paid, lang))));
  if (invoice.method) {
    const method = known?.code === invoice.method ? known : undefined;
    const shown = method
      ? `${safeText(method.name, 80)} ${inlineCode(invoice.method)}`
      : inlineCode(truncate(invoice.method, 40));
    fields.push(field(t.method, shown));
  }
  return fields;
}

/** The button that opens the invoice's full card for the presser alone. */
function openCardActions(
  invoice: Invoice,
  teamId: string,
  register: string | undefined,
  lang: Lang,
): types.KnownBlock {
  return {
    type: "actions",
    elements: [
      {
        type: "button",
        action_id: INVOICE_ACTIONS.open,
        text: { type: "plain_text", text: FEED_TEXT[lang].openCard },
        value: invoiceButton.write({
          t: teamId,
          id: invoice.id,
          s: truncate(invoice.state, 40),
          ...(register === undefined ? {} : { r: register }),
        }),
      },
    ],
  };
}

function whyContext(why: FeedWhy, people: string, lang: Lang): types.KnownBlock {
  const t = FEED_FILTER_TEXT[lang];
  let line = t.why(describeFilter(why.filter, lang));
  if (why.mention && people)
    line += ` ${
      why.mention.why === "failure"
        ? t.mentionedFailure(people)
        : t.mentionedPayment(people, why.mention.minRub ? rubThreshold(why.mention.minRub, lang) : undefined)
    }`;
  return { type: "context", elements: [{ type: "mrkdwn", text: truncate(line, LIMITS.fieldText) }] };
}

function field(label: string, value: string): types.MrkdwnElement {
  return { type: "mrkdwn", text: truncate(`*${label}*\n${value}`, LIMITS.fieldText) };
}

/** A feed's Settings button: opens its form (for those who may change feeds). */
export function feedSettingsButtonFor(
  teamId: string,
  channel: string,
  lang: Lang,
  register?: string | undefined,
): types.Button {
  return {
    type: "button",
    action_id: FEED_ACTIONS.settings,
    text: { type: "plain_text", text: FEED_FILTER_TEXT[lang].settings },
    value: feedSettingsButton.write({ t: teamId, c: channel, ...(register ? { r: register } : {}) }),
  };
}

/**
 * Posted in the channel when it becomes a feed: everyone there knows why messages will come, and
 * its Settings button opens the feed form. `what`: the feed in words (feed-describe.ts).
 */
export function feedWelcomeMessage(
  what: string,
  by: string,
  origin: { teamId: string; channel: string; register?: string | undefined },
  lang: Lang = "en",
): SlackMessage {
  const welcome = FEED_TEXT[lang].welcome(`<@${by}>`, what);
  const named = origin.register === undefined ? undefined : escapeMrkdwn(origin.register);
  const text = named === undefined ? welcome : `${REGISTERS_TEXT[lang].feedOf(named)}: ${welcome}`;
  return {
    text: truncate(text, LIMITS.fallbackText),
    blocks: [
      { type: "section", text: { type: "mrkdwn", text: truncate(text, LIMITS.sectionText) } },
      {
        type: "actions",
        elements: [feedSettingsButtonFor(origin.teamId, origin.channel, lang, origin.register)],
      },
    ],
  };
}

export function feedSubscribedMessage(
  what: string,
  outcome: "added" | "changed" | "resumed",
  lang: Lang = "en",
): SlackMessage {
  const t = FEED_TEXT[lang];
  const lead = outcome === "resumed" ? t.resumedLead : outcome === "changed" ? t.changedLead : t.addedLead;
  return ephemeral(t.subscribed(lead, what), t.subscribedFallback(lead));
}

export function feedNotInChannelMessage(lang: Lang = "en"): SlackMessage {
  return ephemeral(FEED_TEXT[lang].notInChannel, FEED_TEXT[lang].notInChannelFallback);
}

export function feedUnsubscribedMessage(removed: boolean, lang: Lang = "en"): SlackMessage {
  const t = FEED_TEXT[lang];
  return removed
    ? ephemeral(t.unsubscribed, t.unsubscribedFallback)
    : ephemeral(t.notAFeed, t.notAFeedFallback);
}

/** The one private note to the subscriber when a feed goes quiet, and what brings it back. */
export function feedPausedText(
  reason: "not_in_channel" | "unreadable_history",
  channel: string,
  lang: Lang = "en",
): string {
  const t = FEED_TEXT[lang];
  return reason === "not_in_channel"
    ? t.pausedNotInChannel(`<#${channel}>`)
    : t.pausedUnreadable(`<#${channel}>`);
}

export function feedResumedText(channel: string, lang: Lang = "en"): string {
  return FEED_TEXT[lang].resumed(`<#${channel}>`);
}

/** The one note to the subscriber when an announcement is given up after a day of failures. */
export function feedGivenUpText(
  channel: string,
  invoiceId: string,
  why: "unreadable" | "not_taken",
  lang: Lang = "en",
): string {
  return FEED_TEXT[lang].givenUp(`<#${channel}>`, escapeMrkdwn(safeText(invoiceId, 100)), why);
}
