import type { types } from "@slack/bolt";
import type { Lang } from "../i18n/lang.js";
import { METHOD_WATCH_FORM_TEXT } from "../i18n/method-watch-form.js";
import type { WatchField, WatchRules } from "../method-watch/form-input.js";
import type { SilenceRule } from "../method-watch/state.js";
import { modal, radioInput, selectOption, textInput, usersInput } from "./form.js";
import { METHOD_WATCH_VIEW } from "./ids.js";
import { LIMITS } from "./limits.js";
import type { SlackMessage } from "./message.js";
import { escapeMrkdwn, safeText, truncate } from "./mrkdwn.js";
import { ephemeral } from "./replies.js";

export { METHOD_WATCH_VIEW } from "./ids.js";

/** The form's input blocks, by field (the keys of view.state.values and of field errors). */
export const METHOD_WATCH_FIELDS = {
  channel: "mwatch_channel",
  mention: "mwatch_mention",
  sharePercent: "mwatch_share",
  minInvoices: "mwatch_min",
  windowMinutes: "mwatch_window",
  silence: "mwatch_silence",
  factor: "mwatch_factor",
  floorHours: "mwatch_floor",
  hours: "mwatch_hours",
} as const satisfies Record<WatchField, string>;

/** What the form's private_metadata carries: workspace, register, and the channel it was asked from. */
export type MethodWatchOrigin = { t: string; r: string; c: string };

/** People mentioned in alerts: at most 10 (the settings' own limit). */
const MENTION_MAX = 10;
/** The fixed silence rule's hours shown while another rule is chosen (a day). */
const FIXED_HOURS_SHOWN = 24;

/** What the form shows: the watch's rules when it is on, else the defaults (and no channel yet). */
export type ShownRules = Omit<WatchRules, "channel"> & {
  channel: string | undefined;
  /** The usual-gap rule's figures shown while another silence rule is chosen (the defaults). */
  usualShown: Extract<SilenceRule, { mode: "usual" }>;
};

/** The register in a sentence: named where the workspace has several, else nothing. */
export function ofRegister(register: string, several: boolean, lang: Lang): string {
  return several ? METHOD_WATCH_FORM_TEXT[lang].ofRegister(`*${escapeMrkdwn(register)}*`) : "";
}

/**
 * The watch's form of one register: its settings when it is on, else the defaults (the alert
 * channel: the one the command was run in, where it is a channel).
 */
export function methodWatchModal(options: {
  register: string;
  shown: ShownRules;
  askedIn: string;
  origin: MethodWatchOrigin;
  lang: Lang;
}): types.ModalView {
  const t = METHOD_WATCH_FORM_TEXT[options.lang];
  const rules = options.shown;
  const { failure, silence } = rules;
  const usual = silence.mode === "usual" ? silence : rules.usualShown;
  const hours = silence.mode === "fixed" ? silence.hours : FIXED_HOURS_SHOWN;
  const channel = rules.channel ?? (/^[CG][A-Z0-9]+$/.test(options.askedIn) ? options.askedIn : undefined);
  const figure = (field: WatchField, label: string, hint: string, value: number, optional = false) =>
    textInput({
      block: METHOD_WATCH_FIELDS[field],
      label,
      hint,
      maxLength: 8,
      initial: String(value),
      optional,
    });
  const section = (text: string): types.SectionBlock => ({ type: "section", text: { type: "mrkdwn", text } });
  const blocks: types.KnownBlock[] = [
    section(t.intro(`*${escapeMrkdwn(options.register)}*`)),
    {
      type: "input",
      block_id: METHOD_WATCH_FIELDS.channel,
      label: { type: "plain_text", text: t.channel },
      hint: { type: "plain_text", text: t.channelHint },
      element: {
        type: "conversations_select",
        action_id: "value",
        filter: { include: ["public", "private"], exclude_bot_users: true },
        ...(channel ? { initial_conversation: channel } : {}),
      },
    },
    usersInput({
      block: METHOD_WATCH_FIELDS.mention,
      label: t.mention,
      hint: t.mentionHint,
      optional: true,
      max: MENTION_MAX,
      initial: rules.mention.filter((id) => /^[UW]/.test(id)),
    }),
    section(t.failureHeader),
    figure("sharePercent", t.sharePercent, t.sharePercentHint, failure.sharePercent),
    figure("minInvoices", t.minInvoices, t.minInvoicesHint, failure.minInvoices),
    figure("windowMinutes", t.windowMinutes, t.windowMinutesHint, failure.windowMinutes),
    section(t.silenceHeader),
    radioInput({
      block: METHOD_WATCH_FIELDS.silence,
      label: t.silence,
      options: (["usual", "fixed", "off"] as const).map((mode) => selectOption(t.silenceModes[mode], mode)),
      initial: silence.mode,
    }),
    figure("factor", t.factor, t.factorHint, usual.factor, true),
    figure("floorHours", t.floorHours, t.floorHoursHint, usual.floorHours, true),
    figure("hours", t.hours, t.hoursHint, hours, true),
    { type: "context", elements: [{ type: "mrkdwn", text: t.footer }] },
  ];
  return modal({
    callbackId: METHOD_WATCH_VIEW,
    title: t.title,
    submit: t.save,
    close: t.cancel,
    privateMetadata: JSON.stringify(options.origin),
    blocks,
  });
}

