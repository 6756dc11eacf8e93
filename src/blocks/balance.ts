import type { types } from "@slack/bolt";
import { currenciesToPrice, rubTotal } from "../payments/balance-total.js";
import { compareDecimals } from "../payments/decimal.js";
import type { Balance, RubRates } from "../payments/model.js";
import { formatDecimal, slackDateFromEpoch } from "./format.js";
import { LIMITS } from "./limits.js";
import type { SlackMessage } from "./message.js";
import { inlineCode, safeText, truncate } from "./mrkdwn.js";
import { ephemeral, WHO_MAY_MANAGE } from "./replies.js";

/** Who may see `/balance` (a workspace setting; admins only unless an admin chose otherwise). */
export type BalanceVisibility = "admins" | "everyone";

export type BalanceMessageInput = {
  balances: readonly Balance[];
  /** How many entries of the service's answer could not be read (left out). */
  unreadable: number;
  fetchedAt: Date;
  /** Rouble prices and when they were read; null when none were needed or they could not be read. */
  rates: { prices: RubRates; fetchedAt: Date } | null;
};

const LINES_PER_SECTION = 20;
/** Past this many non-zero balances the rest are counted, not listed (a message holds 50 blocks). */
const MAX_LINES = 200;

const isZero = (balance: Balance) => compareDecimals(balance.amount.value, "0") === 0;
const epoch = (date: Date) => Math.floor(date.getTime() / 1000);

function amountText(balance: Balance): string {
  return `${formatDecimal(balance.amount.value)} ${safeText(balance.amount.currency, 12)}`;
}

function balanceLine(balance: Balance): string {
  const label = balance.name
    ? `*${safeText(balance.name, 80)}* ${inlineCode(truncate(balance.code, 40))}`
    : inlineCode(truncate(balance.code, 40));
  return `• ${label}: *${amountText(balance)}*`;
}

type TotalText = { line: string; note?: string; fallback?: string };

/**
 * The rouble total, or why there is none. Approximate whenever a rate was used, and then it says
 * when the rates were read; never shown when any non-zero balance could not be read or priced.
 */
function totalText(input: BalanceMessageInput, nonZero: readonly Balance[]): TotalText | undefined {
  if (input.unreadable > 0) {
    return {
      line: `:warning: No total in RUB: ${input.unreadable} balance${input.unreadable === 1 ? "" : "s"} in the payment service's answer could not be read and ${input.unreadable === 1 ? "is" : "are"} not shown.`,
    };
  }
  if (nonZero.length === 0) return undefined;
  const toPrice = currenciesToPrice([...nonZero]);
  if (toPrice.length > 0 && !input.rates) {
    return {
      line: ":hourglass: No total in RUB right now: the exchange rates could not be read. The balances above are exact; try again in a minute for the total.",
    };
  }
  const total = rubTotal([...nonZero], input.rates?.prices ?? {});
  if (total.kind === "unpriced") {
    return {
      line: `:information_source: No total in RUB: the payment service gave no rate for ${total.currencies.map((code) => safeText(code, 12)).join(", ")}.`,
    };
  }
  const value = `${formatDecimal(total.value)} RUB`;
  if (!total.approximate || !input.rates) {
    return { line: `*Total: ${value}*`, fallback: `total ${value}` };
  }
  return {
    line: `*Total ≈ ${value}* _(approximate)_`,
    note: `The total converts each balance at the payment service's rouble rate read ${slackDateFromEpoch(epoch(input.rates.fetchedAt))}, rounded to kopecks; the balances themselves are exact.`,
    fallback: `total about ${value} (approximate)`,
  };
}

/**
 * `/balance`: the cash register's balances with their currencies, non-zero ones first (one line
 * each, exact), empty ones named in one line, and the rouble total when it can be told. Always
 * ephemeral: balances are for the asker only.
 */
