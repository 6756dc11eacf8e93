import type { Lang } from "./lang.js";

/** The lines of /invoice status and App Home about the feed and instant notifications. */
export type StatusLinesText = {
  noFeed: string;
  feedsTitle: string;
  stopped: string;
  paused: string;
  daily: (at: string) => string;
  feeds: (list: string) => string;
  instantOn: string;
  instantOnManage: (address: string) => string[];
  noSaltManage: string;
  off: string;
  noAddressManage: string;
};

const en: StatusLinesText = {
  noFeed: "Payment feed: none (`/invoice subscribe` in a channel makes it one).",
  feedsTitle: "*Payment feeds*",
  stopped: ", *stopped*: Kassa is not in the channel (invite it, then subscribe again)",
  paused: ", *paused*: the invoice history could not be read (Kassa keeps trying)",
  daily: (at) => `, yesterday's summary daily at ${at}`,
  feeds: (list) => `Payment feed: ${list}.`,
  instantOn:
    ":zap: Instant notifications are on: cards change as soon as the payment service reports a payment.",
  instantOnManage: (address) => [
    `:zap: *Instant notifications are on.* The payment service reports payments to \`${address}\`; invoices created with \`/invoice new\` carry it.`,
    "Your own invoices can carry it too (as `callback_url`), or your server can forward the service's notifications to it: their cards then change at once as well.",
    "If the address leaked, `/invoice callback rotate` makes a new one (the old one stops working).",
  ],
  noSaltManage:
    ":hourglass: Instant notifications are off: no Secret 2 is stored, so cards are checked every so often instead. Add it with `/invoice connect`.",
  off: ":hourglass: Instant notifications are off: cards are checked every so often instead.",
  noAddressManage:
    ":hourglass: Instant notifications are off: Kassa has no public address for the payment service to report to (the operator sets `PUBLIC_URL`), so cards are checked every so often instead.",
};

const ru: StatusLinesText = {
  noFeed: "Лента платежей: нет (`/invoice subscribe` в канале делает его лентой).",
  feedsTitle: "*Ленты платежей*",
  stopped: ", *остановлена*: Kassa нет в канале (пригласите её и подпишитесь снова)",
  paused: ", *приостановлена*: не удалось прочитать историю счетов (Kassa продолжает попытки)",
  daily: (at) => `, вчерашняя сводка ежедневно в ${at}`,
  feeds: (list) => `Лента платежей: ${list}.`,
  instantOn:
    ":zap: Мгновенные уведомления включены: карточки меняются, как только платёжный сервис сообщает о платеже.",
  instantOnManage: (address) => [
    `:zap: *Мгновенные уведомления включены.* Платёжный сервис сообщает о платежах по адресу \`${address}\`; его несут счета, созданные через \`/invoice new\`.`,
    "Ваши собственные счета тоже могут его нести (как `callback_url`), или ваш сервер может пересылать на него уведомления сервиса: тогда и их карточки будут меняться сразу.",
    "Если адрес стал известен посторонним, `/invoice callback rotate` создаёт новый (старый перестаёт работать).",
  ],
  noSaltManage:
    ":hourglass: Мгновенные уведомления выключены: не сохранён «Секрет 2», поэтому карточки проверяются время от времени. Добавьте его через `/invoice connect`.",
  off: ":hourglass: Мгновенные уведомления выключены: карточки проверяются время от времени.",
  noAddressManage:
    ":hourglass: Мгновенные уведомления выключены: у Kassa нет публичного адреса, на который платёжный сервис мог бы сообщать (его задаёт оператор в `PUBLIC_URL`), поэтому карточки проверяются время от времени.",
};

export const STATUS_LINES_TEXT: Record<Lang, StatusLinesText> = { en, ru };
