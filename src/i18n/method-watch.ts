import type { Lang } from "./lang.js";

/**
 * The payment methods watch's words: the alert (failing, silent), the line that closes it, a change
 * made outside Kassa, the note on failing reads, a snooze. Methods arrive as "*Bitcoin* `BITCOIN`"
 * (escaped), durations and percents formatted, times as Slack date tokens, people as mentions.
 */
export type MethodWatchText = {
  failingHead: (method: string) => string;
  failingFigures: (failures: number, invoices: number, window: string, share: string) => string;
  usualShare: (share: string) => string;
  usualShareUnknown: string;
  wrongAmounts: (count: number) => string;
  silentHead: (method: string, quiet: string) => string;
  silentUsual: (usual: string, limit: string) => string;
  silentFixed: (limit: string) => string;
  lastPayment: (at: string) => string;
  inRegister: (register: string) => string;
  episodeNote: string;
  switchOff: string;
  snooze: string;
  methods: string;
  alertFallback: (method: string) => string;
  calmFailure: (method: string, share: string, calm: string) => string;
  calmSilence: (method: string, calm: string) => string;
  closedOff: (method: string) => string;
  outsideHead: string;
  outsideSurcharge: (method: string, before: string, after: string) => string;
  outsideOff: (method: string) => string;
  outsideOn: (method: string) => string;
  outsideNote: string;
  failingReads: (register: string) => string;
  snoozed: (user: string, method: string, until: string) => string;
  snoozeWatchOff: string;
  hours: string;
  minutes: string;
  days: string;
};

const en: MethodWatchText = {
  failingHead: (method) => `:rotating_light: ${method} is failing`,
  failingFigures: (failures, invoices, window, share) =>
    `${failures} of ${invoices} invoices failed or were unavailable in the last ${window} (${share}).`,
  usualShare: (share) => `Usually ${share} fail.`,
  usualShareUnknown: "No usual rate to compare with: too few invoices before.",
  wrongAmounts: (count) =>
    `Besides, ${count} paid a wrong amount: a payer's mistake, not counted as a failure.`,
  silentHead: (method, quiet) => `:mute: ${method} has not been paid for ${quiet}`,
  silentUsual: (usual, limit) =>
    `At this time of day a payment usually comes within ${usual}; the watch speaks after ${limit}.`,
  silentFixed: (limit) => `The watch speaks after ${limit} without a payment.`,
  lastPayment: (at) => `Last payment: ${at}.`,
  inRegister: (register) => ` (cash register ${register})`,
  episodeNote:
    "One alert for this trouble: nothing more while it lasts. When it is over, a line comes in this thread.",
  switchOff: "Switch off at the service",
  snooze: "Snooze 2 h",
  methods: "Methods",
  alertFallback: (method) => `Payment method ${method} needs a look.`,
  calmFailure: (method, share, calm) =>
    `:white_check_mark: ${method} is back to normal: failures have stayed below ${share} for ${calm}.`,
  calmSilence: (method, calm) => `:white_check_mark: ${method} is being paid again (for ${calm} now).`,
  closedOff: (method) => `:no_entry_sign: ${method} is off at the service now: this alert is closed.`,
  outsideHead: ":eyes: A payment method changed outside Kassa",
  outsideSurcharge: (method, before, after) => `${method} surcharge ${before} → ${after}, made outside Kassa`,
  outsideOff: (method) => `${method} switched off, outside Kassa`,
  outsideOn: (method) => `${method} switched on, outside Kassa`,
  outsideNote:
    "Kassa did not make this change: someone with the register's login and Secret 1 did, in the service's dashboard or through its API. It is in the audit trail.",
  failingReads: (register) =>
    `:grey_question: Kassa has not been able to read the payment service for an hour${register}, so the payment methods watch cannot see failing or silent methods. It keeps trying, and says so at most once an hour.`,
  snoozed: (user, method, until) => `:zzz: ${user} snoozed the alerts about ${method} until ${until}.`,
  snoozeWatchOff: "The payment methods watch of this cash register is off: there is nothing to snooze.",
  hours: "h",
  minutes: "min",
  days: "d",
};

const ru: MethodWatchText = {
  failingHead: (method) => `:rotating_light: ${method} сбоит`,
  failingFigures: (failures, invoices, window, share) =>
    `${failures} из ${invoices} счетов не прошли или метод был недоступен за последние ${window} (${share}).`,
  usualShare: (share) => `Обычно не проходит ${share}.`,
  usualShareUnknown: "Сравнить не с чем: раньше было слишком мало счетов.",
  wrongAmounts: (count) => `Кроме того, неверная сумма: ${count} — это ошибка плательщика, не сбой метода.`,
  silentHead: (method, quiet) => `:mute: По ${method} нет оплат уже ${quiet}`,
  silentUsual: (usual, limit) =>
    `В это время суток оплата обычно приходит в пределах ${usual}; наблюдение сообщает после ${limit}.`,
  silentFixed: (limit) => `Наблюдение сообщает, если оплат нет ${limit}.`,
  lastPayment: (at) => `Последняя оплата: ${at}.`,
  inRegister: (register) => ` (касса ${register})`,
  episodeNote:
    "Одно оповещение на весь сбой: пока он длится, больше ничего. Когда закончится — строка в этой ветке.",
  switchOff: "Выключить в сервисе",
  snooze: "Отложить на 2 ч",
  methods: "Методы",
  alertFallback: (method) => `Метод оплаты ${method} требует внимания.`,
  calmFailure: (method, share, calm) =>
    `:white_check_mark: ${method} снова в порядке: сбоев меньше ${share} уже ${calm}.`,
  calmSilence: (method, calm) => `:white_check_mark: По ${method} снова приходят оплаты (уже ${calm}).`,
  closedOff: (method) => `:no_entry_sign: ${method} теперь выключен в сервисе: оповещение закрыто.`,
  outsideHead: ":eyes: Метод оплаты изменён в обход Кассы",
  outsideSurcharge: (method, before, after) =>
    `${method}: надбавка ${before} → ${after}, изменено в обход Кассы`,
  outsideOff: (method) => `${method} выключен в обход Кассы`,
  outsideOn: (method) => `${method} включён в обход Кассы`,
  outsideNote:
    "Это изменение сделала не Касса, а кто-то с логином и «Секретом 1» кассы — в личном кабинете сервиса или через его API. Оно записано в журнал.",
  failingReads: (register) =>
    `:grey_question: Кассе уже час не удаётся прочитать платёжный сервис${register}, поэтому наблюдение за методами оплаты не видит сбоев и тишины. Она продолжает пробовать и напоминает об этом не чаще раза в час.`,
  snoozed: (user, method, until) => `:zzz: ${user} отложил(а) оповещения о ${method} до ${until}.`,
  snoozeWatchOff: "Наблюдение за методами оплаты этой кассы выключено: откладывать нечего.",
  hours: "ч",
  minutes: "мин",
  days: "д",
};

export const METHOD_WATCH_TEXT: Record<Lang, MethodWatchText> = { en, ru };
