import type { types } from "@slack/bolt";
import type { Lang } from "../i18n/lang.js";
import { UNPAID_TEXT } from "../i18n/unpaid.js";
import type { Total, UnpaidGroup, UnpaidLink, UnpaidPage, UnpaidTally } from "../links/unpaid.js";
import { linkButton, unpaidPageButton } from "./button-values.js";
import { formatAmount, slackDateFromEpoch } from "./format.js";
import { LINK_ACTIONS, UNPAID_ACTIONS } from "./ids.js";
import { plainState } from "./invoice-state.js";
import { LIMITS } from "./limits.js";
import type { SlackMessage } from "./message.js";
import { escapeMrkdwn, inlineCode, truncate } from "./mrkdwn.js";

// `/invoice unpaid` (issue 51): the links Kassa made that still wait for payment, grouped by customer
// with each one's totals, a Re-issue on each link, Previous / Next; and the digests' line. A page
// holds at most UNPAID_PAGE_SIZE links and as many customers' headings: well within 50 blocks.

export const UNPAID_PAGE_SIZE = 10;

export type UnpaidInput = {
  teamId: string;
  /** The register's name where the workspace has several (its buttons carry it). */
  register?: string | undefined;
  /** The period's name (today, 7d, 30d, 2026-10, ...). */
  period: string;
  customer?: string | undefined;
  result: UnpaidPage;
  now: number;
  lang: Lang;
};

/** "1 500 RUB + 20 USD". */
export function totalsText(totals: readonly Total[], lang: Lang): string {
  return totals.map((total) => formatAmount(total.value, total.currency, lang)).join(" + ");
}

function whenText(link: UnpaidLink, now: number, lang: Lang): string {
  const t = UNPAID_TEXT[lang];
  const at = slackDateFromEpoch(Math.floor(link.expiresAt / 1000), lang);
  const when =
    link.known === "open" && now < link.expiresAt
      ? t.open(t.duration(link.expiresAt - now), at)
      : link.known === "closed" && link.state === undefined
        ? t.closed(at)
        : t.expired(t.duration(now - link.expiresAt), at);
  const state =
    link.state && link.state !== "notpayed"
      ? ` · ${t.state(escapeMrkdwn(plainState(link.state, lang)))}`
      : "";
  return `${when}${state}${link.unchecked ? `\n${t.unchecked}` : ""}`;
}

function row(link: UnpaidLink, input: UnpaidInput): types.SectionBlock {
  const { record } = link;
  const t = UNPAID_TEXT[input.lang];
  const amount = `*${escapeMrkdwn(formatAmount(record.amount, record.currency, input.lang))}*`;
  const about = record.description ? ` · ${escapeMrkdwn(truncate(record.description, 120))}` : "";
  const by = record.creator === "workflow" ? "" : ` · <@${record.creator}>`;
  return {
    type: "section",
    text: {
      type: "mrkdwn",
      text: truncate(
        `${inlineCode(truncate(link.invoiceId, 100))}  ${amount}${about}${by}\n${whenText(link, input.now, input.lang)}`,
        LIMITS.sectionText,
      ),
    },
    accessory: {
      type: "button",
      action_id: LINK_ACTIONS.reissue,
      text: { type: "plain_text", text: t.reissue },
      value: linkButton.write({
        t: input.teamId,
        k: record.ref,
        ...(input.register === undefined ? {} : { r: input.register }),
      }),
    },
  };
}

function heading(group: UnpaidGroup, lang: Lang): types.SectionBlock {
  const t = UNPAID_TEXT[lang];
  const name = group.customer === undefined ? t.noCustomer : escapeMrkdwn(group.customer);
  const text = t.group(name, group.count, escapeMrkdwn(totalsText(group.totals, lang)));
  return {
    type: "section",
    text: {
      type: "mrkdwn",
      text: truncate(`${text}${group.continued ? t.continued : ""}`, LIMITS.sectionText),
    },
  };
}

/** The page: its header, each customer's heading and links, the page buttons and a note. Private. */
export function buildUnpaidPage(input: UnpaidInput): SlackMessage {
  const { lang, result } = input;
  const t = UNPAID_TEXT[lang];
  const title = truncate(t.header(t.period(input.period)), LIMITS.headerText);
  const blocks: types.KnownBlock[] = [{ type: "header", text: { type: "plain_text", text: title } }];
  if (input.customer)
    blocks.push({
      type: "context",
      elements: [{ type: "mrkdwn", text: t.customerFilter(escapeMrkdwn(truncate(input.customer, 80))) }],
    });
  if (result.groups.length === 0) {
    const text = result.page > 1 ? t.noMore : `${t.none}\n${t.noneNext}`;
    blocks.push({ type: "section", text: { type: "mrkdwn", text } });
  }
  for (const group of result.groups) {
    blocks.push(heading(group, lang), ...group.rows.map((link) => row(link, input)));
    blocks.push({ type: "divider" });
  }
  const buttons = pageButtons(input);
  if (buttons.length > 0) blocks.push({ type: "actions", block_id: "unpaid_pages", elements: buttons });
  blocks.push({
    type: "context",
    elements: [{ type: "mrkdwn", text: `${t.notes(result.page, result.count)} ${t.onlyYou}` }],
  });
  return {
    response_type: "ephemeral",
    text: truncate(t.fallback(result.count), LIMITS.fallbackText),
    blocks: blocks.slice(0, LIMITS.blocksPerMessage),
  };
}

function pageButtons(input: UnpaidInput): types.Button[] {
  const t = UNPAID_TEXT[input.lang];
  const button = (actionId: string, text: string, page: number): types.Button => ({
    type: "button",
    action_id: actionId,
    text: { type: "plain_text", text },
    value: unpaidPageButton.write({
      t: input.teamId,
      p: page,
      d: input.period,
      ...(input.customer ? { c: truncate(input.customer, 80) } : {}),
      ...(input.register === undefined ? {} : { r: input.register }),
    }),
  });
  const buttons: types.Button[] = [];
  if (input.result.page > 1) buttons.push(button(UNPAID_ACTIONS.previous, t.previous, input.result.page - 1));
  if (input.result.hasMore) buttons.push(button(UNPAID_ACTIONS.next, t.next, input.result.page + 1));
  return buttons;
}

/** The digests' line, or nothing when no link Kassa made waits for payment. */
export function unpaidDigestBlock(tally: UnpaidTally, lang: Lang): types.ContextBlock | undefined {
  if (tally.open + tally.expired === 0) return undefined;
  const totals = escapeMrkdwn(totalsText(tally.openTotals, lang));
  return {
    type: "context",
    elements: [{ type: "mrkdwn", text: UNPAID_TEXT[lang].digestLine(tally.open, totals, tally.expired) }],
  };
}
