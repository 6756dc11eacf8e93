import type { Lang } from "./lang.js";
import { counted } from "./plural.js";

/** Why a refund was not asked for (src/listeners/payouts/refund.ts, src/payouts/requests.ts). */
export type RefundRefusalWord =
  | "not_paid"
  | "no_amount"
  | "nothing_left"
  | "over"
  | "currency"
  | "unreadable";

/** Refunds of paid invoices (issue 52): the command, the form, the cards' lines and the report's. */
export type RefundText = {
  usage: string;
  usageFallback: string;
  refusedFallback: string;
  /** "Refund of invoice `ID` (paid 1,500.00 RUB on …)" on the payout's card. */
  ofInvoice: (invoice: string, paid: string, on: string | null) => string;
  /** The invoice card's line once refunds were paid out: "Refunded 500.00 of 1,500.00 RUB". */
  refunded: (refunded: string, paid: string) => string;
  /** The invoice card's line while one is waiting or being sent. */
  onItsWay: (amount: string) => string;
  button: string;
  formTitle: string;
  formIntro: (invoice: string, paid: string, left: string, channel: string) => string;
  amountHint: (left: string) => string;
  walletHint: string;
  send: string;
  refusals: {
    not_paid: (invoice: string, state: string) => string;
    no_amount: (invoice: string) => string;
    nothing_left: (paid: string, refunded: string, onItsWay: string) => string;
    over: (asked: string, left: string, paid: string, refunded: string, onItsWay: string) => string;
    currency: (paid: string, method: string) => string;
    unreadable: string;
  };
  /** The period report's line: refunds paid out in the period, apart from the takings. */
  reportLabel: string;
  reportLine: (count: number, totals: string) => string;
};

export const REFUND_TEXT: Record<Lang, RefundText> = {
  en: {
    usage:
      "To refund a paid invoice: `/payout refund INVOICE_ID [AMOUNT] REASON`, for example `/payout refund 715308962_PaidInFull 500 Customer returned the goods`. Without an amount, what is left to refund is proposed. A form then asks for the wallet to pay the refund to.",
    usageFallback: "Usage: /payout refund INVOICE_ID [AMOUNT] REASON",
    refusedFallback: "Refund not requested",
    ofInvoice: (invoice, paid, on) =>
      `:leftwards_arrow_with_hook: Refund of invoice ${invoice} (paid ${paid}${on ? ` on ${on}` : ""})`,
    refunded: (refunded, paid) => `:leftwards_arrow_with_hook: Refunded ${refunded} of ${paid}`,
    onItsWay: (amount) => `refund of ${amount} on its way`,
    button: "Refund",
    formTitle: "Refund",
    formIntro: (invoice, paid, left, channel) =>
      `Refund of invoice ${invoice}, paid ${paid}: at most ${left} can be refunded. The request goes to ${channel} for approval; nothing is sent before that.`,
    amountHint: (left) => `At most ${left}, in the payment's currency.`,
    walletHint: "Where the refund goes: the customer's card or wallet, as the method expects it.",
    send: "Request",
    refusals: {
      not_paid: (invoice, state) =>
        `Invoice ${invoice} is not paid (its state: ${state}): only a paid invoice can be refunded.`,
      no_amount: (invoice) =>
        `The payment service gives no paid amount for invoice ${invoice}, so Kassa cannot tell how much may be refunded.`,
      nothing_left: (paid, refunded, onItsWay) =>
        `Nothing is left to refund: paid ${paid}, refunded ${refunded}, on its way ${onItsWay}.`,
      over: (asked, left, paid, refunded, onItsWay) =>
        `A refund of ${asked} is more than is left to refund: at most ${left} (paid ${paid}, refunded ${refunded}, on its way ${onItsWay}). Ask for ${left} or less.`,
      currency: (paid, method) =>
        `This invoice was paid in ${paid}, but the method ${method} pays out in another currency: choose a method that pays in ${paid}.`,
      unreadable: "The invoice's refunds cannot be read just now. Try again in a minute.",
    },
    reportLabel: "Refunds paid out",
    reportLine: (count, totals) =>
      `${counted("en", count, { one: "refund", other: "refunds" })}: ${totals} (apart from the takings above, not taken off them)`,
  },
  ru: {
    usage:
      "Чтобы вернуть деньги по оплаченному счёту: `/payout возврат ID_СЧЁТА [СУММА] ПРИЧИНА`, например `/payout возврат 715308962_PaidInFull 500 Покупатель вернул товар`. Без суммы предлагается всё, что ещё можно вернуть. Затем форма спросит кошелёк, на который отправить возврат.",
    usageFallback: "Как писать: /payout возврат ID_СЧЁТА [СУММА] ПРИЧИНА",
    refusedFallback: "Возврат не запрошен",
    ofInvoice: (invoice, paid, on) =>
      `:leftwards_arrow_with_hook: Возврат по счёту ${invoice} (оплачен ${paid}${on ? ` ${on}` : ""})`,
    refunded: (refunded, paid) => `:leftwards_arrow_with_hook: Возвращено ${refunded} из ${paid}`,
    onItsWay: (amount) => `возврат ${amount} в пути`,
    button: "Возврат",
    formTitle: "Возврат",
    formIntro: (invoice, paid, left, channel) =>
      `Возврат по счёту ${invoice}, оплачено ${paid}: вернуть можно не больше ${left}. Запрос уйдёт на одобрение в ${channel}; до этого ничего не отправляется.`,
    amountHint: (left) => `Не больше ${left}, в валюте платежа.`,
    walletHint: "Куда отправить возврат: карта или кошелёк покупателя, в том виде, в каком его ждёт метод.",
    send: "Запросить",
    refusals: {
      not_paid: (invoice, state) =>
        `Счёт ${invoice} не оплачен (его статус: ${state}): вернуть можно только оплаченный счёт.`,
      no_amount: (invoice) =>
        `Платёжный сервис не сообщает оплаченную сумму счёта ${invoice}, поэтому Касса не может сказать, сколько можно вернуть.`,
      nothing_left: (paid, refunded, onItsWay) =>
        `Возвращать больше нечего: оплачено ${paid}, возвращено ${refunded}, в пути ${onItsWay}.`,
      over: (asked, left, paid, refunded, onItsWay) =>
        `Возврат ${asked} больше, чем можно вернуть: не больше ${left} (оплачено ${paid}, возвращено ${refunded}, в пути ${onItsWay}). Запросите ${left} или меньше.`,
      currency: (paid, method) =>
        `Счёт оплачен в ${paid}, а метод ${method} выплачивает в другой валюте: выберите метод, который платит в ${paid}.`,
      unreadable: "Возвраты по счёту сейчас не прочитать. Попробуйте через минуту.",
    },
    reportLabel: "Выплаченные возвраты",
    reportLine: (count, totals) =>
      `${counted("ru", count, { one: "возврат", few: "возврата", many: "возвратов", other: "возврата" })}: ${totals} (отдельно от поступлений выше, не вычтены из них)`,
  },
};
