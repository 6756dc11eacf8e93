import type { AmountKind, CommissionKind } from "../payments/model.js";
import type { Lang } from "./lang.js";

/** Where an invoice stands, as far as its amounts are concerned (blocks/invoice-figures.ts). */
export type MoneyPhase = "due" | "short" | "paid" | "ended" | "unknown";

/** Each phase's label of an amount; undefined: not shown in that phase (it would mislead). */
type PhaseLabels = Record<MoneyPhase, string | undefined>;
const same = (label: string): PhaseLabels => ({
  due: label,
  short: label,
  paid: label,
  ended: label,
  unknown: label,
});

/**
 * The invoice card's words. Labels of the service's states and fields follow its own documentation
 * (CrystalPay's Russian docs for ru). Parameters arrive already escaped (mrkdwn) where they are
 * shown in mrkdwn; plain-text ones (header, fallback) are plain.
 */
export type InvoiceCardText = {
  header: (id: string) => string;
  states: Record<"notpayed" | "processing" | "wrongamount" | "failed" | "payed" | "unavailable", string>;
  expiredState: string;
  unknownState: (codeMrkdwn: string) => string;
  unknownStateHint: string;
  types: Record<"purchase" | "topup", string>;
  state: string;
  type: string;
  was: (stateMrkdwn: string) => string;
  expiredAt: string;
  amounts: Record<AmountKind, PhaseLabels>;
  commissions: Record<CommissionKind, string>;
  currencyConflict: (amountCurrency: string, currency: string) => string;
  currencyUnclear: string;
  method: string;
  requiredMethod: string;
  customer: string;
  anyMethod: string;
  notChosen: string;
  created: string;
  expires: string;
  expired: string;
  final: string;
  commissionFrom: string;
  subtractFrom: Record<"amount" | "balance", string>;
  description: string;
  extra: string;
  openPaymentPage: string;
  refresh: string;
  share: string;
  createdBy: (user: string) => string;
  sharedBy: (user: string) => string;
  updated: (date: string) => string;
  onlyYou: string;
  times: (zone: string, api: string) => string;
  /** "1,500 USD, charged as 122,190 RUB" */
  charged: (entered: string, charged: string) => string;
  /** The notification text: "Invoice X: Paid (expired), amount 1,500.00 RUB, still to pay 0.00 RUB". */
  fallbackTitle: (id: string, state: string, expired: boolean) => string;
  fallbackAmount: (money: string) => string;
};

const en: InvoiceCardText = {
  header: (id) => `Invoice ${id}`,
  states: {
    notpayed: "Not paid",
    processing: "Payment processing",
    wrongamount: "Wrong amount paid (more payment needed)",
    failed: "Payment failed",
    payed: "Paid",
    unavailable: "Payment method unavailable",
  },
  expiredState: "Expired",
  unknownState: (code) => `Unknown state ${code}`,
  unknownStateHint: "_The payment service reported a state Kassa does not know yet._",
  types: { purchase: "Purchase", topup: "Top-up" },
  state: "State",
  type: "Type",
  was: (state) => `_(was: ${state})_`,
  expiredAt: "Expired",
  amounts: {
    amount: same("Invoice amount"),
    rubAmount: same("Amount in RUB"),
    initialAmount: same("Initial amount"),
    payAmount: {
      due: "Amount to pay",
      short: "Amount to pay",
      paid: "Amount paid",
      ended: "Amount that was due",
      unknown: "Pay amount",
    },
    remainingAmount: {
      due: "Still to pay",
      short: "Still to pay (shortfall)",
      paid: undefined,
      ended: undefined,
      unknown: "Remaining amount",
    },
    balanceAmount: {
      due: "To be credited when paid",
      short: "To be credited when paid in full",
      paid: "Credited to balance",
      ended: undefined,
      unknown: "Balance amount",
    },
  },
  commissions: {
    serviceCommission: "Service commission",
    extraCommission: "Extra commission",
    commissionAmount: "Commission",
  },
  currencyConflict: (amountCurrency, currency) =>
    `:warning: The payment service names two currencies for this invoice, ${amountCurrency} (amount currency) and ${currency} (currency), without saying which the amounts are in, so they are shown without one. Check the invoice in the service before relying on them.`,
  currencyUnclear: "(currency unclear)",
  method: "Method",
  requiredMethod: "Required method",
  customer: "Customer",
  anyMethod: "any",
  notChosen: "_not chosen yet_",
  created: "Created",
  expires: "Expires",
  expired: "Expired",
  final: "Final",
  commissionFrom: "Commission taken from",
  subtractFrom: {
    amount: "the invoice amount (the payer covers it)",
    balance: "the cash register's balance (you cover it)",
  },
  description: "Description",
  extra: "Extra",
  openPaymentPage: "Open payment page",
  refresh: "Refresh",
  share: "Share in channel",
  createdBy: (user) => `Created by ${user}.`,
  sharedBy: (user) => `Shared by ${user}.`,
  updated: (date) => `Updated ${date}.`,
  onlyYou: "Only you can see this card.",
  times: (zone, api) => `Times are shown in your own timezone; the service's are ${zone}. API ${api}.`,
  charged: (entered, charged) => `${entered}, charged as ${charged}`,
  fallbackTitle: (id, state, expired) => `Invoice ${id}: ${state}${expired ? " (expired)" : ""}`,
  fallbackAmount: (money) => `amount ${money}`,
};

