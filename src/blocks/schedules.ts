import type { types } from "@slack/bolt";
import { fallbackDate } from "../i18n/dates.js";
import type { Lang } from "../i18n/lang.js";
import { SCHEDULES_TEXT } from "../i18n/schedules.js";
import type { Schedule } from "../link-schedules/model.js";
import { scheduleButton } from "./button-values.js";
import { formatAmount } from "./format.js";
import { SCHEDULE_ACTIONS } from "./ids.js";
import { LIMITS } from "./limits.js";
import type { SlackMessage } from "./message.js";
import { escapeMrkdwn, safeText, truncate } from "./mrkdwn.js";

// `/invoice recurring` and what a schedule's words are everywhere else: its amount, its rule and
// its next run (a Slack date token, with the workspace's words as its fallback).

/** Schedules shown in one message: a section and a row of buttons each, within Block Kit's 50 blocks. */
export const SHOWN_SCHEDULES = 20;

/** "*1 500 RUB* for Acme, Rent": the amount in bold, then who it is for and what for. */
export function scheduleWhat(schedule: Pick<Schedule, "order">, lang: Lang): string {
  const { order } = schedule;
  const amount = `*${formatAmount(order.amount, order.currency, lang)}*`;
  const words = [order.customer, order.description].filter((word): word is string => word !== undefined);
  return words.length === 0 ? amount : `${amount} (${escapeMrkdwn(truncate(words.join(", "), 120))})`;
}

/** "every month on the 5th at 10:00", with its end ("until …", "3 runs left") where it has one. */
export function scheduleRule(
  schedule: Pick<Schedule, "rule" | "until" | "times" | "runs">,
  lang: Lang,
): string {
  const t = SCHEDULES_TEXT[lang];
  const parts = [t.rule(schedule.rule.every, schedule.rule.day, schedule.rule.at)];
  if (schedule.until) parts.push(t.until(schedule.until));
  if (schedule.times !== undefined) parts.push(t.runsLeft(Math.max(0, schedule.times - schedule.runs)));
  return parts.join(", ");
}

/** A moment as Slack shows it to each reader, with the workspace's words in `zone` as fallback. */
export function scheduleDate(at: number, zone: string, lang: Lang): string {
  const seconds = Math.floor(at / 1000);
  return `<!date^${seconds}^{date_short_pretty} {time}|${fallbackDate(lang, seconds, zone)} ${zone}>`;
}

/** A schedule's line in the list: what, when, whose and where, and how it stands. */
function scheduleLine(schedule: Schedule, lang: Lang): string {
  const t = SCHEDULES_TEXT[lang];
  const status =
    schedule.status === "ended"
      ? t.ended
      : schedule.status === "paused"
        ? schedule.pausedBy === "kassa"
          ? t.pausedByKassa
          : t.paused
        : t.next(scheduleDate(schedule.nextAt, schedule.zone, lang));
  const rule = `${scheduleRule(schedule, lang)} (${schedule.zone})`;
  return `${scheduleWhat(schedule, lang)} · ${rule}\n${status} · ${t.owner(`<@${schedule.owner}>`, `<#${schedule.channel}>`)}`;
}

/** Pause or Resume, and Delete (with a confirmation), for one who may change it. */
function scheduleButtons(schedule: Schedule, teamId: string, register: string | undefined, lang: Lang) {
  const t = SCHEDULES_TEXT[lang];
  const value = scheduleButton.write({ t: teamId, s: schedule.id, ...(register ? { r: register } : {}) });
  const button = (actionId: string, text: string): types.Button => ({
    type: "button",
    action_id: actionId,
    text: { type: "plain_text", text },
    value,
  });
  const buttons: types.Button[] = [];
  if (schedule.status === "active") buttons.push(button(SCHEDULE_ACTIONS.pause, t.pause));
  if (schedule.status === "paused") buttons.push(button(SCHEDULE_ACTIONS.resume, t.resume));
  buttons.push({
    ...button(SCHEDULE_ACTIONS.remove, t.remove),
    style: "danger",
    confirm: {
      title: { type: "plain_text", text: t.confirmTitle },
      text: { type: "plain_text", text: t.confirmText },
      confirm: { type: "plain_text", text: t.confirmYes },
      deny: { type: "plain_text", text: t.confirmNo },
      style: "danger",
    },
  });
  return { type: "actions" as const, block_id: `schedule_${schedule.id}`, elements: buttons };
}

/**
 * `/invoice recurring`: the register's schedules, each with its buttons where the reader may change
 * it (`mayChange`: its owner, or an admin).
 */
export function scheduleListMessage(given: {
  schedules: Schedule[];
  teamId: string;
  register: string | undefined;
  lang: Lang;
  mayChange: (schedule: Schedule) => boolean;
}): SlackMessage {
  const { schedules, lang } = given;
  const t = SCHEDULES_TEXT[lang];
  if (schedules.length === 0) return { response_type: "ephemeral", text: t.none, blocks: [section(t.none)] };
  const blocks: types.KnownBlock[] = [{ type: "header", text: { type: "plain_text", text: t.title } }];
  for (const schedule of schedules.slice(0, SHOWN_SCHEDULES)) {
    blocks.push(section(scheduleLine(schedule, lang)));
    if (given.mayChange(schedule)) blocks.push(scheduleButtons(schedule, given.teamId, given.register, lang));
  }
  if (schedules.length > SHOWN_SCHEDULES)
    blocks.push({
      type: "context",
      elements: [{ type: "mrkdwn", text: t.more(schedules.length - SHOWN_SCHEDULES) }],
    });
  return { response_type: "ephemeral", text: safeText(t.title, LIMITS.fallbackText), blocks };
}

function section(text: string): types.SectionBlock {
  return { type: "section", text: { type: "mrkdwn", text: truncate(text, LIMITS.sectionText) } };
}
