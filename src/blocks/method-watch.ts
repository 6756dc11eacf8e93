import type { types } from "@slack/bolt";
import { fallbackDate } from "../i18n/dates.js";
import type { Lang } from "../i18n/lang.js";
import { METHOD_WATCH_TEXT, type MethodWatchText } from "../i18n/method-watch.js";
import { methodAlertButton } from "./button-values.js";
import { formatDecimal } from "./format.js";
import { METHOD_ALERT_ACTIONS } from "./ids.js";
import { LIMITS } from "./limits.js";
import type { SlackMessage } from "./message.js";
import { escapeMrkdwn, inlineCode, safeText, truncate } from "./mrkdwn.js";

// The payment methods watch's messages, posted in the watch's channel: the alert (a method failing or
// silent, with its figures against the usual and three buttons), the line that closes it in its
// thread, a change made outside Kassa, the note on failing reads, and who snoozed an alert.

/** A method as a message names it: its name as the service gives it, and its code. */
export type MethodShown = { code: string; name: string };

/** What an alert says: the method, where, the trouble's figures, whom to mention. */
export type MethodAlertFacts = {
  method: MethodShown;
  /** The register's name (the buttons carry it) and its label where the workspace has several. */
  register: string;
  label: string | undefined;
  kind: "failure" | "silence";
  window: { invoices: number; failures: number; wrongAmounts: number };
  before: { invoices: number; failures: number };
  windowMinutes: number;
  /** Epoch ms of the last paid invoice, and the time now (the silence is the difference). */
  lastPaidAt: number | undefined;
  now: number;
  usualQuietMs: number | undefined;
  silenceLimitMs: number | undefined;
  silenceMode: "usual" | "fixed" | "off";
  /** Users (U…, W…) and user groups (S…). */
  mention: readonly string[];
  /** Where the time's fallback text is written (the workspace's zone). */
  zone: string;
};

/** "*Bitcoin* `BITCOIN`", or just the code when the name is the code. */
export function methodShown(method: MethodShown): string {
  const name = method.name.trim();
  return name && name !== method.code
    ? `*${escapeMrkdwn(name)}* ${inlineCode(method.code)}`
    : inlineCode(method.code);
}

