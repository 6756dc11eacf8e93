import type { types } from "@slack/bolt";
import { BALANCE_TEXT } from "../i18n/balance.js";
import type { Lang } from "../i18n/lang.js";
import { MONEY_ALERTS_TEXT } from "../i18n/money-alerts.js";
import { currenciesToPrice, rubTotal } from "../payments/balance-total.js";
import { compareDecimals } from "../payments/decimal.js";
import type { Balance, RubRates } from "../payments/model.js";
import { formatAmount, slackDateFromEpoch } from "./format.js";
import { LIMITS } from "./limits.js";
import type { SlackMessage } from "./message.js";
import { inlineCode, safeText, truncate } from "./mrkdwn.js";
import { ephemeral } from "./replies.js";

/** Who may see `/balance` (a workspace setting; admins only unless an admin chose otherwise). */
export type BalanceVisibility = "admins" | "everyone";

export type BalanceMessageInput = {
  balances: readonly Balance[];
  /** How many entries of the service's answer could not be read (left out). */
  unreadable: number;
  fetchedAt: Date;
  /** Rouble prices and when they were read; null when none were needed or they could not be read. */
  rates: { prices: RubRates; fetchedAt: Date } | null;
  /** The workspace's language (English by default). */
  lang?: Lang;
};

const LINES_PER_SECTION = 20;
/** Past this many non-zero balances the rest are counted, not listed (a message holds 50 blocks). */
const MAX_LINES = 200;

const isZero = (balance: Balance) => compareDecimals(balance.amount.value, "0") === 0;
const epoch = (date: Date) => Math.floor(date.getTime() / 1000);

function amountText(balance: Balance, lang: Lang): string {
  return formatAmount(balance.amount.value, safeText(balance.amount.currency, 12), lang);
}

function balanceLine(balance: Balance, lang: Lang): string {
  const label = balance.name
    ? `*${safeText(balance.name, 80)}* ${inlineCode(truncate(balance.code, 40))}`
    : inlineCode(truncate(balance.code, 40));
  return `• ${label}: *${amountText(balance, lang)}*`;
}

type TotalText = { line: string; note?: string; fallback?: string };

/**
 * The rouble total, or why there is none. Approximate whenever a rate was used, and then it says
 * when the rates were read; never shown when any non-zero balance could not be read or priced, or
 * when a rate makes a coin's balance implausible.
 */
function totalText(input: BalanceMessageInput, nonZero: readonly Balance[]): TotalText | undefined {
  const lang = input.lang ?? "en";
  const t = BALANCE_TEXT[lang];
  if (input.unreadable > 0) return { line: t.unreadable(input.unreadable) };
  if (nonZero.length === 0) return undefined;
  const toPrice = currenciesToPrice([...nonZero]);
  if (toPrice.length > 0 && !input.rates) {
    return { line: t.noRates };
  }
  const total = rubTotal([...nonZero], input.rates?.prices ?? {});
  if (total.kind === "unpriced") {
    return { line: t.unpriced(total.currencies.map((code) => safeText(code, 12)).join(", ")) };
  }
  if (total.kind === "implausible") {
    return { line: t.implausible(total.currencies.map((code) => safeText(code, 12)).join(", ")) };
  }
  const value = formatAmount(total.value, "RUB", lang);
  if (!total.approximate || !input.rates) {
    return { line: t.total(value), fallback: t.fallbackTotal(value) };
  }
  return {
    line: t.totalApprox(value),
    note: t.approxNote(slackDateFromEpoch(epoch(input.rates.fetchedAt), lang)),
    fallback: t.fallbackApprox(value),
  };
}

/**
 * `/balance`: the cash register's balances with their currencies, non-zero ones first (one line
 * each, exact), empty ones named in one line, and the rouble total when it can be told. Always
 * ephemeral: balances are for the asker only.
 */
