import type { Lang } from "./lang.js";

/** What a request's card says about where it stands (the request's statuses, src/payouts/request-model.ts). */
export type CardStatusWord =
  | "waiting"
  | "approved"
  | "submitting"
  | "submitted"
  | "payed"
  | "failed"
  | "canceled"
  | "rejected"
  | "cancelled"
  | "expired"
  | "changed"
  | "refused"
  | "stopped"
  | "outside";

/**
 * A payout request's card (approval channel), the requester's copy, the notes at its end and the
 * answers to clicks. People, amounts, times and the register arrive formatted (mentions, date tokens).
 */
export type PayoutCardText = {
  /** `register` only where the workspace has several. */
  title: (register?: string) => string;
  asks: (requester: string, amount: string, method: string) => string;
  yourRequest: (amount: string, method: string, channel: string) => string;
  wallet: string;
  amount: string;
  fee: (who: string) => string;
  feeFromAmount: string;
  feeOnTop: string;
  receives: string;
  leaves: string;
  balanceNow: string;
  balanceUnknown: string;
  balanceShort: (balance: string) => string;
  today: (total: string, cap: string) => string;
  expires: (time: string) => string;
  approvals: (given: number, needed: number, who: string) => string;
  reason: string;
  reference: string;
  status: Record<CardStatusWord, string>;
  rejectedBy: (who: string, reason: string) => string;
  cancelledBy: (who: string) => string;
  changedWhat: (what: string) => string;
  serviceSaid: (words: string) => string;
  /** Why an approved payout was not sent after all (it never reached the service). */
  stoppedWhy: {
    payouts_off: string;
    expired: (time: string) => string;
    approver_removed: (who: string) => string;
    /** Sending it today would pass the requester's or the register's daily cap (RUB, formatted). */
    day_cap: (which: "requester" | "register", limit: string, counted: string) => string;
    /** Today's list of requests is full (500). */
    day_full: string;
    /** A batch's row: the policy now asks more approvals than its batch was given. */
    batch_approvals: string;
  };
  approve: string;
  reject: string;
  cancel: string;
  /** An approved payout not yet on its way: stopped as a rejection. */
  stop: string;
  cancelConfirm: { title: string; text: string; confirm: string; deny: string };
  context: (id: string, time: string) => string;
  fallback: (requester: string, amount: string, status: string) => string;
  changedTerms: Record<
    "amount" | "method" | "wallet" | "fee" | "receives" | "leavesBalance" | "state" | "vanished",
    string
  >;
};

const en: PayoutCardText = {
  title: (register) => (register ? `Payout request · ${register}` : "Payout request"),
  asks: (requester, amount, method) => `${requester} asks to pay out *${amount}* by ${method}.`,
  yourRequest: (amount, method, channel) =>
    `Your payout request: *${amount}* by ${method}. Its card is in ${channel}, where the approvers decide.`,
  wallet: "Wallet",
  amount: "Amount",
  fee: (who) => `Fee (${who})`,
  feeFromAmount: "taken from the amount",
  feeOnTop: "on top, from the balance",
  receives: "Recipient gets",
  leaves: "Leaves the balance",
  balanceNow: "Balance when asked",
  balanceUnknown: "not read",
  balanceShort: (balance) =>
    `:warning: The balance (${balance}) is less than what this payout takes from it: the service will refuse it when it is sent.`,
  today: (total, cap) => `Requested today: ${total} of ${cap}`,
  expires: (time) => `Expires ${time}`,
  approvals: (given, needed, who) => `Approvals: ${given} of ${needed}${who ? ` (${who})` : ""}`,
  reason: "Reason",
  reference: "Reference",
  status: {
    waiting: ":hourglass_flowing_sand: Waiting for approval",
    approved: ":white_check_mark: Approved: being sent",
    submitting: ":outbox_tray: Being sent to the service",
    submitted: ":outbox_tray: Sent: the service is paying it out",
    payed: ":moneybag: Paid out",
    failed: ":x: Failed at the service",
    canceled: ":no_entry_sign: Cancelled at the service",
    rejected: ":no_entry: Rejected",
    cancelled: ":no_entry_sign: Cancelled by the requester",
    expired: ":alarm_clock: Expired: not approved in time",
    changed: ":warning: Not sent: the payout changed at the service",
    refused: ":x: Not sent: the service refused it",
    stopped: ":octagonal_sign: Not sent: stopped before it reached the service",
    outside: ":rotating_light: Sent at the service without approval",
  },
  rejectedBy: (who, reason) => `Rejected by ${who}: ${reason}`,
  cancelledBy: (who) => `Cancelled by ${who}.`,
  changedWhat: (what) => `At the service it is no longer the payout approved (${what}); nothing was sent.`,
  serviceSaid: (words) => `The service said: ${words}`,
  stoppedWhy: {
    payouts_off: "Payouts were switched off for this register before it could be sent.",
    expired: (time) => `The request expired (${time}) before it could be sent.`,
    approver_removed: (who) => `${who} approved it but is no longer one of the approvers.`,
    day_cap: (which, limit, counted) =>
      `It was made on an earlier day, and sending it today would pass ${which === "requester" ? "the requester's" : "the register's"} daily cap of ${limit} (${counted} already counted today).`,
    day_full:
      "It was made on an earlier day, and today already has as many payout requests as a day can hold.",
    batch_approvals:
      "The payout policy now asks more approvals than its batch was given; request it again to send it.",
  },
  approve: "Approve",
  reject: "Reject",
  cancel: "Cancel request",
  stop: "Stop payout",
  cancelConfirm: {
    title: "Cancel this payout?",
    text: "The request ends and the service's quote is cancelled. Nothing is paid out.",
    confirm: "Cancel it",
    deny: "Keep it",
  },
  context: (id, time) => `Payout ${id} · requested ${time}`,
  fallback: (requester, amount, status) => `Payout request by ${requester}: ${amount}. ${status}`,
  changedTerms: {
    amount: "the amount",
    method: "the method",
    wallet: "the wallet",
    fee: "the fee",
    receives: "what the recipient gets",
    leavesBalance: "what leaves the balance",
    state: "its state",
    vanished: "it is gone",
  },
};