const plain = (mrkdwn: string) => mrkdwn.replace(/[*`]/g, "").replace(/:[a-z_]+:\s*/g, "");

/** "2 h 10 min", "3 d 4 h", "25 min": minutes at least, two units at most. */
export function formatDuration(ms: number, lang: Lang): string {
  const t = METHOD_WATCH_TEXT[lang];
  const minutes = Math.max(1, Math.round(ms / 60_000));
  const days = Math.floor(minutes / 1440);
  const hours = Math.floor((minutes % 1440) / 60);
  const rest = minutes % 60;
  if (days >= 2) return hours ? `${days} ${t.days} ${hours} ${t.hours}` : `${days} ${t.days}`;
  const allHours = Math.floor(minutes / 60);
  if (allHours === 0) return `${rest} ${t.minutes}`;
  return rest ? `${allHours} ${t.hours} ${rest} ${t.minutes}` : `${allHours} ${t.hours}`;
}

/** A share as a whole percent ("64 %"); a share under 1 % but above none says "<1 %". */
export function formatShare(part: number, whole: number): string {
  if (whole === 0) return "0 %";
  const percent = (part * 100) / whole;
  return percent > 0 && percent < 1 ? "<1 %" : `${Math.round(percent)} %`;
}

/** A Slack date token (each reader's own zone), its fallback in the workspace's zone. */
export function methodTime(epochMs: number, zone: string, lang: Lang): string {
  const seconds = Math.floor(epochMs / 1000);
  return `<!date^${seconds}^{date_short_pretty} {time}|${fallbackDate(lang, seconds, zone)} ${zone}>`;
}

const mentionOf = (id: string) => (id.startsWith("S") ? `<!subteam^${id}>` : `<@${id}>`);

function figureLines(facts: MethodAlertFacts, t: MethodWatchText, lang: Lang): string[] {
  if (facts.kind === "failure") {
    const { window, before } = facts;
    return [
      t.failingFigures(
        window.failures,
        window.invoices,
        formatDuration(facts.windowMinutes * 60_000, lang),
        formatShare(window.failures, window.invoices),
      ),
      before.invoices > 0 ? t.usualShare(formatShare(before.failures, before.invoices)) : t.usualShareUnknown,
      ...(window.wrongAmounts > 0 ? [t.wrongAmounts(window.wrongAmounts)] : []),
    ];
  }
  const limit = facts.silenceLimitMs === undefined ? "—" : formatDuration(facts.silenceLimitMs, lang);
  if (facts.silenceMode === "usual" && facts.usualQuietMs !== undefined)
    return [t.silentUsual(formatDuration(facts.usualQuietMs, lang), limit)];
  return [t.silentFixed(limit)];
}

function alertHead(facts: MethodAlertFacts, t: MethodWatchText, lang: Lang): string {
  const method = methodShown(facts.method);
  const where = facts.label ? t.inRegister(`*${escapeMrkdwn(facts.label)}*`) : "";
  if (facts.kind === "failure") return `${t.failingHead(method)}${where}`;
  const quiet = facts.lastPaidAt === undefined ? "—" : formatDuration(facts.now - facts.lastPaidAt, lang);
  return `${t.silentHead(method, quiet)}${where}`;
}

function alertButtons(facts: MethodAlertFacts, t: MethodWatchText): types.KnownBlock {
  const value = methodAlertButton.write({ r: facts.register, c: facts.method.code });
  const button = (text: string, actionId: string, style?: "danger"): types.Button => ({
    type: "button",
    action_id: actionId,
    text: { type: "plain_text", text: truncate(text, LIMITS.buttonText) },
    value,
    ...(style ? { style } : {}),
  });
  return {
    type: "actions",
    elements: [
      button(t.switchOff, METHOD_ALERT_ACTIONS.switchOff, "danger"),
      button(t.snooze, METHOD_ALERT_ACTIONS.snooze),
      button(t.methods, METHOD_ALERT_ACTIONS.methods),
    ],
  };
}

/** The alert: one per episode, with Switch off at the service, Snooze 2 h and Methods. */
export function methodAlertMessage(facts: MethodAlertFacts, lang: Lang = "en"): SlackMessage {
  const t = METHOD_WATCH_TEXT[lang];
  const head = alertHead(facts, t, lang);
  const mentions = facts.mention.map(mentionOf).join(" ");
  const last =
    facts.lastPaidAt === undefined ? [] : [t.lastPayment(methodTime(facts.lastPaidAt, facts.zone, lang))];
  const body = [`*${head}*`, ...figureLines(facts, t, lang), ...last].join("\n");
  return {
    text: safeText(
      `${t.alertFallback(plain(methodShown(facts.method)))} ${plain(head)}`,
      LIMITS.fallbackText,
    ),
    blocks: [
      {
        type: "section",
        text: {
          type: "mrkdwn",
          text: truncate(mentions ? `${mentions}\n${body}` : body, LIMITS.sectionText),
        },
      },
      { type: "context", elements: [{ type: "mrkdwn", text: t.episodeNote }] },
      alertButtons(facts, t),
    ],
  };
}

function section(mrkdwn: string): SlackMessage {
  return {
    text: safeText(plain(mrkdwn), LIMITS.fallbackText),
    blocks: [{ type: "section", text: { type: "mrkdwn", text: truncate(mrkdwn, LIMITS.sectionText) } }],
  };
}

/** The line in an alert's thread that ends its episode: calm again, or switched off at the service. */
export function methodClosedLine(
  closed: {
    method: MethodShown;
    how: "calm" | "off";
    kind: "failure" | "silence";
    sharePercent: number;
    calmMs: number;
  },
  lang: Lang = "en",
): SlackMessage {
  const t = METHOD_WATCH_TEXT[lang];
  const method = methodShown(closed.method);
  if (closed.how === "off") return section(t.closedOff(method));
  const calm = formatDuration(closed.calmMs, lang);
  if (closed.kind === "silence") return section(t.calmSilence(method, calm));
  return section(t.calmFailure(method, `${closed.sharePercent / 2} %`, calm));
}

/** A method's state as the outside news shows it. */
export type MethodState = { on: boolean; surcharge: string };

/** Changes made outside Kassa, one message per check: "BITCOIN surcharge 0 % → 10 %, made outside Kassa". */
export function methodOutsideMessage(
  changes: readonly { method: MethodShown; before: MethodState; after: MethodState }[],
  label: string | undefined,
  lang: Lang = "en",
): SlackMessage {
  const t = METHOD_WATCH_TEXT[lang];
  const lines = changes.flatMap(({ method, before, after }) => {
    const shown = methodShown(method);
    const said: string[] = [];
    if (before.on !== after.on) said.push(after.on ? t.outsideOn(shown) : t.outsideOff(shown));
    if (before.surcharge !== after.surcharge)
      said.push(
        t.outsideSurcharge(
          shown,
          `${formatDecimal(before.surcharge, lang)} %`,
          `${formatDecimal(after.surcharge, lang)} %`,
        ),
      );
    return said.map((line) => `• ${line}`);
  });
  const head = `*${t.outsideHead}*${label ? t.inRegister(`*${escapeMrkdwn(label)}*`) : ""}`;
  return {
    text: safeText(plain([head, ...lines].join("\n")), LIMITS.fallbackText),
    blocks: [
      {
        type: "section",
        text: { type: "mrkdwn", text: truncate([head, ...lines].join("\n"), LIMITS.sectionText) },
      },
      { type: "context", elements: [{ type: "mrkdwn", text: t.outsideNote }] },
    ],
  };
}

/** Said after an hour of failing reads, then at most once an hour. */
export function methodFailingNote(label: string | undefined, lang: Lang = "en"): SlackMessage {
  const t = METHOD_WATCH_TEXT[lang];
  return section(t.failingReads(label ? t.inRegister(`*${escapeMrkdwn(label)}*`) : ""));
}

/** Who snoozed an alert, until when (in the alert's thread). */
export function methodSnoozedLine(
  snooze: { user: string; method: MethodShown; until: number; zone: string },
  lang: Lang = "en",
): SlackMessage {
  const t = METHOD_WATCH_TEXT[lang];
  return section(
    t.snoozed(`<@${snooze.user}>`, methodShown(snooze.method), methodTime(snooze.until, snooze.zone, lang)),
  );
}

/** A snooze pressed while the watch is off. */
export function methodSnoozeWatchOff(lang: Lang = "en"): SlackMessage {
  const text = METHOD_WATCH_TEXT[lang].snoozeWatchOff;
  return {
    response_type: "ephemeral",
    replace_original: false,
    text,
    blocks: [{ type: "section", text: { type: "mrkdwn", text } }],
  };
}
