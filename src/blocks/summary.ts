import type { types } from "@slack/bolt";
import type { Lang } from "../i18n/lang.js";
import { countOf, SUMMARY_TEXT } from "../i18n/summary.js";
import type { Summary } from "../reports/summary.js";
import { formatAmount, slackDateFromEpoch } from "./format.js";
import { LIMITS } from "./limits.js";
import type { SlackMessage } from "./message.js";
import { safeText, truncate } from "./mrkdwn.js";

/** The paid share, one decimal, never a float artefact: 2 of 3 is 66.7 % (66,7 % in Russian). */
function share(paid: number, created: number, lang: Lang): string {
  if (created === 0) return "—";
  const tenths = Math.round((paid * 1000) / created);
  const mark = SUMMARY_TEXT[lang].decimalMark;
  return `${Math.floor(tenths / 10)}${tenths % 10 === 0 ? "" : `${mark}${tenths % 10}`} %`;
}

function field(label: string, value: string): types.MrkdwnElement {
  return { type: "mrkdwn", text: truncate(`*${label}*\n${value}`, LIMITS.fieldText) };
}

/**
 * `/invoice summary`: invoices created in the period (in the reader's timezone), how many were paid,
 * the paid total in roubles (exact), the paid share, test payments apart. Says where the figures
 * stop when the history was longer than Kassa reads.
 */
export function buildSummaryMessage(
  summary: Summary,
  fetchedAt: Date,
  /** asker: a reply only they see; channel: the daily digest posted in a feed channel. */
  audience: "asker" | "channel" = "asker",
  lang: Lang = "en",
): SlackMessage {
  const t = SUMMARY_TEXT[lang];
  const invoices = (count: number) => countOf(lang, count, t.invoices);
  const rub = formatAmount(summary.paidRub, "RUB", lang);
  const total = summary.unpriced > 0 ? t.withoutRub(rub, invoices(summary.unpriced)) : rub;
  const title = t.titles[summary.period];
  const blocks: types.KnownBlock[] = [
    { type: "header", text: { type: "plain_text", text: title } },
    {
      type: "section",
      fields: [
        field(t.created, invoices(summary.created)),
        field(t.paid, `${invoices(summary.paid)} (${share(summary.paid, summary.created, lang)})`),
        field(t.paidTotal, total),
        field(
          t.tests,
          summary.test.created === 0 ? t.testsNone : t.testsCounts(summary.test.created, summary.test.paid),
        ),
      ],
    },
  ];
  const span = t.span(
    summary.period === "yesterday",
    safeText(summary.zone, 60),
    slackDateFromEpoch(summary.from, lang),
    slackDateFromEpoch(Math.floor(fetchedAt.getTime() / 1000), lang),
  );
  const notes = [`${span} ${audience === "asker" ? t.onlyYou : t.digest}`];
  if (summary.partial) notes.unshift(t.partial);
  if (summary.unreadable > 0)
    notes.unshift(t.unreadable(countOf(lang, summary.unreadable, t.entries), summary.unreadable));
  blocks.push({ type: "context", elements: notes.map((text) => ({ type: "mrkdwn" as const, text })) });
  return {
    response_type: audience === "asker" ? "ephemeral" : "in_channel",
    text: t.fallback(title, summary.created, summary.paid, rub, summary.partial),
    blocks,
  };
}
