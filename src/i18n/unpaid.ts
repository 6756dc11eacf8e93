import type { Lang } from "./lang.js";
import { counted, type PluralForms } from "./plural.js";

// What is still unpaid (issue 51): `/invoice unpaid`'s page and the digests' line. Amounts, dates,
// customers and ids arrive formatted and escaped.

export type UnpaidText = {
  /** The period as the header names it: today, yesterday, 7d, 30d, or a month (`2026-10`). */
  period: (period: string) => string;
  header: (period: string) => string;
  /** The customer filter asked for. */
  customerFilter: (customer: string) => string;
  none: string;
  noneNext: string;
  noMore: string;
  noCustomer: string;
  /** A customer's heading: its links and their totals (over every page). */
  group: (customer: string, links: number, totals: string) => string;
  continued: string;
  open: (left: string, until: string) => string;
  expired: (ago: string, at: string) => string;
  /** The page closed; the links' pass has not looked yet, and the service was not asked. */
  closed: (at: string) => string;
  state: (label: string) => string;
  unchecked: string;
  /** "2 days 3 h", "5 h 20 min", "under a minute". */
  duration: (ms: number) => string;
  reissue: string;
  previous: string;
  next: string;
  notes: (page: number, count: number) => string;
  onlyYou: string;
  fallback: (count: number) => string;
  /** The digests' line. */
  digestLine: (open: number, totals: string, expired: number) => string;
};

const EN_LINKS: PluralForms = { one: "link", other: "links" };
const EN_DAYS: PluralForms = { one: "day", other: "days" };
const RU_LINKS: PluralForms = { one: "ссылка", few: "ссылки", many: "ссылок", other: "ссылки" };
const RU_DAYS: PluralForms = { one: "день", few: "дня", many: "дней", other: "дня" };

function duration(
  lang: Lang,
  ms: number,
  units: { h: string; min: string; under: string },
  days: PluralForms,
) {
  const minutes = Math.floor(ms / 60_000);
  if (!Number.isFinite(minutes) || minutes < 1) return units.under;
  const [d, h, m] = [Math.floor(minutes / 1440), Math.floor((minutes % 1440) / 60), minutes % 60];
  if (d > 0) return h > 0 ? `${counted(lang, d, days)} ${h} ${units.h}` : counted(lang, d, days);
  return h > 0 ? `${h} ${units.h}${m > 0 ? ` ${m} ${units.min}` : ""}` : `${m} ${units.min}`;
}

const en: UnpaidText = {
  period: (period) =>
    ({ today: "today", yesterday: "yesterday", "7d": "last 7 days", "30d": "last 30 days" })[period] ??
    period,
  header: (period) => `Unpaid payment links · ${period}`,
  customerFilter: (customer) => `Customer: ${customer}`,
  none: ":white_check_mark: No payment link Kassa made in this period is waiting for payment.",
  noneNext:
    "Links made with `/invoice new` (or the Create invoice step) show here until they are paid or re-issued. Try a longer period: `/invoice unpaid 30d`.",
  noMore: "No more unpaid links: this page is past the last one.",
  noCustomer: "No customer",
  group: (customer, links, totals) => `*${customer}* · ${counted("en", links, EN_LINKS)} · ${totals}`,
  continued: " (continued)",
  open: (left, until) => `:hourglass_flowing_sand: Open, ${left} left (until ${until})`,
  expired: (ago, at) => `:x: Expired ${ago} ago (${at}), not paid`,
  closed: (at) => `:x: Its page closed ${at}`,
  state: (label) => `state: ${label}`,
  unchecked: "_the payment service did not answer: shown as Kassa last knew it_",
  duration: (ms) => duration("en", ms, { h: "h", min: "min", under: "under a minute" }, EN_DAYS),
  reissue: "Re-issue",
  previous: "Previous",
  next: "Next",
  notes: (page, count) =>
    `Page ${page}; ${counted("en", count, EN_LINKS)} in all. Open links are checked with the payment service as their page is shown; totals count the others as Kassa knows them. *Re-issue* makes a new link with the same amount and customer.`,
  onlyYou: "Only you can see this list.",
  fallback: (count) => `Unpaid payment links: ${counted("en", count, EN_LINKS)}`,
  digestLine: (open, totals, expired) =>
    `:receipt: Unpaid payment links: ${open} open${open > 0 ? ` for ${totals}` : ""} (${expired} expired). \`/invoice unpaid\` lists them.`,
};

const ru: UnpaidText = {
  period: (period) =>
    ({ today: "сегодня", yesterday: "вчера", "7d": "последние 7 дней", "30d": "последние 30 дней" })[
      period
    ] ?? period,
  header: (period) => `Неоплаченные ссылки на оплату · ${period}`,
  customerFilter: (customer) => `Клиент: ${customer}`,
  none: ":white_check_mark: Ни одна ссылка на оплату, созданная Kassa за этот период, не ждёт оплаты.",
  noneNext:
    "Ссылки, созданные через `/invoice new` (или шаг «Создать счёт»), видны здесь, пока их не оплатят или не перевыпустят. Попробуйте период длиннее: `/invoice unpaid 30d`.",
  noMore: "Больше неоплаченных ссылок нет: эта страница за последней.",
  noCustomer: "Без клиента",
  group: (customer, links, totals) => `*${customer}* · ${counted("ru", links, RU_LINKS)} · ${totals}`,
  continued: " (продолжение)",
  open: (left, until) => `:hourglass_flowing_sand: Открыта, осталось ${left} (до ${until})`,
  expired: (ago, at) => `:x: Истекла ${ago} назад (${at}), не оплачена`,
  closed: (at) => `:x: Страница оплаты закрылась ${at}`,
  state: (label) => `статус: ${label}`,
  unchecked: "_платёжный сервис не ответил: показано, как Kassa знала раньше_",
  duration: (ms) => duration("ru", ms, { h: "ч", min: "мин", under: "меньше минуты" }, RU_DAYS),
  reissue: "Перевыпустить",
  previous: "Назад",
  next: "Дальше",
  notes: (page, count) =>
    `Страница ${page}; всего ${counted("ru", count, RU_LINKS)}. Открытые ссылки проверяются в платёжном сервисе, когда их страница показана; в итогах остальные учтены так, как их знает Kassa. *Перевыпустить* создаёт новую ссылку с той же суммой и клиентом.`,
  onlyYou: "Этот список видите только вы.",
  fallback: (count) => `Неоплаченные ссылки на оплату: ${counted("ru", count, RU_LINKS)}`,
  digestLine: (open, totals, expired) =>
    `:receipt: Неоплаченные ссылки на оплату: открыто ${open}${open > 0 ? ` на ${totals}` : ""} (истекло ${expired}). Список: \`/invoice unpaid\`.`,
};

export const UNPAID_TEXT: Record<Lang, UnpaidText> = { en, ru };
