import type { FeedEventWord } from "./feed-filter.js";
import type { Lang } from "./lang.js";

/** The feed form (`/invoice feed`, a feed's Settings) and what its saving says. */
export type FeedFormText = {
  title: string;
  save: string;
  cancel: string;
  intro: (channel: string, isFeed: boolean) => string;
  events: string;
  eventOptions: Record<FeedEventWord, string>;
  minRub: string;
  minRubHint: string;
  methods: string;
  methodsHint: string;
  anyMethod: string;
  methodsUnavailable: string;
  tests: string;
  testsInclude: string;
  testsExclude: string;
  people: string;
  peopleHint: string;
  nobody: string;
  when: string;
  whenPayments: string;
  whenFailures: string;
  mentionMin: string;
  mentionMinHint: string;
  badAmount: string;
  noEvents: string;
  noWhen: string;
  amountWithoutPayments: string;
  tooManyPeople: (max: number) => string;
  notAllowed: string;
  notConnected: string;
  notInChannel: string;
  outdated: string;
  notAChannel: string;
  notAChannelFallback: string;
};

const en: FeedFormText = {
  title: "Payment feed",
  save: "Save",
  cancel: "Cancel",
  intro: (channel, isFeed) =>
    `${isFeed ? "What" : "Make"} ${channel} ${isFeed ? "gets" : "a payment feed"}: each change of the cash register's invoices that you choose is posted there once. Saving never posts old invoices again.`,
  events: "What to post",
  eventOptions: {
    paid: "Paid invoices",
    failed: "Failed payments",
    wrongamount: "Paid a wrong amount",
    expired: "Expired unpaid",
    new: "New invoices",
  },
  minRub: "From amount (RUB)",
  minRubHint:
    "Only invoices of at least this many roubles (the rouble amount the payment service gives). Empty: any amount.",
  methods: "Methods",
  methodsHint:
    "Only invoices paid with these methods (one nobody has chosen a method for yet still counts). Empty: any method.",
  anyMethod: "Any method",
  methodsUnavailable:
    ":hourglass: The method list could not be read just now, so the methods chosen before stay as they are.",
  tests: "Test payments",
  testsInclude: "Post them, marked as test payments",
  testsExclude: "Leave them out",
  people: "Mention",
  peopleHint:
    "People Kassa mentions in the message, so that Slack notifies them. Only the people chosen here are ever mentioned.",
  nobody: "Nobody",
  when: "Mention them on",
  whenPayments: "Payments (from the amount below)",
  whenFailures: "Failures: failed, wrong amount, expired unpaid",
  mentionMin: "Mention from amount (RUB)",
  mentionMinHint: "Only payments of at least this many roubles mention them. Empty: every payment.",
  badAmount: "Write an amount in roubles, digits only: 10000 or 10000.50.",
  noEvents: "Choose at least one thing to post.",
  noWhen: "Choose when to mention them: payments, failures or both.",
  amountWithoutPayments: "This amount is for payments: tick Payments above, or leave it empty.",
  tooManyPeople: (max) => `Choose at most ${max} people.`,
  notAllowed: "Only workspace admins and owners can change payment feeds. Ask one of them.",
  notConnected: "No cash register is connected yet: connect it first (/invoice connect).",
  notInChannel: "Kassa is not in this channel: invite it with /invite @Kassa, then press Save again.",
  outdated: "This form is out of date: open it again with /invoice feed in the channel.",
  notAChannel:
    ":information_source: A payment feed is a channel's: type `/invoice feed` (or `/invoice subscribe`) in the channel that should get it.",
  notAChannelFallback: "Type /invoice feed in the channel that should get the feed.",
};

const ru: FeedFormText = {
  title: "Лента платежей",
  save: "Сохранить",
  cancel: "Отмена",
  intro: (channel, isFeed) =>
    `${isFeed ? "Что получает" : "Сделать лентой платежей"} ${channel}: каждое выбранное изменение счетов кассы публикуется там один раз. Сохранение никогда не публикует старые счета повторно.`,
  events: "Что публиковать",
  eventOptions: {
    paid: "Оплаченные счета",
    failed: "Ошибки оплаты",
    wrongamount: "Оплата на неверную сумму",
    expired: "Истёкшие без оплаты",
    new: "Новые счета",
  },
  minRub: "От суммы (RUB)",
  minRubHint:
    "Только счета не меньше этой суммы в рублях (рублёвая сумма от платёжного сервиса). Пусто: любая сумма.",
  methods: "Методы",
  methodsHint:
    "Только счета, оплаченные этими методами (счёт, для которого метод ещё не выбран, тоже подходит). Пусто: любой метод.",
  anyMethod: "Любой метод",
  methodsUnavailable:
    ":hourglass: Список методов сейчас не удалось прочитать, поэтому выбранные раньше методы остаются как есть.",
  tests: "Тестовые платежи",
  testsInclude: "Публиковать с пометкой «тестовый»",
  testsExclude: "Не публиковать",
  people: "Упоминать",
  peopleHint:
    "Люди, которых Kassa упоминает в сообщении, чтобы Slack их уведомил. Упоминаются только выбранные здесь люди.",
  nobody: "Никого",
  when: "Упоминать их при",
  whenPayments: "Платежах (от суммы ниже)",
  whenFailures: "Сбоях: ошибка оплаты, неверная сумма, истёк без оплаты",
  mentionMin: "Упоминать от суммы (RUB)",
  mentionMinHint: "Упоминать только при платежах не меньше этой суммы в рублях. Пусто: при каждом платеже.",
  badAmount: "Укажите сумму в рублях цифрами: 10000 или 10000,50.",
  noEvents: "Выберите хотя бы одно событие для публикации.",
  noWhen: "Выберите, когда их упоминать: при платежах, при сбоях или в обоих случаях.",
  amountWithoutPayments: "Эта сумма относится к платежам: отметьте «Платежах» выше или оставьте поле пустым.",
  tooManyPeople: (max) => `Выберите не больше ${max} человек.`,
  notAllowed:
    "Менять ленты платежей могут только администраторы и владельцы рабочего пространства. Попросите одного из них.",
  notConnected: "Касса ещё не подключена: сначала подключите её (/invoice connect).",
  notInChannel: "Kassa нет в этом канале: пригласите её командой /invite @Kassa и снова нажмите «Сохранить».",
  outdated: "Эта форма устарела: откройте её снова командой /invoice feed в канале.",
  notAChannel:
    ":information_source: Лента платежей принадлежит каналу: наберите `/invoice feed` (или `/invoice subscribe`) в канале, который должен её получать.",
  notAChannelFallback: "Наберите /invoice feed в канале, который должен получать ленту.",
};

export const FEED_FORM_TEXT: Record<Lang, FeedFormText> = { en, ru };
