import { ERROR_TEXT } from "./errors.js";
import { type Lang, LOCALES } from "./lang.js";
import type { PluralForms } from "./plural.js";

/**
 * `/invoice summary` (the period report) and the weekly and monthly digests. Counts arrive as
 * numbers; amounts, percentages, dates and periods already formatted.
 */
export type ReportText = {
  titles: Record<"today" | "yesterday" | "7d" | "30d", string>;
  monthTitle: (month: string) => string;
  weekTitle: (monday: string) => string;
  invoices: PluralForms;
  entries: PluralForms;
  created: string;
  paid: string;
  paidTotal: string;
  tests: string;
  testsNone: string;
  testsCounts: (created: number, paid: number) => string;
  withoutRub: (total: string, invoices: string) => string;
  /** The change on the period before: "+12.5 %" and the earlier figure. */
  change: (percent: string, before: string) => string;
  same: (before: string) => string;
  noneBefore: string;
  largest: string;
  largestNone: string;
  /** The asker may not see single invoices' money (the workspace's /balance choice). */
  largestHidden: string;
  open: string;
  byMethod: string;
  noMethod: string;
  other: (methods: number) => string;
  methodLine: (method: string, total: string, invoices: string) => string;
  comparedWith: (from: string, to: string) => string;
  span: (zone: string, from: string, to: string, readAt: string) => string;
  onlyYou: string;
  digest: (cadence: "weekly" | "monthly") => string;
  partial: string;
  unreadable: (entries: string) => string;
  /** `days`: UTC days as `YYYY-MM-DD`, listed (dayList). */
  daysLeftOut: (days: string) => string;
  fallback: (title: string, created: number, paid: number, total: string) => string;
  chartAlt: (title: string) => string;
  chartComment: (title: string) => string;
  /** The report without its chart: Kassa may not upload files in this workspace. */
  chartNeedsScope: string;
  chartFailed: string;
  chartInMessages: string;
  /** The monthly digest's CSV: in the channel, or to the admin when the channel may not see it. */
  csvHere: string;
  csvTo: (user: string) => string;
  reading: (title: string) => string;
  pages: PluralForms;
  progress: (pages: string, invoices: string) => string;
  cancel: string;
  cancelled: (user: string) => string;
  cancelledFallback: string;
};

const en: ReportText = {
  titles: {
    today: "Invoices today",
    yesterday: "Invoices yesterday",
    "7d": "Invoices in the last 7 days",
    "30d": "Invoices in the last 30 days",
  },
  monthTitle: (month) => `Invoices in ${month}`,
  weekTitle: (monday) => `Invoices in the week from ${monday}`,
  invoices: { one: "invoice", other: "invoices" },
  entries: { one: "entry", other: "entries" },
  created: "Created",
  paid: "Paid",
  paidTotal: "Paid total",
  tests: "Test payments (not counted)",
  testsNone: "none",
  testsCounts: (created, paid) => `${created} created, ${paid} paid`,
  withoutRub: (total, invoices) => `${total} + ${invoices} without a rouble amount`,
  change: (percent, before) => `${percent} on the period before (${before})`,
  same: (before) => `the same as the period before (${before})`,
  noneBefore: "none in the period before",
  largest: "Largest payments",
  largestNone: "No paid invoices in this period.",
  largestHidden: `:lock: The largest payments are shown only to those who may see the balance: ${ERROR_TEXT.en.whoMayManage}.`,
  open: "Open",
  byMethod: "Paid by method",
  noMethod: "no method named",
  other: (methods) => `Other (${methods} ${methods === 1 ? "method" : "methods"})`,
  methodLine: (method, total, invoices) => `${method}: *${total}* (${invoices})`,
  comparedWith: (from, to) => `Compared with the same length of time just before: ${from} to ${to}.`,
  span: (zone, from, to, at) =>
    `${from} to ${to} (days in ${zone}), in your timezone; counted from the payment service's invoice history read ${at}. Amounts in roubles as the service converts them.`,
  onlyYou: "Only you can see this.",
  digest: (cadence) =>
    `Kassa's ${cadence} report for this channel; \`/invoice digest off ${cadence}\` here stops it.`,
  partial:
    ":warning: The history could not be read back to the start of the period: the figures cover its newest part only.",
  unreadable: (entries) => `:warning: ${entries} of the history could not be read and are not counted.`,
  daysLeftOut: (days) =>
    `:warning: The invoices Kassa keeps for ${days} (days in UTC) could not be read, even afresh from the payment service, and are not counted. Ask again later; if it keeps happening, tell the Kassa operator.`,
  fallback: (title, created, paid, total) => `${title}: ${created} created, ${paid} paid, ${total} paid`,
  chartAlt: (title) => `${title}: paid total per day or hour, and the period before`,
  chartComment: (title) => `Chart: ${title}`,
  chartNeedsScope:
    "The chart needs Kassa to be allowed to upload files: a workspace admin can reinstall Kassa to allow it.",
  chartFailed: "The chart could not be sent this time; the figures above are complete.",
  chartInMessages: "The chart is in your messages with Kassa.",
  csvHere: "Every invoice of the month is in the CSV below.",
  csvTo: (user) =>
    `The month's CSV, with every invoice's money and description, went to ${user} in their messages with Kassa: only those who may see the balance get it.`,
  reading: (title) =>
    `:hourglass_flowing_sand: ${title}: reading the payment service's invoice history, within what the cash register allows a second. What is read is kept, so the next report is quick.`,
  pages: { one: "page", other: "pages" },
  progress: (pages, invoices) => `Read so far: ${pages}, ${invoices}.`,
  cancel: "Cancel",
  cancelled: (user) =>
    `:no_entry_sign: The report was cancelled by ${user}. What was read is kept for the next one.`,
  cancelledFallback: "The report was cancelled.",
};

