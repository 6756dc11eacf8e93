import type { Lang } from "./lang.js";

/** The compact card a pasted payment link unfurls into. Codes, amounts and dates arrive formatted. */
export type UnfurlText = {
  invoice: string;
  state: string;
  amount: string;
  stillToPay: string;
  shortfall: string;
  twoCurrencies: (a: string, b: string) => string;
  expired: string;
  expires: string;
  context: (checked: string, command: string) => string;
};

const en: UnfurlText = {
  invoice: "Invoice",
  state: "State",
  amount: "Amount",
  stillToPay: "Still to pay",
  shortfall: "Still to pay (shortfall)",
  twoCurrencies: (a, b) =>
    `:warning: The payment service names two currencies for this invoice, ${a} and ${b}, without saying which the amount is in.`,
  expired: "Expired",
  expires: "Expires",
  context: (checked, command) =>
    `Kassa · as of ${checked}, in your own timezone · ${command} for the full card`,
};

const ru: UnfurlText = {
  invoice: "Счёт",
  state: "Статус",
  amount: "Сумма",
  stillToPay: "Осталось оплатить",
  shortfall: "Осталось доплатить",
  twoCurrencies: (a, b) =>
    `:warning: Платёжный сервис называет для этого счёта две валюты, ${a} и ${b}, и не уточняет, в какой из них сумма.`,
  expired: "Истёк",
  expires: "Действует до",
  context: (checked, command) => `Kassa · на ${checked}, в вашем часовом поясе · полная карточка: ${command}`,
};

export const UNFURL_TEXT: Record<Lang, UnfurlText> = { en, ru };
