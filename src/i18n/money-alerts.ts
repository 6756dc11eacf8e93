import type { Lang } from "./lang.js";

/**
 * The money alerts' words: balance alerts (`/balance alert`) and payouts made outside Kassa. Amounts
 * arrive formatted, codes escaped, channels and times as Slack tokens.
 */
export type MoneyAlertsText = {
  alertSet: (method: string, threshold: string) => string;
  alertChanged: (method: string, threshold: string) => string;
  alertSetNow: (balance: string) => string;
  alertRemoved: (method: string) => string;
  alertNotFound: (method: string) => string;
  alertTooMany: (count: number) => string;
  unknownMethod: (method: string, codes: string) => string;
  badAmount: (input: string) => string;
  alertUsage: string;
  listHeader: string;
  listEmpty: string;
  listLine: (channel: string, method: string, threshold: string, state: string) => string;
  stateBelow: string;
  stateAbove: string;
  stateUnknown: string;
  below: (method: string, balance: string, threshold: string) => string;
  above: (method: string, balance: string, threshold: string) => string;
  failing: string;
  outsideHeader: string;
  outside: (id: string, amount: string, method: string, wallet: string) => string;
  outsideState: (state: string, at: string) => string;
  outsideNotKassa: string;
  outsideFallback: (id: string, amount: string) => string;
  /** The payout was the quote of a Kassa request (by `requester`, still `was`: its status word). */
  outsideKassaQuote: (requester: string, was: string) => string;
  outsideWas: Record<"waiting" | "approved" | "ended", string>;
};

const en: MoneyAlertsText = {
  alertSet: (method, threshold) =>
    `:bell: This channel will hear once when the ${method} balance falls below ${threshold}, and once when it is back above.`,
  alertChanged: (method, threshold) =>
    `:bell: The ${method} alert of this channel now watches for a balance below ${threshold}.`,
  alertSetNow: (balance) => `The balance is ${balance} now.`,
  alertRemoved: (method) => `The ${method} balance alert of this channel is off.`,
  alertNotFound: (method) => `This channel has no ${method} balance alert. \`/balance alerts\` lists them.`,
  alertTooMany: (count) => `A cash register keeps at most ${count} balance alerts; remove one first.`,
  unknownMethod: (method, codes) => `The cash register has no ${method} balance. Its methods: ${codes}.`,
  badAmount: (input) => `${input} is not an amount: write it as 1500 or 0.005.`,
  alertUsage:
    "`/balance alert METHOD below AMOUNT` tells this channel when that balance falls below the amount (and when it is back above); `/balance alert METHOD off` stops it; `/balance alerts` lists them.",
  listHeader: "Balance alerts",
  listEmpty: "No balance alerts. `/balance alert METHOD below AMOUNT` sets one in a channel.",
  listLine: (channel, method, threshold, state) => `${channel} · ${method} below ${threshold} · ${state}`,
  stateBelow: "below now",
  stateAbove: "above",
  stateUnknown: "not checked yet",
  below: (method, balance, threshold) =>
    `:warning: The ${method} balance fell below ${threshold}: it is ${balance}. This channel hears again when it is back above.`,
  above: (method, balance, threshold) =>
    `:white_check_mark: The ${method} balance is back above ${threshold}: it is ${balance}.`,
  failing:
    ":grey_question: Kassa has not been able to read this cash register's balances for an hour, so its balance alerts are paused. They resume by themselves once the payment service answers.",
  outsideHeader: ":rotating_light: A payout made outside Kassa",
  outside: (id, amount, method, wallet) =>
    [`*Payout* ${id}`, `*Amount:* ${amount}`, `*Method:* ${method}`, `*Wallet:* ${wallet}`].join("\n"),
  outsideState: (state, at) => `*State:* ${state}\n*Made:* ${at}`,
  outsideNotKassa:
    "It did not go through Kassa's approval. If nobody here made it in the payment service's dashboard, replace the register's Secret 2 now.",
  outsideFallback: (id, amount) =>
    `A payout made outside Kassa: ${id}, ${amount}; it did not go through Kassa's approval.`,
  outsideKassaQuote: (requester, was) =>
    `It is the quote of a Kassa payout request by ${requester}, ${was}: it was submitted at the service directly, without the approvals. Its card now says so.`,
  outsideWas: {
    waiting: "still waiting for approval",
    approved: "approved but not yet sent by Kassa",
    ended: "already closed in Kassa without being sent",
  },
};

