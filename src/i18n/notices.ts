import { ERROR_TEXT } from "./errors.js";
import type { Lang } from "./lang.js";

/** Short replies of buttons, forms and admin commands. */
export type NoticesText = {
  foreignList: string;
  foreignListFallback: string;
  foreignCard: string;
  foreignCardFallback: string;
  foreignDisconnect: string;
  foreignDisconnectFallback: string;
  buttonOutdated: string;
  buttonOutdatedFallback: string;
  /** Stop updating pressed by someone else: who may (mentions, where known). */
  stopNotAllowed: (asker: string | undefined, creator: string | undefined) => string;
  stopNotAllowedFallback: string;
  nothingChanged: string;
  dmStopped: string;
  dmStoppedFallback: string;
  formOutdatedCreate: string;
  formOutdatedConnect: string;
  createNotAllowedField: string;
  createStoreDown: string;
  createDuplicate: string;
  connectNotAllowed: string;
  enterLogin: string;
  enterSecret: string;
  refusedThem: (messages: string) => string;
  couldNotCheck: (what: string) => string;
  unreachable: { timeout: string; network: string; status: (status: number | undefined) => string };
  couldNotRead: string;
  couldNotCheckKassa: string;
  internalField: (reference: string) => string;
  formNotOpened: (command: string) => string;
  formNotOpenedFallback: (command: string) => string;
  noAddress: string;
  noAddressFallback: string;
  newAddress: (address: string) => string;
  newAddressFallback: string;
  digestNeedsFeed: string;
  digestNeedsFeedFallback: string;
  digestOn: (at: string, zone: string) => string;
  digestOnFallback: (at: string, zone: string) => string;
  digestOff: string;
  digestOffFallback: string;
};

const en: NoticesText = {
  foreignList:
    ":lock: This list belongs to another workspace's cash register, so it cannot be read from here.",
  foreignListFallback: "This list belongs to another workspace.",
  foreignCard:
    ":lock: This card belongs to another workspace's cash register, so it can only be refreshed or shared there.",
  foreignCardFallback: "This card belongs to another workspace.",
  foreignDisconnect:
    ":lock: This question belongs to another workspace's cash register, so it cannot be answered from here. Nothing was changed.",
  foreignDisconnectFallback: "This question belongs to another workspace; nothing was changed.",
  buttonOutdated:
    ":hourglass: This button is out of date, so nothing was done. Run the command again for a fresh message.",
  buttonOutdatedFallback: "This button is out of date; nothing was done.",
  stopNotAllowed: (asker, creator) => {
    const named = [
      asker === undefined ? undefined : `${asker} (who asked for it)`,
      creator === undefined ? undefined : `${creator} (who created the invoice)`,
    ].filter((who) => who !== undefined);
    const who = [...named, ERROR_TEXT.en.whoMayManage].join(named.length > 0 ? ", or " : "");
    return `:lock: This card's live updates go on: they can be stopped only by ${who}. Refresh shows the latest at any time.`;
  },
  stopNotAllowedFallback:
    "Only the person who asked for this card, the invoice's creator and admins can stop its live updates.",
  nothingChanged: "Nothing was changed.",
  dmStopped: "Kassa no longer tells you about changes to this invoice.",
  dmStoppedFallback: "Live updates stopped.",
  formOutdatedCreate: "This form is out of date. Close it and run /invoice new again.",
  formOutdatedConnect: "This form is out of date. Close it and open it again.",
  createNotAllowedField: `In this workspace only ${ERROR_TEXT.en.whoMayManage} can create invoices. Nothing was created.`,
  createStoreDown: "Kassa's storage is not answering, so nothing was created. Try again in a minute.",
  createDuplicate:
    "This form was already sent with these values: the invoice's card goes to the channel, or Kassa tells you privately what went wrong. Close the form, or change a value to create another invoice.",
  connectNotAllowed:
    "Only workspace admins and owners, the person who installed Kassa, and people the operator lists can change the connection. Nothing was saved.",
  enterLogin: "Enter the cash register's login.",
  enterSecret: "Enter the cash register's secret.",
  refusedThem: (messages) => `The payment service refused them: ${messages}`,
  couldNotCheck: (what) => `Could not check them: ${what}. Try again in a minute.`,
  unreachable: {
    timeout: "the payment service did not answer in time",
    network: "no connection to the payment service",
    status: (status) => `the payment service answered HTTP ${status ?? "with an error"}`,
  },
  couldNotRead: "Could not check them: the payment service sent an answer Kassa cannot read.",
  couldNotCheckKassa: "Could not check them because of an error on Kassa's side.",
  internalField: (reference) =>
    `Something went wrong on Kassa's side, so nothing was saved. Try again; if it happens again, give your admin this reference: ${reference}.`,
  formNotOpened: (command) => `:hourglass: The form could not be opened in time. Run \`${command}\` again.`,
  formNotOpenedFallback: (command) => `The form could not be opened; run ${command} again.`,
  noAddress:
    ":information_source: Nothing was changed: this workspace has no payment notification address. `/invoice status` says why.",
  noAddressFallback: "No payment notification address to change.",
  newAddress: (address) =>
    `:white_check_mark: New payment notification address: \`${address}\`. The old one no longer works: put the new one wherever your own invoices or servers used the old one. Invoices created with \`/invoice new\` use it from now on.`,
  newAddressFallback: "The payment notification address was changed.",
  digestNeedsFeed:
    ":information_source: Nothing was changed: the daily summary goes to a payment feed channel. Type `/invoice subscribe` here first.",
  digestNeedsFeedFallback: "This channel is not a payment feed; subscribe it first.",
  digestOn: (at, zone) =>
    `:calendar: Each day at ${at} (${zone}) this channel gets yesterday's summary: invoices made, paid, and the paid total. \`/invoice digest off\` stops it.`,
  digestOnFallback: (at, zone) => `Each day at ${at} (${zone}) this channel gets yesterday's summary.`,
  digestOff: ":no_bell: The daily summary in this channel is off.",
  digestOffFallback: "The daily summary is off.",
};

