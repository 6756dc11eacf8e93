import type { Lang } from "./lang.js";
import { counted, type PluralForms } from "./plural.js";

/** `/invoice summary` and the daily digest. Counts arrive as numbers; amounts and dates formatted. */
export type SummaryText = {
  titles: Record<"today" | "yesterday" | "7d", string>;
  invoices: PluralForms;
  entries: PluralForms;
  withoutRub: (total: string, invoices: string) => string;
  created: string;
  paid: string;
  paidTotal: string;
  tests: string;
  testsNone: string;
  testsCounts: (created: number, paid: number) => string;
  span: (yesterday: boolean, zone: string, from: string, readAt: string) => string;
  onlyYou: string;
  digest: string;
  partial: string;
  unreadable: (entries: string, count: number) => string;
  fallback: (title: string, created: number, paid: number, total: string, partial: boolean) => string;
  decimalMark: string;
};

const en: SummaryText = {
  titles: { today: "Invoices today", yesterday: "Invoices yesterday", "7d": "Invoices in the last 7 days" },
  invoices: { one: "invoice", other: "invoices" },
  entries: { one: "entry", other: "entries" },
  withoutRub: (total, invoices) => `${total} + ${invoices} without a rouble amount`,
  created: "Created",
  paid: "Paid",
  paidTotal: "Paid total",
  tests: "Test payments (not counted)",
  testsNone: "none",
  testsCounts: (created, paid) => `${created} created, ${paid} paid`,
  span: (yesterday, zone, from, at) =>
    `${yesterday ? "Midnight to midnight" : "From midnight to now"} in ${zone} (from ${from} in your timezone), counted from the payment service's invoice history read ${at}.`,
  onlyYou: "Only you can see this.",
  digest: "Kassa's daily summary for this channel; `/invoice digest off` here stops it.",
  partial:
    ":warning: The period holds more invoices than Kassa reads at once (the newest 2,000): the figures cover those only.",
  unreadable: (entries, count) =>
    `:warning: ${entries} of the history could not be read and ${count === 1 ? "is" : "are"} not counted.`,
  fallback: (title, created, paid, total, partial) =>
    `${title}: ${created} created, ${paid} paid, ${total} paid${partial ? " (newest 2,000 invoices only)" : ""}`,
  decimalMark: ".",
};

const ru: SummaryText = {
  titles: { today: "Счета за сегодня", yesterday: "Счета за вчера", "7d": "Счета за последние 7 дней" },
  invoices: { one: "счёт", few: "счёта", many: "счетов", other: "счёта" },
  entries: { one: "запись", few: "записи", many: "записей", other: "записи" },
  withoutRub: (total, invoices) => `${total} + ${invoices} без суммы в рублях`,
  created: "Создано",
  paid: "Оплачено",
  paidTotal: "Оплачено на сумму",
  tests: "Тестовые платежи (не учтены)",
  testsNone: "нет",
  testsCounts: (created, paid) => `создано ${created}, оплачено ${paid}`,
  span: (yesterday, zone, from, at) =>
    `${yesterday ? "С полуночи до полуночи" : "С полуночи до этого момента"} по ${zone} (с ${from} по вашему времени), по истории счетов платёжного сервиса на ${at}.`,
  onlyYou: "Это видите только вы.",
  digest: "Ежедневная сводка Kassa для этого канала; `/invoice digest off` здесь её отключает.",
  partial:
    ":warning: За этот период счетов больше, чем Kassa читает за раз (2 000 самых новых): цифры учитывают только их.",
  unreadable: (entries, count) =>
    `:warning: ${entries} истории не удалось прочитать, ${count === 1 ? "она не учтена" : "они не учтены"}.`,
  fallback: (title, created, paid, total, partial) =>
    `${title}: создано ${created}, оплачено ${paid}, на сумму ${total}${partial ? " (только 2 000 самых новых счетов)" : ""}`,
  decimalMark: ",",
};

export const SUMMARY_TEXT: Record<Lang, SummaryText> = { en, ru };

/** "5 счетов", "1 invoice". */
export function countOf(lang: Lang, count: number, forms: PluralForms): string {
  return counted(lang, count, forms);
}