export function buildBalanceMessage(input: BalanceMessageInput): SlackMessage {
  const lang = input.lang ?? "en";
  const t = BALANCE_TEXT[lang];
  const nonZero = input.balances.filter((balance) => !isZero(balance));
  const total = totalText(input, nonZero);
  const blocks: types.KnownBlock[] = [
    { type: "header", text: { type: "plain_text", text: t.header } },
    ...balanceSections(input, nonZero, lang),
    ...(total
      ? [
          { type: "divider" as const },
          { type: "section" as const, text: { type: "mrkdwn" as const, text: total.line } },
        ]
      : []),
    notesBlock(input, total, lang),
  ];
  const amounts = nonZero.map((balance) => formatAmount(balance.amount.value, balance.amount.currency, lang));
  const fallback = [
    t.fallback(amounts.length > 0 ? amounts.join(", ") : undefined),
    ...(total?.fallback ? [total.fallback] : []),
  ].join("; ");
  return { response_type: "ephemeral", text: safeText(fallback, LIMITS.fallbackText), blocks };
}

/** The non-zero balances, a line each (at most MAX_LINES, then how many more), or a line saying none. */
function balanceSections(
  input: BalanceMessageInput,
  nonZero: readonly Balance[],
  lang: Lang,
): types.KnownBlock[] {
  const t = BALANCE_TEXT[lang];
  const blocks: types.KnownBlock[] = [];
  if (nonZero.length === 0) {
    const text = input.balances.length === 0 && input.unreadable === 0 ? t.allZeroNothing : t.allZero;
    blocks.push({ type: "section", text: { type: "mrkdwn", text } });
  }
  const listed = nonZero.slice(0, MAX_LINES);
  for (let start = 0; start < listed.length; start += LINES_PER_SECTION) {
    const lines = listed.slice(start, start + LINES_PER_SECTION).map((balance) => balanceLine(balance, lang));
    blocks.push({
      type: "section",
      text: { type: "mrkdwn", text: truncate(lines.join("\n"), LIMITS.sectionText) },
    });
  }
  if (nonZero.length > listed.length)
    blocks.push({
      type: "context",
      elements: [{ type: "mrkdwn", text: t.more(nonZero.length - listed.length) }],
    });
  return blocks;
}

/** The empty balances named in one line, the total's note, and when the balances were read. */
function notesBlock(input: BalanceMessageInput, total: TotalText | undefined, lang: Lang): types.KnownBlock {
  const t = BALANCE_TEXT[lang];
  const empty = input.balances.filter(isZero);
  const notes: string[] = [];
  if (empty.length > 0)
    notes.push(t.empty(empty.map((balance) => inlineCode(truncate(balance.code, 40))).join(", ")));
  if (total?.note) notes.push(total.note);
  notes.push(t.readAt(slackDateFromEpoch(epoch(input.fetchedAt), lang)));
  return {
    type: "context",
    elements: notes.map((text) => ({ type: "mrkdwn" as const, text: truncate(text, LIMITS.sectionText) })),
  };
}

/** A polite no, naming who can see the balance and how that can change. */
export function balanceNotAllowedMessage(lang: Lang = "en"): SlackMessage {
  const t = BALANCE_TEXT[lang];
  return ephemeral([t.notAllowed, t.notAllowedHow].join("\n"), t.notAllowedFallback);
}

export function balanceHelpMessage(visibility: BalanceVisibility, lang: Lang = "en"): SlackMessage {
  const t = BALANCE_TEXT[lang];
  return ephemeral(
    [
      t.help,
      t.helpOnlyYou,
      visibility === "everyone" ? t.helpEveryone : t.helpAdmins,
      MONEY_ALERTS_TEXT[lang].alertUsage,
    ].join("\n"),
    t.helpFallback,
  );
}

export function balanceUsageMessage(input: string, lang: Lang = "en"): SlackMessage {
  const t = BALANCE_TEXT[lang];
  return ephemeral(t.usage(inlineCode(truncate(input, 60))), t.usageFallback);
}
