import type { Lang } from "./lang.js";

/** The payment feed: its messages, and what its subscriber and channel are told. */
export type FeedText = {
  newInvoice: string;
  invoice: (code: string) => string;
  testPayment: string;
  invoiceAmount: string;
  method: string;
  openCard: string;
  fallback: (id: string, what: string, amount: string | undefined, test: boolean) => string;
  newInvoiceLower: string;
  welcome: (by: string, what: string) => string;
  resumedLead: string;
  changedLead: string;
  addedLead: string;
  subscribed: (lead: string, what: string) => string;
  subscribedFallback: (lead: string) => string;
  notInChannel: string;
  notInChannelFallback: string;
  unsubscribed: string;
  unsubscribedFallback: string;
  notAFeed: string;
  notAFeedFallback: string;
  pausedNotInChannel: (channel: string) => string;
  pausedUnreadable: (channel: string) => string;
  resumed: (channel: string) => string;
  givenUp: (channel: string, invoice: string, why: "unreadable" | "not_taken") => string;
};

const en: FeedText = {
  newInvoice: "New invoice",
  invoice: (code) => `Invoice ${code}`,
  testPayment: "Test payment",
  invoiceAmount: "Invoice amount",
  method: "Method",
  openCard: "Open full card",
  fallback: (id, what, amount, test) =>
    `Invoice ${id}: ${what}${amount ? ` · ${amount}` : ""}${test ? " (test payment)" : ""}`,
  newInvoiceLower: "new invoice",
  welcome: (by, what) =>
    `:incoming_envelope: ${by} made this channel Kassa's payment feed: from now on it gets ${what}, one message each. Invoices paid before now are not posted. _Settings_ (or \`/invoice feed\` here) changes what it posts and whom it mentions; \`/invoice unsubscribe\` here stops it.`,
  resumedLead: ":arrow_forward: The feed in this channel is running again",
  changedLead: ":white_check_mark: This channel's feed now follows",
  addedLead: ":white_check_mark: This channel is now a payment feed",
  subscribed: (lead, what) =>
    `${lead}: ${what}. Kassa checks the cash register's history regularly. \`/invoice feed\` here chooses methods, test payments and whom to mention; \`/invoice unsubscribe\` stops it; \`/invoice status\` lists the feeds.`,
  subscribedFallback: (lead) => `${lead}. /invoice unsubscribe stops it.`,
  notInChannel:
    ":wave: Kassa is not in this channel, so it cannot post the feed here. Invite it with `/invite @Kassa`, then type `/invoice subscribe` again.",
  notInChannelFallback: "Kassa is not in this channel. Invite it with /invite @Kassa, then subscribe again.",
  unsubscribed:
    ":no_bell: This channel no longer gets the payment feed. Cards already posted stay as they are.",
  unsubscribedFallback: "This channel no longer gets the payment feed.",
  notAFeed:
    ":information_source: Nothing was changed: this channel is not a payment feed. `/invoice subscribe` makes it one.",
  notAFeedFallback: "This channel is not a payment feed.",
  pausedNotInChannel: (channel) =>
    `:pause_button: Kassa's payment feed in ${channel} has stopped: Kassa is no longer in that channel. Invite it with \`/invite @Kassa\` there and type \`/invoice subscribe\` again: the feed then goes on with the payments from that moment (those in between are not posted).`,
  pausedUnreadable: (channel) =>
    `:pause_button: Kassa's payment feed in ${channel} is paused: the payment service's invoice history could not be read. Kassa keeps trying and carries on by itself once it can; nothing is posted twice.`,
  resumed: (channel) =>
    `:arrow_forward: Kassa's payment feed in ${channel} is running again: the invoice history could be read again.`,
  givenUp: (channel, invoice, why) =>
    `:warning: Kassa gave up posting invoice ${invoice} in ${channel}: ${why === "unreadable" ? "for a day the payment service could not look that invoice up" : "for a day Slack did not take the message"}. Look the invoice up in the payment service's dashboard or with \`/invoice ${invoice}\`; the feed goes on with the payments after it.`,
};

const ru: FeedText = {
  newInvoice: "Новый счёт",
  invoice: (code) => `Счёт ${code}`,
  testPayment: "Тестовый платёж",
  invoiceAmount: "Сумма счёта",
  method: "Метод",
  openCard: "Открыть карточку",
  fallback: (id, what, amount, test) =>
    `Счёт ${id}: ${what}${amount ? ` · ${amount}` : ""}${test ? " (тестовый платёж)" : ""}`,
  newInvoiceLower: "новый счёт",
  welcome: (by, what) =>
    `:incoming_envelope: ${by} сделал(а) этот канал лентой платежей Kassa: теперь сюда приходят ${what}, по сообщению на каждый. Счета, оплаченные раньше, не публикуются. «Настройки» (или \`/invoice feed\` здесь) меняют, что публикуется и кого упоминать; \`/invoice unsubscribe\` здесь отключает ленту.`,
  resumedLead: ":arrow_forward: Лента в этом канале снова работает",
  changedLead: ":white_check_mark: Лента этого канала теперь показывает",
  addedLead: ":white_check_mark: Этот канал теперь лента платежей",
  subscribed: (lead, what) =>
    `${lead}: ${what}. Kassa регулярно проверяет историю кассы. \`/invoice feed\` здесь выбирает методы, тестовые платежи и кого упоминать; \`/invoice unsubscribe\` отключает ленту; \`/invoice status\` показывает все ленты.`,
  subscribedFallback: (lead) => `${lead}. /invoice unsubscribe отключает ленту.`,
  notInChannel:
    ":wave: Kassa нет в этом канале, поэтому она не может вести здесь ленту. Пригласите её командой `/invite @Kassa`, затем снова наберите `/invoice subscribe`.",
  notInChannelFallback: "Kassa нет в этом канале. Пригласите её командой /invite @Kassa и подпишитесь снова.",
  unsubscribed:
    ":no_bell: Этот канал больше не получает ленту платежей. Уже опубликованные карточки остаются как есть.",
  unsubscribedFallback: "Этот канал больше не получает ленту платежей.",
  notAFeed:
    ":information_source: Ничего не изменено: этот канал не лента платежей. `/invoice subscribe` делает его лентой.",
  notAFeedFallback: "Этот канал не лента платежей.",
  pausedNotInChannel: (channel) =>
    `:pause_button: Лента платежей Kassa в ${channel} остановлена: Kassa больше нет в этом канале. Пригласите её туда командой \`/invite @Kassa\` и снова наберите \`/invoice subscribe\`: лента продолжится с платежей с этого момента (платежи за перерыв не публикуются).`,
  pausedUnreadable: (channel) =>
    `:pause_button: Лента платежей Kassa в ${channel} приостановлена: не удалось прочитать историю счетов платёжного сервиса. Kassa продолжает попытки и возобновит ленту сама, как только сможет; ничего не будет опубликовано дважды.`,
  resumed: (channel) =>
    `:arrow_forward: Лента платежей Kassa в ${channel} снова работает: историю счетов снова удаётся прочитать.`,
  givenUp: (channel, invoice, why) =>
    `:warning: Kassa перестала пытаться опубликовать счёт ${invoice} в ${channel}: ${why === "unreadable" ? "целые сутки платёжный сервис не мог найти этот счёт" : "целые сутки Slack не принимал сообщение"}. Проверьте счёт в личном кабинете платёжного сервиса или командой \`/invoice ${invoice}\`; лента продолжает публиковать следующие платежи.`,
};

export const FEED_TEXT: Record<Lang, FeedText> = { en, ru };