const ru: PayoutCardText = {
  title: (register) => (register ? `Запрос выплаты · ${register}` : "Запрос выплаты"),
  asks: (requester, amount, method) => `${requester} просит выплатить *${amount}* способом ${method}.`,
  yourRequest: (amount, method, channel) =>
    `Ваш запрос выплаты: *${amount}* способом ${method}. Его карточка в ${channel}, там решают одобряющие.`,
  wallet: "Кошелёк",
  amount: "Сумма",
  fee: (who) => `Комиссия (${who})`,
  feeFromAmount: "из суммы",
  feeOnTop: "сверху, с баланса",
  receives: "Получатель получит",
  leaves: "Спишется с баланса",
  balanceNow: "Баланс при запросе",
  balanceUnknown: "не прочитан",
  balanceShort: (balance) =>
    `:warning: Баланс (${balance}) меньше, чем спишет эта выплата: сервис откажет при отправке.`,
  today: (total, cap) => `Запрошено сегодня: ${total} из ${cap}`,
  expires: (time) => `Истекает ${time}`,
  approvals: (given, needed, who) => `Одобрений: ${given} из ${needed}${who ? ` (${who})` : ""}`,
  reason: "Причина",
  reference: "Основание",
  status: {
    waiting: ":hourglass_flowing_sand: Ждёт одобрения",
    approved: ":white_check_mark: Одобрена, отправляется",
    submitting: ":outbox_tray: Отправляется в сервис",
    submitted: ":outbox_tray: Отправлена: сервис выплачивает",
    payed: ":moneybag: Выплачена",
    failed: ":x: Не прошла в сервисе",
    canceled: ":no_entry_sign: Отменена сервисом",
    rejected: ":no_entry: Отклонена",
    cancelled: ":no_entry_sign: Отменена запросившим",
    expired: ":alarm_clock: Истекла: не одобрена вовремя",
    changed: ":warning: Не отправлена: выплата изменилась в сервисе",
    refused: ":x: Не отправлена: сервис отказал",
    stopped: ":octagonal_sign: Не отправлена: остановлена до отправки в сервис",
    outside: ":rotating_light: Отправлена в сервисе без одобрения",
  },
  rejectedBy: (who, reason) => `Отклонил(а) ${who}: ${reason}`,
  cancelledBy: (who) => `Отменил(а) ${who}.`,
  changedWhat: (what) => `В сервисе это уже не одобренная выплата (${what}); ничего не отправлено.`,
  serviceSaid: (words) => `Сервис ответил: ${words}`,
  stoppedWhy: {
    payouts_off: "Выплаты этой кассы выключили раньше, чем её успели отправить.",
    expired: (time) => `Запрос истёк (${time}) раньше, чем её успели отправить.`,
    approver_removed: (who) => `${who} одобрил(а) её, но больше не входит в число одобряющих.`,
    day_cap: (which, limit, counted) =>
      `Её запросили в один из прошлых дней, а отправка сегодня превысила бы дневной лимит ${which === "requester" ? "запросившего" : "кассы"} ${limit} (сегодня уже учтено ${counted}).`,
    day_full:
      "Её запросили в один из прошлых дней, а на сегодня уже столько запросов выплат, сколько помещается в день.",
    batch_approvals:
      "Правила выплат теперь требуют больше одобрений, чем получил её пакет; запросите её снова, чтобы отправить.",
  },
  approve: "Одобрить",
  reject: "Отклонить",
  cancel: "Отменить запрос",
  stop: "Остановить выплату",
  cancelConfirm: {
    title: "Отменить выплату?",
    text: "Запрос закроется, заявка в сервисе будет отменена. Ничего не будет выплачено.",
    confirm: "Отменить",
    deny: "Оставить",
  },
  context: (id, time) => `Выплата ${id} · запрошена ${time}`,
  fallback: (requester, amount, status) => `Запрос выплаты от ${requester}: ${amount}. ${status}`,
  changedTerms: {
    amount: "сумма",
    method: "способ",
    wallet: "кошелёк",
    fee: "комиссия",
    receives: "сумма к получению",
    leavesBalance: "списание с баланса",
    state: "статус",
    vanished: "её больше нет",
  },
};

export const PAYOUT_CARD_TEXT: Record<Lang, PayoutCardText> = { en, ru };
