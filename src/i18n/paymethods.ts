import type { Lang } from "./lang.js";
import { counted, pluralForm } from "./plural.js";

/** The /paymethods list's words. Codes and amounts arrive formatted and escaped. */
export type PaymethodsText = {
  title: (filter: string, enabled: number, disabled: number) => string;
  matching: (text: string) => string;
  only: Record<"enabled" | "disabled", string>;
  none: string;
  range: (from: number, to: number, total: number, page: number, pages: number) => string;
  payoutOnly: (count: number, codes: string, more: number) => string;
  unreadable: (count: number) => string;
  footer: (readAt: string, onlyYou: boolean) => string;
  previous: string;
  next: string;
  refresh: string;
  share: string;
  fallbackPage: (page: number, pages: number) => string;
  disabledShort: string;
  disabled: string;
  commission: string;
  extra: string;
  sum: string;
  minStatus: (level: number) => string;
  limits: string;
  from: (value: string) => string;
  upTo: (value: string) => string;
  noMatch: (codeMrkdwn: string) => string;
  noMatchFallback: (filter: string) => string;
};

const en: PaymethodsText = {
  title: (filter, enabled, disabled) => `Payment methods${filter}: ${enabled} enabled, ${disabled} disabled`,
  matching: (text) => ` matching “${text}”`,
  only: { enabled: " (enabled only)", disabled: " (disabled only)" },
  none: "_No payment methods to show._",
  range: (from, to, total, page, pages) => `Methods ${from}–${to} of ${total}, page ${page} of ${pages}. `,
  payoutOnly: (count, codes, more) =>
    `Not listed: ${counted("en", count, { one: "payout-only method", other: "payout-only methods" })} (not available for payments): ${codes}${more > 0 ? `, and ${more} more` : ""}.`,
  unreadable: (count) =>
    `${counted("en", count, { one: "method", other: "methods" })} could not be read from the payment service's answer and ${count === 1 ? "is" : "are"} not shown.`,
  footer: (at, onlyYou) =>
    `Fixed fees are in each method's currency; the sum adds the percentages. Read from the payment service ${at}.${onlyYou ? " Only you can see this list." : ""}`,
  previous: "◀ Previous",
  next: "Next ▶",
  refresh: "Refresh",
  share: "Share in channel",
  fallbackPage: (page, pages) => ` (page ${page} of ${pages})`,
  disabledShort: "disabled",
  disabled: "_disabled_",
  commission: "commission",
  extra: "extra",
  sum: "sum",
  minStatus: (level) => `min. status level ${level}`,
  limits: "limits",
  from: (value) => `from ${value}`,
  upTo: (value) => `up to ${value}`,
  noMatch: (code) =>
    `:mag: No payment method matches ${code}. A filter is part of a method's code, name or currency (e.g. \`btc\`, \`card\`, \`RUB\`), or one of \`all\`, \`enabled\`, \`disabled\`.`,
  noMatchFallback: (filter) => `No payment method matches "${filter}".`,
};

const METHODS = { one: "метод", few: "метода", many: "методов", other: "метода" };

const ru: PaymethodsText = {
  title: (filter, enabled, disabled) => `Методы оплаты${filter}: включено ${enabled}, отключено ${disabled}`,
  matching: (text) => ` по запросу «${text}»`,
  only: { enabled: " (только включённые)", disabled: " (только отключённые)" },
  none: "_Нет методов оплаты для показа._",
  range: (from, to, total, page, pages) => `Методы ${from}–${to} из ${total}, страница ${page} из ${pages}. `,
  payoutOnly: (count, codes, more) =>
    `Не показаны ${counted("ru", count, METHODS)} только для выплат (для приёма платежей недоступны): ${codes}${more > 0 ? ` и ещё ${more}` : ""}.`,
  unreadable: (count) =>
    `${counted("ru", count, METHODS)} не удалось прочитать из ответа платёжного сервиса, ${pluralForm("ru", count, { one: "он не показан", other: "они не показаны" })}.`,
  footer: (at, onlyYou) =>
    `Фиксированные комиссии указаны в валюте метода; итог складывает проценты. Прочитано из платёжного сервиса ${at}.${onlyYou ? " Этот список видите только вы." : ""}`,
  previous: "◀ Назад",
  next: "Вперёд ▶",
  refresh: "Обновить",
  share: "Показать в канале",
  fallbackPage: (page, pages) => ` (страница ${page} из ${pages})`,
  disabledShort: "отключён",
  disabled: "_отключён_",
  commission: "комиссия",
  extra: "доп. комиссия",
  sum: "итого",
  minStatus: (level) => `мин. уровень статуса ${level}`,
  limits: "лимиты",
  from: (value) => `от ${value}`,
  upTo: (value) => `до ${value}`,
  noMatch: (code) =>
    `:mag: Ни один метод оплаты не подходит под ${code}. Фильтр — это часть кода, названия или валюты метода (например, \`btc\`, \`card\`, \`RUB\`) или одно из слов \`all\`, \`enabled\`, \`disabled\`.`,
  noMatchFallback: (filter) => `Ни один метод оплаты не подходит под «${filter}».`,
};

export const PAYMETHODS_TEXT: Record<Lang, PaymethodsText> = { en, ru };
