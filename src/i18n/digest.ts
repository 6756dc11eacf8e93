import type { Lang } from "./lang.js";

/** `/invoice digest HH:MM weekly|monthly` and `off weekly|monthly`: the admin's replies and the channel's note. */
export type DigestText = {
  on: (cadence: "weekly" | "monthly", at: string, zone: string) => string;
  onFallback: (cadence: "weekly" | "monthly", at: string, zone: string) => string;
  channelNote: (cadence: "weekly" | "monthly", at: string, zone: string, user: string) => string;
  off: (cadence: "weekly" | "monthly") => string;
  noneSet: (cadence: "weekly" | "monthly") => string;
  notInChannel: string;
};

const en: DigestText = {
  on: (cadence, at, zone) =>
    cadence === "weekly"
      ? `:calendar: Every Monday at ${at} (${zone}) this channel gets the past week's report (Monday to Sunday) with its chart. \`/invoice digest off weekly\` stops it.`
      : `:calendar: On the 1st of every month at ${at} (${zone}) this channel gets last month's report with its chart and every invoice as CSV. \`/invoice digest off monthly\` stops it.`,
  onFallback: (cadence, at, zone) =>
    `${cadence === "weekly" ? "Weekly report: Mondays" : "Monthly report: the 1st"} at ${at} (${zone}).`,
  channelNote: (cadence, at, zone, user) =>
    `:calendar: ${user} set up Kassa's ${cadence} report for this channel: ${cadence === "weekly" ? "every Monday" : "on the 1st of every month"} at ${at} (${zone}).`,
  off: (cadence) => `:no_bell: The ${cadence} report in this channel is off.`,
  noneSet: (cadence) => `This channel has no ${cadence} report; nothing changed.`,
  notInChannel:
    ":warning: Kassa is not in this channel, so it could not post the report here. Invite it (type `/invite @Kassa` here), then set the report again.",
};

const ru: DigestText = {
  on: (cadence, at, zone) =>
    cadence === "weekly"
      ? `:calendar: Каждый понедельник в ${at} (${zone}) этот канал получает отчёт за прошлую неделю (с понедельника по воскресенье) с графиком. \`/invoice digest off weekly\` его отключает.`
      : `:calendar: Первого числа каждого месяца в ${at} (${zone}) этот канал получает отчёт за прошлый месяц с графиком и все счета в CSV. \`/invoice digest off monthly\` его отключает.`,
  onFallback: (cadence, at, zone) =>
    `${cadence === "weekly" ? "Еженедельный отчёт: по понедельникам" : "Ежемесячный отчёт: первого числа"} в ${at} (${zone}).`,
  channelNote: (cadence, at, zone, user) =>
    `:calendar: ${user} включил ${cadence === "weekly" ? "еженедельный" : "ежемесячный"} отчёт Kassa для этого канала: ${cadence === "weekly" ? "каждый понедельник" : "первого числа каждого месяца"} в ${at} (${zone}).`,
  off: (cadence) =>
    `:no_bell: ${cadence === "weekly" ? "Еженедельный" : "Ежемесячный"} отчёт в этом канале отключён.`,
  noneSet: (cadence) =>
    `В этом канале нет ${cadence === "weekly" ? "еженедельного" : "ежемесячного"} отчёта; ничего не изменилось.`,
  notInChannel:
    ":warning: Kassa нет в этом канале, поэтому отчёт сюда не отправить. Пригласите её (наберите здесь `/invite @Kassa`) и включите отчёт снова.",
};

export const DIGEST_TEXT: Record<Lang, DigestText> = { en, ru };
