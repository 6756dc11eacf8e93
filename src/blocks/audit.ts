import type { types } from "@slack/bolt";
import type { AuditEntry, AuditHead, ListedEntry, VerifyResult } from "../audit/index.js";
import type { AuditPeriod } from "../audit/periods.js";
import { AUDIT_TEXT, type AuditText } from "../i18n/audit.js";
import type { Lang } from "../i18n/lang.js";
import { slackDateFromEpoch } from "./format.js";
import { AUDIT_BUTTONS } from "./ids.js";
import { LIMITS } from "./limits.js";
import type { SlackMessage } from "./message.js";
import { escapeMrkdwn, truncate } from "./mrkdwn.js";
import { ephemeral } from "./replies.js";

/** How many entries one reply shows (each a line; a section holds 3,000 characters). */
export const AUDIT_PAGE = 15;

export type { AuditPeriod } from "../audit/periods.js";

/** Who did it, as a reader sees it: a person by mention (Slack shows their name), else in words. */
function actorText(actor: string, t: AuditText): string {
  if (/^[UW][A-Z0-9]+$/.test(actor)) return `<@${actor}>`;
  if (actor === "cli") return t.actor.cli;
  if (actor === "kassa") return t.actor.kassa;
  return t.actor.workflow;
}

/** One entry in words: when, who, what, on what (and why it was refused or failed). */
export function auditLine(entry: AuditEntry, lang: Lang = "en"): string {
  const t = AUDIT_TEXT[lang];
  const when = slackDateFromEpoch(Math.floor(Date.parse(entry.time) / 1000), lang);
  const object = escapeMrkdwn(truncate(entry.object, 120));
  const act =
    entry.outcome === "refused"
      ? t.refused(object, escapeMrkdwn(entry.reason ?? ""))
      : `${t.acts[entry.action] ?? entry.action} · ${object}${entry.outcome === "failed" ? ` (${t.failed(escapeMrkdwn(entry.reason ?? ""))})` : ""}`;
  const register = entry.register ? ` · ${escapeMrkdwn(entry.register)}` : "";
  return `${when} · ${actorText(entry.actor, t)} ${act}${register}`;
}

/** A period in words: its name, or a month as the reader's language writes it ("November 2026"). */
export function auditPeriodLabel(period: AuditPeriod, lang: Lang = "en"): string {
  const t = AUDIT_TEXT[lang];
  if (period === "all" || period === "today" || period === "7d" || period === "30d") return t.periods[period];
  const at = Date.parse(`${period}-01T00:00:00.000Z`);
  const locale = lang === "ru" ? "ru-RU" : "en-GB";
  return new Intl.DateTimeFormat(locale, { month: "long", year: "numeric", timeZone: "UTC" }).format(at);
}

/**
 * `/invoice audit`: a page of the period's entries, newest first, privately to the admin; `person`
 * when narrowed to one; `older`, the Older button's value, when older entries match too.
 */
export function auditListMessage(
  entries: readonly ListedEntry[],
  period: AuditPeriod,
  lang: Lang = "en",
  page: { person?: string | undefined; older?: string | undefined } = {},
): SlackMessage {
  const t = AUDIT_TEXT[lang];
  const lines = entries.flatMap((listed) => (listed.entry ? [auditLine(listed.entry, lang)] : []));
  const body = lines.length > 0 ? lines.join("\n") : page.older ? t.noneHere : t.none;
  const label = auditPeriodLabel(period, lang) + (page.person ? ` · ${t.byPerson(`<@${page.person}>`)}` : "");
  const blocks: types.KnownBlock[] = [
    { type: "header", text: { type: "plain_text", text: t.title } },
    { type: "section", text: { type: "mrkdwn", text: truncate(body, LIMITS.sectionText) } },
    { type: "context", elements: [{ type: "mrkdwn", text: t.context(lines.length, label) }] },
  ];
  if (page.older)
    blocks.push({
      type: "actions",
      elements: [
        {
          type: "button",
          action_id: AUDIT_BUTTONS.older,
          text: { type: "plain_text", text: t.older },
          value: page.older,
        },
      ],
    });
  return { response_type: "ephemeral", text: `${t.title}: ${lines.length}`, blocks };
}

/** `/invoice audit verify`: the chain holds (how many, from when to when, its head), or where it breaks. */
export function auditVerifyMessage(result: VerifyResult, lang: Lang = "en"): SlackMessage {
  const t = AUDIT_TEXT[lang];
  if (!result.ok) {
    const text = t.broken(result.seq, escapeMrkdwn(result.reason));
    return ephemeral(text, text);
  }
  if (!result.first || !result.last || !result.head) return ephemeral(t.empty, t.empty);
  const at = (time: string) => slackDateFromEpoch(Math.floor(Date.parse(time) / 1000), lang);
  const text = t.holds(
    result.count,
    at(result.first.time),
    at(result.last.time),
    result.head.hash.slice(0, 12),
  );
  return ephemeral(text, text);
}

/** The daily post in the workspace's audit channel: the chain's head (its number, time and hash). */
export function auditHeadMessage(head: AuditHead, lang: Lang = "en"): SlackMessage {
  const t = AUDIT_TEXT[lang];
  const at = slackDateFromEpoch(Math.floor(head.at / 1000), lang);
  const text = t.headText(head.seq, at, head.hash);
  return {
    text: `${t.headTitle}: ${head.seq} · \`${head.hash}\``,
    blocks: [
      { type: "header", text: { type: "plain_text", text: t.headTitle } },
      { type: "section", text: { type: "mrkdwn", text } },
      { type: "context", elements: [{ type: "mrkdwn", text: t.headHint }] },
    ],
  };
}
