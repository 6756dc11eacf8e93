import type { types } from "@slack/bolt";
import type { FeedMode } from "../feed/model.js";
import { type Invoice, type PaymentMethod, TEST_METHOD } from "../payments/model.js";
import { invoiceButton } from "./button-values.js";
import { formatMoney } from "./format.js";
import { INVOICE_ACTIONS } from "./ids.js";
import { amountLabel, INVOICE_STATES } from "./invoice.js";
import { lookup, plainState } from "./invoice-state.js";
import { LIMITS } from "./limits.js";
import type { SlackMessage } from "./message.js";
import { escapeMrkdwn, inlineCode, safeText, truncate } from "./mrkdwn.js";
import { ephemeral } from "./replies.js";

/** The feed's headline per change: "Paid" first; "New invoice" only in `all` mode. */
function headline(state: string, isNew: boolean): string {
  if (state === "notpayed" && isNew) return ":new: *New invoice*";
  const look = lookup(INVOICE_STATES, state);
  return look ? `${look.emoji} *${look.label}*` : `:grey_question: *${safeText(state, 60)}*`;
}

/**
 * One feed message: what happened to which invoice, the amount with the currency the service's
 * answer ties it to (v2: the invoice amount in RUB, the amount paid in the method's currency), the
 * method, the description, a test payment marked, and a button for the full card. Pure.
 */
export function buildFeedMessage(
  invoice: Invoice,
  options: { teamId: string; isNew: boolean; method?: PaymentMethod | undefined },
): SlackMessage {
  const test = invoice.method === TEST_METHOD;
  const title = `${headline(invoice.state, options.isNew)} · Invoice ${inlineCode(truncate(invoice.id, 100))}${test ? "  ·  :test_tube: _Test payment_" : ""}`;
  const fields: types.MrkdwnElement[] = [];
  const amount = invoice.amounts.amount;
  if (amount) fields.push(field("Invoice amount", escapeMrkdwn(formatMoney(amount))));
  const paid = invoice.amounts.payAmount;
  const paidLabel = amountLabel("payAmount", invoice, false);
  // Only when it says something the invoice amount does not (another currency or figure).
  if (paid && paidLabel && amount && (paid.currency !== amount.currency || paid.value !== amount.value))
    fields.push(field(paidLabel, escapeMrkdwn(formatMoney(paid))));
  if (invoice.method) {
    const method = options.method?.code === invoice.method ? options.method : undefined;
    fields.push(
      field(
        "Method",
        method
          ? `${safeText(method.name, 80)} ${inlineCode(invoice.method)}`
          : inlineCode(truncate(invoice.method, 40)),
      ),
    );
  }
  const blocks: types.KnownBlock[] = [
    { type: "section", text: { type: "mrkdwn", text: truncate(title, LIMITS.sectionText) } },
  ];
  if (fields.length > 0) blocks.push({ type: "section", fields });
  if (invoice.description)
    blocks.push({
      type: "context",
      elements: [{ type: "mrkdwn", text: truncate(escapeMrkdwn(invoice.description), 300) }],
    });
  blocks.push({
    type: "actions",
    elements: [
      {
        type: "button",
        action_id: INVOICE_ACTIONS.open,
        text: { type: "plain_text", text: "Open full card" },
        value: invoiceButton.write({ t: options.teamId, id: invoice.id, s: truncate(invoice.state, 40) }),
      },
    ],
  });
  const text = `Invoice ${invoice.id}: ${options.isNew && invoice.state === "notpayed" ? "new invoice" : plainState(invoice.state)}${amount ? ` · ${formatMoney(amount)}` : ""}${test ? " (test payment)" : ""}`;
  return { text: safeText(text, LIMITS.fallbackText), blocks };
}

function field(label: string, value: string): types.MrkdwnElement {
  return { type: "mrkdwn", text: truncate(`*${label}*\n${value}`, LIMITS.fieldText) };
}

const MODE_WORDS: Record<FeedMode, string> = {
  paid: "every invoice of this workspace's cash register that gets paid",
  all: "every new invoice of this workspace's cash register, and each one that gets paid, fails or is paid a wrong amount",
};

/** Posted in the channel when it subscribes: everyone there knows why messages will come. */
export function feedWelcomeText(mode: FeedMode, by: string): string {
  return `:incoming_envelope: <@${by}> made this channel Kassa's payment feed: from now on it gets ${MODE_WORDS[mode]}, one message each. Invoices paid before now are not posted. \`/invoice unsubscribe\` here stops it.`;
}

export function feedSubscribedMessage(
  mode: FeedMode,
  outcome: "added" | "changed" | "resumed",
): SlackMessage {
  const what = MODE_WORDS[mode];
  const lead =
    outcome === "resumed"
      ? ":arrow_forward: The feed in this channel is running again"
      : outcome === "changed"
        ? ":white_check_mark: This channel's feed now follows"
        : ":white_check_mark: This channel is now a payment feed";
  return ephemeral(
    `${lead}: ${what}. Kassa checks the cash register's history regularly. \`/invoice unsubscribe\` stops it; \`/invoice status\` lists the feeds.`,
    `${lead}. /invoice unsubscribe stops it.`,
  );
}

export function feedNotInChannelMessage(): SlackMessage {
  return ephemeral(
    ":wave: Kassa is not in this channel, so it cannot post the feed here. Invite it with `/invite @Kassa`, then type `/invoice subscribe` again.",
    "Kassa is not in this channel. Invite it with /invite @Kassa, then subscribe again.",
  );
}

export function feedUnsubscribedMessage(removed: boolean): SlackMessage {
  return removed
    ? ephemeral(
        ":no_bell: This channel no longer gets the payment feed. Cards already posted stay as they are.",
        "This channel no longer gets the payment feed.",
      )
    : ephemeral(
        ":information_source: Nothing was changed: this channel is not a payment feed. `/invoice subscribe` makes it one.",
        "This channel is not a payment feed.",
      );
}

/** The one private note to the subscriber when a feed goes quiet, and what brings it back. */
export function feedPausedText(reason: "not_in_channel" | "unreadable_history", channel: string): string {
  return reason === "not_in_channel"
    ? `:pause_button: Kassa's payment feed in <#${channel}> has stopped: Kassa is no longer in that channel. Invite it with \`/invite @Kassa\` there and type \`/invoice subscribe\` again; payments in between are then posted.`
    : `:pause_button: Kassa's payment feed in <#${channel}> is paused: the payment service's invoice history could not be read. Kassa keeps trying and carries on by itself once it can; nothing is posted twice.`;
}

export function feedResumedText(channel: string): string {
  return `:arrow_forward: Kassa's payment feed in <#${channel}> is running again: the invoice history could be read again.`;
}