/** Someone to mention: a person (`<@U…>`) or a user group (`<!subteam^S…>`). */
export function mentionOf(id: string): string {
  return id.startsWith("S") ? `<!subteam^${id}>` : `<@${id}>`;
}

function silenceLine(silence: SilenceRule, lang: Lang): string {
  const t = METHOD_WATCH_FORM_TEXT[lang].silenceRule;
  if (silence.mode === "usual") return t.usual(silence.factor, silence.floorHours);
  return silence.mode === "fixed" ? t.fixed(silence.hours) : t.off;
}

/** What the watch looks for, one line each: failures, silence, changes made outside Kassa. */
export function watchRuleLines(rules: WatchRules, lang: Lang): string[] {
  const t = METHOD_WATCH_FORM_TEXT[lang];
  const { sharePercent, minInvoices, windowMinutes } = rules.failure;
  return [
    `• ${t.failureRule(sharePercent, minInvoices, windowMinutes)}`,
    `• ${silenceLine(rules.silence, lang)}`,
    `• ${t.outsideRule}`,
  ];
}

/**
 * Posted in the alert channel once the form is saved: who turned the watch on (or changed it), what
 * it watches, who is mentioned, and when the first check comes.
 */
export function watchAnnouncement(options: {
  by: string;
  register: string;
  several: boolean;
  rules: WatchRules;
  kind: "on" | "changed";
  checkMinutes: number;
  lang: Lang;
}): SlackMessage {
  const { rules, lang } = options;
  const t = METHOD_WATCH_FORM_TEXT[lang];
  const register = ofRegister(options.register, options.several, lang);
  const by = `<@${options.by}>`;
  const head = options.kind === "on" ? t.announceOn(by, register) : t.announceChanged(by, register);
  const here =
    rules.mention.length === 0 ? t.alertsHere : t.alertsHereMention(rules.mention.map(mentionOf).join(", "));
  const lines = [`${head} ${here}`, ...watchRuleLines(rules, lang), t.firstCheck(options.checkMinutes)];
  return {
    text: safeText(t.announceFallback, LIMITS.fallbackText),
    blocks: [
      { type: "section", text: { type: "mrkdwn", text: truncate(lines.join("\n"), LIMITS.sectionText) } },
    ],
  };
}

/** The admin's private note once saved, with a warning when Kassa could not post in the channel. */
export function watchSavedNote(options: {
  register: string;
  several: boolean;
  channel: string;
  notInChannel: boolean;
  lang: Lang;
}): SlackMessage {
  const t = METHOD_WATCH_FORM_TEXT[options.lang];
  const channel = `<#${options.channel}>`;
  const lines = [t.saved(ofRegister(options.register, options.several, options.lang), channel)];
  if (options.notInChannel) lines.push(t.notInChannel(channel));
  return ephemeral(lines.join("\n"), t.savedFallback);
}

/** Posted in the alert channel when an admin turns the watch off. */
export function watchOffAnnouncement(
  by: string,
  register: string,
  several: boolean,
  lang: Lang,
): SlackMessage {
  const t = METHOD_WATCH_FORM_TEXT[lang];
  const text = t.offAnnounce(`<@${by}>`, ofRegister(register, several, lang));
  return {
    text: t.offAnnounceFallback,
    blocks: [{ type: "section", text: { type: "mrkdwn", text } }],
  };
}

/** `/paymethods watch off`'s reply to the admin: off now, or it was not on. */
export function watchOffReply(register: string, several: boolean, wasOn: boolean, lang: Lang): SlackMessage {
  const t = METHOD_WATCH_FORM_TEXT[lang];
  const named = ofRegister(register, several, lang);
  return wasOn ? ephemeral(t.off(named), t.offFallback) : ephemeral(t.wasOff(named), t.wasOffFallback);
}
