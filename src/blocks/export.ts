import type { types } from "@slack/bolt";
import { EXPORT_TEXT } from "../i18n/export.js";
import type { Lang } from "../i18n/lang.js";
import { counted } from "../i18n/plural.js";
import { REFUND_TEXT } from "../i18n/refunds.js";
import { dayList } from "../i18n/report.js";
import type { RefundTally } from "../reports/refunds.js";
import { cancelReadButton } from "./button-values.js";
import { formatAmount } from "./format.js";
import { EXPORT_ACTIONS } from "./ids.js";
import { LIMITS } from "./limits.js";
import type { SlackMessage } from "./message.js";
import { truncate } from "./mrkdwn.js";

const section = (text: string): types.SectionBlock => ({
  type: "section",
  text: { type: "mrkdwn", text: truncate(text, LIMITS.sectionText) },
});

/** A one-section message, its text the fallback too. */
function plain(text: string, fallback = text, ephemeral = true): SlackMessage {
  return {
    ...(ephemeral ? { response_type: "ephemeral" as const } : {}),
    text: truncate(fallback, LIMITS.fallbackText),
    blocks: [section(text)],
  };
}

/** The asker's answer in the channel: under way, the file comes by direct message. */
export const exportUnderWayMessage = (title: string, format: string, lang: Lang) =>
  plain(EXPORT_TEXT[lang].underWay(title, format), EXPORT_TEXT[lang].underWayFallback);

export const exportNotAllowedMessage = (lang: Lang) => plain(EXPORT_TEXT[lang].notAllowed);

export const exportNeedsScopeMessage = (lang: Lang) => plain(EXPORT_TEXT[lang].needsScope);

/** Another export runs in the workspace: who asked and since when (a Slack date token). */
export const exportBusyMessage = (userId: string, since: string, lang: Lang) =>
  plain(EXPORT_TEXT[lang].busy(`<@${userId}>`, since), EXPORT_TEXT[lang].busyFallback);

/**
 * The progress message in the asker's messages with Kassa: what is exported, pages and invoices read
 * so far, and Cancel. Edited in place as pages come, then replaced by how it ended.
 */
export function exportProgressMessage(input: {
  teamId: string;
  jobId: string;
  /** Who asked: an admin's Cancel says so to them. */
  userId: string;
  title: string;
  format: string;
  pages: number;
  invoices: number;
  writing?: boolean;
  lang: Lang;
}): SlackMessage {
  const t = EXPORT_TEXT[input.lang];
  const lang = input.lang;
  const progress = input.writing
    ? t.writing
    : t.progress(counted(lang, input.pages, t.pages), counted(lang, input.invoices, t.invoices));
  return {
    text: truncate(t.reading(input.title, input.format), LIMITS.fallbackText),
    blocks: [
      section(`${t.reading(input.title, input.format)}\n${progress}`),
      {
        type: "actions",
        elements: [
          {
            type: "button",
            action_id: EXPORT_ACTIONS.cancel,
            style: "danger",
            text: { type: "plain_text", text: t.cancel },
            value: cancelReadButton.write({ t: input.teamId, j: input.jobId, u: input.userId }),
          },
        ],
      },
    ],
  };
}

/** How an export ended, in place of its progress message (no buttons left). */
export function exportEndMessage(
  end:
    | { kind: "done"; title: string; format: string }
    | { kind: "cancelled"; by: string }
    | { kind: "failed"; where: "service" | "kassa" | "slack" }
    | { kind: "needs-scope" }
    | { kind: "stopped" }
    /** The replica making it died: told by another one. */
    | { kind: "lapsed"; title: string; format: string }
    | { kind: "too-long"; limit: number },
  lang: Lang,
): SlackMessage {
  const t = EXPORT_TEXT[lang];
  switch (end.kind) {
    case "done":
      return plain(t.done(end.title, end.format), undefined, false);
    case "cancelled":
      return plain(t.cancelled(`<@${end.by}>`), t.cancelledFallback, false);
    case "failed":
      return plain(t.failed(end.where), undefined, false);
    case "needs-scope":
      return plain(t.needsScope, undefined, false);
    case "stopped":
      return plain(t.stopped, undefined, false);
    case "lapsed":
      return plain(t.lapsed(end.title, end.format), t.lapsedFallback, false);
    case "too-long":
      return plain(t.tooLong(counted(lang, end.limit, t.invoices)), undefined, false);
  }
}

/** The file's line in the asker's messages, then what the file lacks, each said. */
export function fileComment(
  lang: Lang,
  file: {
    title: string;
    invoices: number;
    paid: string;
    zone: string;
    /** What the read could not give: entries unreadable, kept days left out. */
    read: { unreadable: number; daysLeftOut: readonly string[] };
    /** Refunds paid out in the period (issue 52), on a line of their own; `unread`: not read just now. */
    refunds?: RefundTally | "unread" | undefined;
  },
): string {
  const t = EXPORT_TEXT[lang];
  const lines = [t.fileLine(file.title, counted(lang, file.invoices, t.invoices), file.paid, file.zone)];
  if (file.refunds === "unread") lines.push(t.refundsUnread);
  else if (file.refunds && file.refunds.count > 0) {
    const totals = file.refunds.totals.map((one) => formatAmount(one.amount, one.currency, lang)).join(", ");
    lines.push(t.refundsLine(REFUND_TEXT[lang].reportLine(file.refunds.count, totals)));
  }
  if (file.read.daysLeftOut.length > 0) lines.push(t.daysNotInFile(dayList(file.read.daysLeftOut)));
  if (file.read.unreadable > 0) lines.push(t.notInFile(counted(lang, file.read.unreadable, t.entries)));
  return lines.join("\n");
}
