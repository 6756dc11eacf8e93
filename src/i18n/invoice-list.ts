import type { Lang } from "./lang.js";

/** `/invoice list`'s words. */
export type InvoiceListText = {
  filters: Record<"all" | "paid" | "notpaid", string>;
  header: (filter: string) => string;
  noMore: string;
  none: (filter: string) => string;
  amountNotGiven: string;
  created: (date: string) => string;
  open: string;
  previous: string;
  next: string;
  share: string;
  notes: (page: number, readAt: string) => string;
  sharedBy: (user: string) => string;
  onlyYou: string;
  fallback: (filter: string, list: string | undefined) => string;
};

const en: InvoiceListText = {
  filters: { all: "", paid: " (paid)", notpaid: " (not paid yet)" },
  header: (filter) => `Recent invoices${filter}`,
  noMore: "No more invoices on this page.",
  none: (filter) => `The cash register's recent history has no invoices${filter}.`,
  amountNotGiven: "_amount not given_",
  created: (date) => `created ${date}`,
  open: "Open",
  previous: "Previous",
  next: "Next",
  share: "Share in channel",
  notes: (page, at) =>
    `Newest first, page ${page}. Read from the payment service ${at}; times are in your own timezone.`,
  sharedBy: (user) => `Shared by ${user}.`,
  onlyYou: "Only you can see this list.",
  fallback: (filter, list) => `Recent invoices${filter}: ${list ?? "none"}`,
};

const ru: InvoiceListText = {
  filters: { all: "", paid: " (оплаченные)", notpaid: " (ещё не оплаченные)" },
  header: (filter) => `Последние счета${filter}`,
  noMore: "На этой странице счетов больше нет.",
  none: (filter) => `В недавней истории кассы нет счетов${filter}.`,
  amountNotGiven: "_сумма не указана_",
  created: (date) => `создан ${date}`,
  open: "Открыть",
  previous: "Назад",
  next: "Вперёд",
  share: "Показать в канале",
  notes: (page, at) =>
    `Сначала новые, страница ${page}. Прочитано из платёжного сервиса ${at}; время — в вашем часовом поясе.`,
  sharedBy: (user) => `Показал в канале: ${user}.`,
  onlyYou: "Этот список видите только вы.",
  fallback: (filter, list) => `Последние счета${filter}: ${list ?? "нет"}`,
};

export const INVOICE_LIST_TEXT: Record<Lang, InvoiceListText> = { en, ru };