const ru: InvoiceCardText = {
  header: (id) => `Счёт ${id}`,
  states: {
    notpayed: "Не оплачен",
    processing: "Платёж обрабатывается",
    wrongamount: "Оплачена неверная сумма (нужна доплата)",
    failed: "Ошибка оплаты",
    payed: "Оплачен",
    unavailable: "Метод оплаты недоступен",
  },
  expiredState: "Истёк",
  unknownState: (code) => `Неизвестный статус ${code}`,
  unknownStateHint: "_Платёжный сервис сообщил статус, которого Kassa пока не знает._",
  types: { purchase: "Покупка", topup: "Пополнение" },
  state: "Статус",
  type: "Тип",
  was: (state) => `_(был: ${state})_`,
  expiredAt: "Истёк",
  amounts: {
    amount: same("Сумма счёта"),
    rubAmount: same("Сумма в рублях"),
    initialAmount: same("Исходная сумма"),
    payAmount: {
      due: "Сумма к оплате",
      short: "Сумма к оплате",
      paid: "Оплаченная сумма",
      ended: "Сумма, которая была к оплате",
      unknown: "Сумма оплаты",
    },
    remainingAmount: {
      due: "Осталось оплатить",
      short: "Осталось доплатить",
      paid: undefined,
      ended: undefined,
      unknown: "Остаток",
    },
    balanceAmount: {
      due: "Будет зачислено после оплаты",
      short: "Будет зачислено после полной оплаты",
      paid: "Зачислено на баланс",
      ended: undefined,
      unknown: "Сумма зачисления",
    },
  },
  commissions: {
    serviceCommission: "Комиссия сервиса",
    extraCommission: "Дополнительная комиссия",
    commissionAmount: "Комиссия",
  },
  currencyConflict: (amountCurrency, currency) =>
    `:warning: Платёжный сервис называет для этого счёта две валюты, ${amountCurrency} (валюта суммы) и ${currency} (валюта), и не уточняет, в какой из них суммы, поэтому они показаны без валюты. Проверьте счёт в сервисе, прежде чем на них полагаться.`,
  currencyUnclear: "(валюта не ясна)",
  method: "Метод",
  requiredMethod: "Обязательный метод",
  customer: "Клиент",
  anyMethod: "любой",
  notChosen: "_ещё не выбран_",
  created: "Создан",
  expires: "Действует до",
  expired: "Истёк",
  final: "Завершён",
  commissionFrom: "Комиссия списывается с",
  subtractFrom: {
    amount: "суммы счёта (её оплачивает плательщик)",
    balance: "баланса кассы (её оплачиваете вы)",
  },
  description: "Описание",
  extra: "Дополнительно",
  openPaymentPage: "Открыть страницу оплаты",
  refresh: "Обновить",
  share: "Показать в канале",
  createdBy: (user) => `Создал: ${user}.`,
  sharedBy: (user) => `Показал в канале: ${user}.`,
  updated: (date) => `Обновлено ${date}.`,
  onlyYou: "Эту карточку видите только вы.",
  times: (zone, api) => `Время показано в вашем часовом поясе; у сервиса — ${zone}. API ${api}.`,
  charged: (entered, charged) => `${entered}, к оплате ${charged}`,
  fallbackTitle: (id, state, expired) => `Счёт ${id}: ${state}${expired ? " (истёк)" : ""}`,
  fallbackAmount: (money) => `сумма ${money}`,
};

export const INVOICE_CARD_TEXT: Record<Lang, InvoiceCardText> = { en, ru };