const ru: MoneyAlertsText = {
  alertSet: (method, threshold) =>
    `:bell: Этот канал узнает один раз, когда баланс ${method} опустится ниже ${threshold}, и один раз, когда он снова станет выше.`,
  alertChanged: (method, threshold) =>
    `:bell: Оповещение ${method} этого канала теперь ждёт баланса ниже ${threshold}.`,
  alertSetNow: (balance) => `Сейчас баланс ${balance}.`,
  alertRemoved: (method) => `Оповещение о балансе ${method} в этом канале выключено.`,
  alertNotFound: (method) => `В этом канале нет оповещения о балансе ${method}. Список: \`/balance alerts\`.`,
  alertTooMany: (count) =>
    `У кассы может быть не больше ${count} оповещений о балансе; сначала удалите одно.`,
  unknownMethod: (method, codes) => `На кассе нет баланса ${method}. Её методы: ${codes}.`,
  badAmount: (input) => `${input} — не сумма: напишите, например, 1500 или 0,005.`,
  alertUsage:
    "`/balance alert METHOD below AMOUNT` сообщит в этот канал, когда баланс опустится ниже суммы (и когда снова станет выше); `/balance alert METHOD off` выключит оповещение; `/balance alerts` покажет список.",
  listHeader: "Оповещения о балансе",
  listEmpty: "Оповещений о балансе нет. Включить в канале: `/balance alert METHOD below AMOUNT`.",
  listLine: (channel, method, threshold, state) => `${channel} · ${method} ниже ${threshold} · ${state}`,
  stateBelow: "сейчас ниже",
  stateAbove: "выше",
  stateUnknown: "ещё не проверено",
  below: (method, balance, threshold) =>
    `:warning: Баланс ${method} опустился ниже ${threshold}: сейчас ${balance}. Канал узнает снова, когда он станет выше.`,
  above: (method, balance, threshold) =>
    `:white_check_mark: Баланс ${method} снова выше ${threshold}: сейчас ${balance}.`,
  failing:
    ":grey_question: Кассе уже час не удаётся прочитать балансы, поэтому оповещения о балансе приостановлены. Они возобновятся сами, когда платёжный сервис ответит.",
  outsideHeader: ":rotating_light: Выплата в обход Кассы",
  outside: (id, amount, method, wallet) =>
    [`*Выплата* ${id}`, `*Сумма:* ${amount}`, `*Метод:* ${method}`, `*Кошелёк:* ${wallet}`].join("\n"),
  outsideState: (state, at) => `*Состояние:* ${state}\n*Создана:* ${at}`,
  outsideNotKassa:
    "Она не проходила одобрение в Кассе. Если никто из вас не делал её в личном кабинете платёжного сервиса, немедленно замените «Секрет 2» кассы.",
  outsideFallback: (id, amount) =>
    `Выплата в обход Кассы: ${id}, ${amount}; она не проходила одобрение в Кассе.`,
  outsideKassaQuote: (requester, was) =>
    `Это заявка запроса выплаты в Кассе от ${requester}, ${was}: её подтвердили прямо в сервисе, без одобрений. Карточка запроса теперь говорит об этом.`,
  outsideWas: {
    waiting: "ещё ждавшего одобрения",
    approved: "одобренного, но ещё не отправленного Кассой",
    ended: "уже закрытого в Кассе без отправки",
  },
};

export const MONEY_ALERTS_TEXT: Record<Lang, MoneyAlertsText> = { en, ru };