const ru: NoticesText = {
  foreignList:
    ":lock: Этот список относится к кассе другого рабочего пространства, поэтому отсюда его не прочитать.",
  foreignListFallback: "Этот список относится к другому рабочему пространству.",
  foreignCard:
    ":lock: Эта карточка относится к кассе другого рабочего пространства, поэтому обновить или показать её можно только там.",
  foreignCardFallback: "Эта карточка относится к другому рабочему пространству.",
  foreignDisconnect:
    ":lock: Этот вопрос относится к кассе другого рабочего пространства, поэтому ответить на него отсюда нельзя. Ничего не изменено.",
  foreignDisconnectFallback: "Этот вопрос относится к другому рабочему пространству; ничего не изменено.",
  buttonOutdated:
    ":hourglass: Эта кнопка устарела, поэтому ничего не сделано. Запустите команду снова, чтобы получить свежее сообщение.",
  buttonOutdatedFallback: "Эта кнопка устарела; ничего не сделано.",
  stopNotAllowed: (asker, creator) => {
    const named = [
      asker === undefined ? undefined : `${asker} (кто её запросил)`,
      creator === undefined ? undefined : `${creator} (кто создал счёт)`,
    ].filter((who) => who !== undefined);
    const who = [...named, ERROR_TEXT.ru.whoMayManage].join(named.length > 0 ? ", или " : "");
    return `:lock: Обновления этой карточки продолжаются: остановить их могут только ${who}. Кнопка «Обновить» в любой момент покажет последнее состояние.`;
  },
  stopNotAllowedFallback:
    "Остановить обновления этой карточки могут только тот, кто её запросил, создатель счёта и администраторы.",
  nothingChanged: "Ничего не изменено.",
  dmStopped: "Kassa больше не сообщает вам об изменениях этого счёта.",
  dmStoppedFallback: "Обновления остановлены.",
  formOutdatedCreate: "Эта форма устарела. Закройте её и снова запустите /invoice new.",
  formOutdatedConnect: "Эта форма устарела. Закройте её и откройте снова.",
  createNotAllowedField: `В этом рабочем пространстве счета могут создавать только ${ERROR_TEXT.ru.whoMayManage}. Ничего не создано.`,
  createStoreDown: "Хранилище Kassa не отвечает, поэтому ничего не создано. Попробуйте снова через минуту.",
  createDuplicate:
    "Эта форма уже отправлена с этими значениями: карточка счёта придёт в канал, или Kassa лично сообщит, что пошло не так. Закройте форму или измените значение, чтобы создать другой счёт.",
  connectNotAllowed:
    "Менять подключение могут только администраторы и владельцы рабочего пространства, тот, кто установил Kassa, и люди из списка оператора. Ничего не сохранено.",
  enterLogin: "Введите логин кассы.",
  enterSecret: "Введите секрет кассы.",
  refusedThem: (messages) => `Платёжный сервис их не принял: ${messages}`,
  couldNotCheck: (what) => `Не удалось проверить: ${what}. Попробуйте снова через минуту.`,
  unreachable: {
    timeout: "платёжный сервис не ответил вовремя",
    network: "нет соединения с платёжным сервисом",
    status: (status) => `платёжный сервис ответил ${status ? `HTTP ${status}` : "ошибкой"}`,
  },
  couldNotRead: "Не удалось проверить: платёжный сервис прислал ответ, который Kassa не может прочитать.",
  couldNotCheckKassa: "Не удалось проверить из-за ошибки на стороне Kassa.",
  internalField: (reference) =>
    `Что-то пошло не так на стороне Kassa, поэтому ничего не сохранено. Попробуйте снова; если повторится, передайте администратору код ${reference}.`,
  formNotOpened: (command) => `:hourglass: Форму не удалось открыть вовремя. Запустите \`${command}\` снова.`,
  formNotOpenedFallback: (command) => `Форму не удалось открыть; запустите ${command} снова.`,
  noAddress:
    ":information_source: Ничего не изменено: у этого рабочего пространства нет адреса для уведомлений о платежах. Почему — покажет `/invoice status`.",
  noAddressFallback: "Адреса для уведомлений о платежах нет, менять нечего.",
  newAddress: (address) =>
    `:white_check_mark: Новый адрес для уведомлений о платежах: \`${address}\`. Старый больше не работает: укажите новый везде, где ваши счета или серверы использовали старый. Счета, созданные через \`/invoice new\`, используют его с этого момента.`,
  newAddressFallback: "Адрес для уведомлений о платежах изменён.",
  digestNeedsFeed:
    ":information_source: Ничего не изменено: ежедневная сводка приходит в канал ленты платежей. Сначала наберите здесь `/invoice subscribe`.",
  digestNeedsFeedFallback: "Этот канал не лента платежей; сначала подпишите его.",
  digestOn: (at, zone) =>
    `:calendar: Каждый день в ${at} (${zone}) этот канал получает сводку за вчера: сколько счетов создано, оплачено и на какую сумму. \`/invoice digest off\` её отключает.`,
  digestOnFallback: (at, zone) => `Каждый день в ${at} (${zone}) этот канал получает сводку за вчера.`,
  digestOff: ":no_bell: Ежедневная сводка в этом канале отключена.",
  digestOffFallback: "Ежедневная сводка отключена.",
};

export const NOTICES_TEXT: Record<Lang, NoticesText> = { en, ru };