export function buildBalanceMessage(input: BalanceMessageInput): SlackMessage {
  const nonZero = input.balances.filter((balance) => !isZero(balance));
  const empty = input.balances.filter(isZero);
  const blocks: types.KnownBlock[] = [
    { type: "header", text: { type: "plain_text", text: "Cash register balance" } },
  ];

  if (nonZero.length === 0) {
    blocks.push({
      type: "section",
      text: {
        type: "mrkdwn",
        text:
          input.balances.length === 0 && input.unreadable === 0
            ? "Every balance is 0: there is no money on the cash register."
            : "Every balance is 0.",
      },
    });
  }
  const listed = nonZero.slice(0, MAX_LINES);
  for (let start = 0; start < listed.length; start += LINES_PER_SECTION) {
    const lines = listed.slice(start, start + LINES_PER_SECTION).map(balanceLine);
    blocks.push({
      type: "section",
      text: { type: "mrkdwn", text: truncate(lines.join("\n"), LIMITS.sectionText) },
    });
  }
  if (nonZero.length > listed.length) {
    blocks.push({
      type: "context",
      elements: [{ type: "mrkdwn", text: `…and ${nonZero.length - listed.length} more non-zero balances.` }],
    });
  }

  const total = totalText(input, nonZero);
  if (total) {
    blocks.push({ type: "divider" }, { type: "section", text: { type: "mrkdwn", text: total.line } });
  }

  const notes: string[] = [];
  if (empty.length > 0) {
    const names = empty.map((balance) => inlineCode(truncate(balance.code, 40))).join(", ");
    notes.push(`Empty (0): ${names}.`);
  }
  if (total?.note) notes.push(total.note);
  notes.push(
    `Read from the payment service ${slackDateFromEpoch(epoch(input.fetchedAt))}. Only you can see this reply.`,
  );
  blocks.push({
    type: "context",
    elements: notes.map((text) => ({ type: "mrkdwn" as const, text: truncate(text, LIMITS.sectionText) })),
  });

  const amounts = nonZero.map(
    (balance) => `${formatDecimal(balance.amount.value)} ${balance.amount.currency}`,
  );
  const fallback = [
    `Cash register balance: ${amounts.length > 0 ? amounts.join(", ") : "every balance is 0"}`,
    ...(total?.fallback ? [total.fallback] : []),
  ].join("; ");
  return { response_type: "ephemeral", text: safeText(fallback, LIMITS.fallbackText), blocks };
}

/** A polite no, naming who can see the balance and how that can change. */
export function balanceNotAllowedMessage(): SlackMessage {
  return ephemeral(
    [
      `:lock: The cash register's balance is shown only to ${WHO_MAY_MANAGE}. Ask one of them.`,
      "An admin can let everyone in the workspace see it: Kassa's App Home tab → _Update_ (or `/invoice connect`) → _Who may see the balance_.",
    ].join("\n"),
    "Only workspace admins and owners can see the cash register's balance. Ask one of them.",
  );
}

export function balanceHelpMessage(visibility: BalanceVisibility): SlackMessage {
  return ephemeral(
    [
      "*`/balance`* shows how much is on this workspace's cash register: each method's balance in its own currency, exact, non-zero ones first, and an approximate total in roubles at the payment service's current rates.",
      "The reply is visible only to you.",
      visibility === "everyone"
        ? "Everyone in this workspace may use it (an admin chose so in the connection settings)."
        : `Only ${WHO_MAY_MANAGE} may use it, unless an admin lets everyone in the connection settings.`,
    ].join("\n"),
    "/balance shows the cash register's balances, visible only to you.",
  );
}

export function balanceUsageMessage(input: string): SlackMessage {
  return ephemeral(
    `:information_source: \`/balance\` takes no text, got ${inlineCode(truncate(input, 60))}. Type \`/balance\` for the balances or \`/balance help\` for more.`,
    "Usage: /balance (or /balance help)",
  );
}