const ru: ReportText = {
  titles: {
    today: "Счета за сегодня",
    yesterday: "Счета за вчера",
    "7d": "Счета за последние 7 дней",
    "30d": "Счета за последние 30 дней",
  },
  monthTitle: (month) => `Счета за ${month}`,
  weekTitle: (monday) => `Счета за неделю с ${monday}`,
  invoices: { one: "счёт", few: "счёта", many: "счетов", other: "счёта" },
  entries: { one: "запись", few: "записи", many: "записей", other: "записи" },
  created: "Создано",
  paid: "Оплачено",
  paidTotal: "Оплачено на сумму",
  tests: "Тестовые платежи (не учтены)",
  testsNone: "нет",
  testsCounts: (created, paid) => `создано ${created}, оплачено ${paid}`,
  withoutRub: (total, invoices) => `${total} + ${invoices} без суммы в рублях`,
  change: (percent, before) => `${percent} к прошлому периоду (${before})`,
  same: (before) => `как в прошлом периоде (${before})`,
  noneBefore: "в прошлом периоде не было",
  largest: "Крупнейшие платежи",
  largestNone: "За этот период оплаченных счетов нет.",
  largestHidden: `:lock: Крупнейшие платежи видят только те, кому виден баланс: ${ERROR_TEXT.ru.whoMayManage}.`,
  open: "Открыть",
  byMethod: "Оплачено по методам",
  noMethod: "метод не указан",
  other: (methods) => `Прочие (методов: ${methods})`,
  methodLine: (method, total, invoices) => `${method}: *${total}* (${invoices})`,
  comparedWith: (from, to) => `Сравнение с таким же отрезком времени перед ним: с ${from} по ${to}.`,
  span: (zone, from, to, at) =>
    `С ${from} по ${to} (дни по ${zone}), по вашему времени; по истории счетов платёжного сервиса на ${at}. Суммы в рублях, как их пересчитывает сервис.`,
  onlyYou: "Это видите только вы.",
  digest: (cadence) =>
    `${cadence === "weekly" ? "Еженедельный" : "Ежемесячный"} отчёт Kassa для этого канала; \`/invoice digest off ${cadence}\` здесь его отключает.`,
  partial: ":warning: Историю не удалось прочитать до начала периода: цифры учитывают только её новую часть.",
  unreadable: (entries) => `:warning: ${entries} истории не удалось прочитать, они не учтены.`,
  daysLeftOut: (days) =>
    `:warning: Счета, которые Kassa хранит за ${days} (дни по UTC), не удалось прочитать даже заново из платёжного сервиса, они не учтены. Запросите ещё раз позже; если это повторяется, сообщите оператору Kassa.`,
  fallback: (title, created, paid, total) =>
    `${title}: создано ${created}, оплачено ${paid}, на сумму ${total}`,
  chartAlt: (title) => `${title}: оплачено по дням или часам и прошлый период`,
  chartComment: (title) => `График: ${title}`,
  chartNeedsScope:
    "Для графика Kassa нужно разрешение загружать файлы: администратор может переустановить Kassa, чтобы его дать.",
  chartFailed: "График на этот раз отправить не удалось; цифры выше полные.",
  chartInMessages: "График — в ваших сообщениях с Kassa.",
  csvHere: "Все счета месяца — в CSV ниже.",
  csvTo: (user) =>
    `CSV за месяц с суммами и описаниями всех счетов отправлен ${user} в сообщения с Kassa: его получают только те, кому виден баланс.`,
  reading: (title) =>
    `:hourglass_flowing_sand: ${title}: читаю историю счетов платёжного сервиса, не чаще, чем касса позволяет в секунду. Прочитанное сохраняется, и следующий отчёт будет быстрым.`,
  pages: { one: "страница", few: "страницы", many: "страниц", other: "страницы" },
  progress: (pages, invoices) => `Прочитано: ${pages}, ${invoices}.`,
  cancel: "Отменить",
  cancelled: (user) => `:no_entry_sign: Отчёт отменил ${user}. Прочитанное сохранено для следующего.`,
  cancelledFallback: "Отчёт отменён.",
};

export const REPORT_TEXT: Record<Lang, ReportText> = { en, ru };

/** "October 2026", "октябрь 2026 г.": a month as the language names it. */
export function monthName(lang: Lang, month: string): string {
  const [year, number] = month.split("-").map(Number) as [number, number];
  return new Intl.DateTimeFormat(LOCALES[lang], {
    month: "long",
    year: "numeric",
    timeZone: "UTC",
  }).format(new Date(Date.UTC(year, number - 1, 1)));
}

/** "November 16", "16 ноября": a day as the language names it. */
export function dayName(lang: Lang, day: string): string {
  return new Intl.DateTimeFormat(LOCALES[lang], { day: "numeric", month: "long", timeZone: "UTC" }).format(
    new Date(`${day}T00:00:00Z`),
  );
}

/** Days left out, as a list short enough for one note: the first five, then how many more. */
export function dayList(days: readonly string[]): string {
  const shown = days.slice(0, 5).join(", ");
  return days.length > 5 ? `${shown} (+${days.length - 5})` : shown;
}
