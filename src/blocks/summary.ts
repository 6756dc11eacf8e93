import type { types } from "@slack/bolt";
import type { Summary, SummaryPeriod } from "../reports/summary.js";
import { formatDecimal, slackDateFromEpoch } from "./format.js";
import { LIMITS } from "./limits.js";
import type { SlackMessage } from "./message.js";
import { safeText, truncate } from "./mrkdwn.js";

const TITLES: Record<SummaryPeriod, string> = {
  today: "Invoices today",
  yesterday: "Invoices yesterday",
  "7d": "Invoices in the last 7 days",
};

const plural = (count: number, one: string, many: string) =>
  `${count.toLocaleString("en-US")} ${count === 1 ? one : many}`;

/** The paid share, one decimal, never a float artefact: 2 of 3 is 66.7 %. */
function share(paid: number, created: number): string {
  if (created === 0) return "—";
  const tenths = Math.round((paid * 1000) / created);
  return `${Math.floor(tenths / 10)}${tenths % 10 === 0 ? "" : `.${tenths % 10}`} %`;
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
): SlackMessage {
  const total =
    summary.unpriced > 0
      ? `${formatDecimal(summary.paidRub)} RUB + ${plural(summary.unpriced, "invoice", "invoices")} without a rouble amount`
      : `${formatDecimal(summary.paidRub)} RUB`;
  const blocks: types.KnownBlock[] = [
    { type: "header", text: { type: "plain_text", text: TITLES[summary.period] } },
    {
      type: "section",
      fields: [
        field("Created", plural(summary.created, "invoice", "invoices")),
        field(
          "Paid",
          `${plural(summary.paid, "invoice", "invoices")} (${share(summary.paid, summary.created)})`,
        ),
        field("Paid total", total),
        field(
          "Test payments (not counted)",
          summary.test.created === 0 ? "none" : `${summary.test.created} created, ${summary.test.paid} paid`,
        ),
      ],
    },
  ];
  const notes = [
    `${summary.period === "yesterday" ? "Midnight to midnight" : "From midnight to now"} in ${safeText(summary.zone, 60)} (from ${slackDateFromEpoch(summary.from)} in your timezone), counted from the payment service's invoice history read ${slackDateFromEpoch(Math.floor(fetchedAt.getTime() / 1000))}. ${audience === "asker" ? "Only you can see this." : "Kassa's daily summary for this channel; `/invoice digest off` here stops it."}`,
  ];
  if (summary.partial)
    notes.unshift(
      ":warning: The period holds more invoices than Kassa reads at once (the newest 2,000): the figures cover those only.",
    );
  if (summary.unreadable > 0)
    notes.unshift(
      `:warning: ${plural(summary.unreadable, "entry", "entries")} of the history could not be read and ${summary.unreadable === 1 ? "is" : "are"} not counted.`,
    );
  blocks.push({ type: "context", elements: notes.map((text) => ({ type: "mrkdwn" as const, text })) });
  return {
    response_type: audience === "asker" ? "ephemeral" : "in_channel",
    text: `${TITLES[summary.period]}: ${summary.created} created, ${summary.paid} paid, ${formatDecimal(summary.paidRub)} RUB paid${summary.partial ? " (newest 2,000 invoices only)" : ""}`,
    blocks,
  };
}
