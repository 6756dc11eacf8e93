import type { types } from "@slack/bolt";
import { INVOICE_LIST_TEXT } from "../i18n/invoice-list.js";
import type { Lang } from "../i18n/lang.js";
import type { HistoryEntry } from "../payments/history.js";
import { invoiceButton, type ListFilter, listPageButton } from "./button-values.js";
import { formatMoney, slackDate, slackDateFromEpoch } from "./format.js";
import { INVOICE_ACTIONS, LIST_ACTIONS } from "./ids.js";
import { stateText } from "./invoice.js";
import { plainState } from "./invoice-state.js";
import { LIMITS } from "./limits.js";
import { type SlackMessage, shareButton } from "./message.js";
import { escapeMrkdwn, inlineCode, truncate } from "./mrkdwn.js";

export { LIST_FILTERS, type ListButtonValue, type ListFilter } from "./button-values.js";
export const LIST_PAGE_SIZE = 10;

/**
 * What a page or Share button carries: the workspace, the filter and the page. Short keys: a button
 * value is at most 2,000 characters and this one is written on every page.
 */

/** Whether an invoice belongs in the list for `filter`. */
export function listMatches(filter: ListFilter, state: string): boolean {
  if (filter === "paid") return state === "payed";
  if (filter === "notpaid") return state === "notpayed" || state === "processing";
  return true;
}

function row(
  entry: HistoryEntry,
  teamId: string,
  lang: Lang,
  register: string | undefined,
): types.SectionBlock {
  const t = INVOICE_LIST_TEXT[lang];
  const amount = entry.amount ? `*${escapeMrkdwn(formatMoney(entry.amount, lang))}*` : t.amountNotGiven;
  return {
    type: "section",
    text: {
      type: "mrkdwn",
      text: truncate(
        `${inlineCode(truncate(entry.id, 100))}  ${stateText(entry.state, lang)}\n${amount} · ${t.created(slackDate(entry.createdAt, lang))}`,
        LIMITS.sectionText,
      ),
    },
    accessory: {
      type: "button",
      action_id: INVOICE_ACTIONS.open,
      text: { type: "plain_text", text: t.open },
      value: invoiceButton.write({
        t: teamId,
        id: entry.id,
        s: truncate(entry.state, 40),
        ...(register === undefined ? {} : { r: register }),
      }),
    },
  };
}

type InvoiceListInput = {
  teamId: string;
  /** The register listed, where the workspace has several (its page buttons carry it). */
  register?: string | undefined;
  filter: ListFilter;
  page: number;
  entries: readonly HistoryEntry[];
  hasMore: boolean;
  fetchedAt: Date;
  visibility: "private" | "channel";
  sharedBy?: string | undefined;
  /** The workspace's language (English by default). */
  lang?: Lang;
};

/**
 * /invoice list: the newest invoices of the cash register, ten a page, each with its state, amount
 * and currency, created time in the reader's timezone and an Open button (the full card, privately).
 * Private to the asker with Previous / Next and Share in channel; a shared copy has no page buttons.
 */
export function buildInvoiceList(input: InvoiceListInput): SlackMessage {
  const lang = input.lang ?? "en";
  const t = INVOICE_LIST_TEXT[lang];
  const filter = t.filters[input.filter];
  const shown = input.entries.slice(0, LIST_PAGE_SIZE);
  const blocks: types.KnownBlock[] = [
    { type: "header", text: { type: "plain_text", text: t.header(filter) } },
    ...(input.entries.length === 0
      ? [
          {
            type: "section" as const,
            text: { type: "mrkdwn" as const, text: input.page > 1 ? t.noMore : t.none(filter) },
          },
        ]
      : []),
    ...shown.map((entry) => row(entry, input.teamId, lang, input.register)),
    ...(input.visibility === "private" ? [pageActions(input, lang)] : []),
  ];
  const notes = [
    t.notes(input.page, slackDateFromEpoch(Math.floor(input.fetchedAt.getTime() / 1000), lang)),
    input.sharedBy ? t.sharedBy(`<@${input.sharedBy}>`) : input.visibility === "private" ? t.onlyYou : "",
  ].filter(Boolean);
  blocks.push({ type: "context", elements: [{ type: "mrkdwn", text: notes.join(" ") }] });
  const text = shown
    .map(
      (entry) =>
        `${entry.id} ${plainState(entry.state, lang)}${entry.amount ? ` ${formatMoney(entry.amount, lang)}` : ""}`,
    )
    .join("; ");
  return {
    response_type: input.visibility === "private" ? "ephemeral" : "in_channel",
    text: truncate(escapeMrkdwn(t.fallback(filter, text || undefined)), LIMITS.fallbackText),
    blocks,
  };
}

/** A private list's Previous and Next where there are such pages, and Share in channel. */
function pageActions(input: InvoiceListInput, lang: Lang): types.KnownBlock {
  const t = INVOICE_LIST_TEXT[lang];
  const value = (page: number) =>
    listPageButton.write({
      t: input.teamId,
      f: input.filter,
      p: page,
      ...(input.register === undefined ? {} : { r: input.register }),
    });
  const button = (actionId: string, text: string, page: number): types.Button => ({
    type: "button",
    action_id: actionId,
    text: { type: "plain_text", text },
    value: value(page),
  });
  const buttons: types.Button[] = [];
  if (input.page > 1) buttons.push(button(LIST_ACTIONS.previous, t.previous, input.page - 1));
  if (input.hasMore) buttons.push(button(LIST_ACTIONS.next, t.next, input.page + 1));
  buttons.push(shareButton(LIST_ACTIONS.share, value(input.page), t.share));
  return { type: "actions", block_id: "invoice_list_actions", elements: buttons };
}
