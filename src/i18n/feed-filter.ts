import type { Lang } from "./lang.js";

/** What a feed can post (the feed's FEED_EVENTS). */
export type FeedEventWord = "paid" | "failed" | "wrongamount" | "expired" | "new";

/** A feed described in words (`/invoice status`, App Home, the feed's messages and replies). */
export type FeedFilterText = {
  /** Each event as a word before "invoices", in the order a list names them. */
  events: Record<FeedEventWord, string>;
  invoices: (list: string) => string;
  /** Every event: said as such rather than listed. */
  everything: string;
  from: (amount: string) => string;
  methods: (codes: string) => string;
  noTests: string;
  mentions: (people: string, when: string) => string;
  mentionFrom: (amount: string) => string;
  mentionEveryPayment: string;
  mentionFailures: string;
  /** The context line under a feed message of a filtered feed: why it is here, and why someone is mentioned. */
  why: (what: string) => string;
  mentionedPayment: (people: string, amount: string | undefined) => string;
  mentionedFailure: (people: string) => string;
  /** A feed message's headline and fallback word for an unpaid invoice whose expiry passed. */
  expiredUnpaid: string;
  expiredUnpaidLower: string;
  settings: string;
};

const en: FeedFilterText = {
  events: {
    new: "new",
    paid: "paid",
    failed: "failed",
    wrongamount: "wrong-amount",
    expired: "expired unpaid",
  },
  invoices: (list) => `${list} invoices`,
  everything: "every new, paid, failed, wrong-amount and expired unpaid invoice",
  from: (amount) => `from ${amount}`,
  methods: (codes) => `paid by ${codes}`,
  noTests: "no test payments",
  mentions: (people, when) => `mentions ${people} ${when}`,
  mentionFrom: (amount) => `from ${amount}`,
  mentionEveryPayment: "on every payment",
  mentionFailures: "on failures",
  why: (what) => `:mag: This channel gets ${what}.`,
  mentionedPayment: (people, amount) =>
    amount ? `${people}: a payment of at least ${amount}.` : `${people}: a payment.`,
  mentionedFailure: (people) => `${people}: a failure.`,
  expiredUnpaid: "Expired unpaid",
  expiredUnpaidLower: "expired unpaid",
  settings: "Settings",
};

const ru: FeedFilterText = {
  events: {
    new: "новые",
    paid: "оплаченные",
    failed: "неоплаченные из-за ошибки",
    wrongamount: "оплаченные на неверную сумму",
    expired: "истёкшие неоплаченные",
  },
  invoices: (list) => `${list} счета`,
  everything:
    "все новые, оплаченные, неоплаченные из-за ошибки, оплаченные на неверную сумму и истёкшие неоплаченные счета",
  from: (amount) => `от ${amount}`,
  methods: (codes) => `оплаченные через ${codes}`,
  noTests: "без тестовых платежей",
  mentions: (people, when) => `с упоминанием ${people} ${when}`,
  mentionFrom: (amount) => `от ${amount}`,
  mentionEveryPayment: "при каждом платеже",
  mentionFailures: "при сбоях",
  why: (what) => `:mag: Этот канал получает ${what}.`,
  mentionedPayment: (people, amount) =>
    amount ? `${people}: платёж не меньше ${amount}.` : `${people}: платёж.`,
  mentionedFailure: (people) => `${people}: сбой.`,
  expiredUnpaid: "Истёк без оплаты",
  expiredUnpaidLower: "истёк без оплаты",
  settings: "Настройки",
};

export const FEED_FILTER_TEXT: Record<Lang, FeedFilterText> = { en, ru };
