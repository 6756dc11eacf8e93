import type { Lang } from "./lang.js";

/**
 * The notes at a payout request's end: one in its card's thread, one to the requester by direct
 * message (src/payouts/notices.ts). People, amounts and times arrive formatted.
 */
export type PayoutNotesText = {
  payed: (amount: string, wallet: string) => string;
  failed: (amount: string, words: string) => string;
  canceled: string;
  rejected: (who: string, reason: string) => string;
  cancelled: (who: string) => string;
  expired: (time: string) => string;
  changed: (what: string) => string;
  refused: (words: string) => string;
  stopped: (why: string) => string;
  /** Sent at the service by someone else: the service's state (as code). */
  outside: (state: string) => string;
  toRequester: (channel: string) => string;
};

const en: PayoutNotesText = {
  payed: (amount, wallet) => `:moneybag: Paid out: ${amount} to ${wallet}.`,
  failed: (amount, words) =>
    `:x: The payout of ${amount} failed at the service: ${words}. The money stays on the balance; ask again if it should still go.`,
  canceled: ":no_entry_sign: The service cancelled this payout. Nothing was paid out.",
  rejected: (who, reason) => `:no_entry: Rejected by ${who}: ${reason}. Nothing was paid out.`,
  cancelled: (who) => `:no_entry_sign: Cancelled by ${who}. Nothing was paid out.`,
  expired: (time) =>
    `:alarm_clock: Not approved by ${time}: the request expired and the quote was cancelled. Nothing was paid out; ask again if it should still go.`,
  changed: (what) =>
    `:warning: Not sent: at the service this payout is no longer the one approved (${what}). Nothing was paid out by Kassa; check the service's dashboard.`,
  refused: (words) => `:x: The service refused to send this payout: ${words}. Nothing was paid out.`,
  stopped: (why) =>
    `:octagonal_sign: Not sent: ${why} Its quote at the service is cancelled and nothing was paid out; ask again if it should still go.`,
  outside: (state) =>
    `:rotating_light: This payout was sent at the service without Kassa's approval (the service shows it as ${state}): someone holding the register's Secret 2 submitted its quote there. Kassa did not send it. Check with the team; if that was not intended, change Secret 2 in the service's dashboard and reconnect the register.`,
  toRequester: (channel) => `About your payout request (its card is in ${channel}):`,
};

const ru: PayoutNotesText = {
  payed: (amount, wallet) => `:moneybag: Выплачено: ${amount} на ${wallet}.`,
  failed: (amount, words) =>
    `:x: Выплата ${amount} не прошла в сервисе: ${words}. Деньги остались на балансе; запросите снова, если она ещё нужна.`,
  canceled: ":no_entry_sign: Сервис отменил эту выплату. Ничего не выплачено.",
  rejected: (who, reason) => `:no_entry: Отклонил(а) ${who}: ${reason}. Ничего не выплачено.`,
  cancelled: (who) => `:no_entry_sign: Отменил(а) ${who}. Ничего не выплачено.`,
  expired: (time) =>
    `:alarm_clock: Не одобрена до ${time}: запрос истёк, заявка в сервисе отменена. Ничего не выплачено; запросите снова, если выплата ещё нужна.`,
  changed: (what) =>
    `:warning: Не отправлена: в сервисе это уже не одобренная выплата (${what}). Kassa ничего не выплатила; проверьте личный кабинет сервиса.`,
  refused: (words) => `:x: Сервис отказался отправить выплату: ${words}. Ничего не выплачено.`,
  stopped: (why) =>
    `:octagonal_sign: Не отправлена: ${why} Заявка в сервисе отменяется, ничего не выплачено; запросите снова, если выплата ещё нужна.`,
  outside: (state) =>
    `:rotating_light: Эту выплату отправили в сервисе без одобрения в Кассе (в сервисе она ${state}): кто-то, у кого есть «Секрет 2» кассы, подтвердил её заявку там. Касса её не отправляла. Выясните в команде; если так не задумывалось, смените «Секрет 2» в личном кабинете сервиса и подключите кассу заново.`,
  toRequester: (channel) => `О вашем запросе выплаты (карточка в ${channel}):`,
};

export const PAYOUT_NOTES_TEXT: Record<Lang, PayoutNotesText> = { en, ru };
