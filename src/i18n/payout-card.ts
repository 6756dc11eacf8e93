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
  | "stopped";

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
  };
  approve: string;
  reject: string;
  cancel: string;
  /** An approved payout not yet on its way: stopped as a rejection. */
  stop: string;
  cancelConfirm: { title: string; text: string; confirm: string; deny: string };
  context: (id: string, time: string) => string;
  fallback: (requester: string, amount: string, status: string) => string;
  notes: {
    payed: (amount: string, wallet: string) => string;
    failed: (amount: string, words: string) => string;
    canceled: string;
    rejected: (who: string, reason: string) => string;
    cancelled: (who: string) => string;
    expired: (time: string) => string;
    changed: (what: string) => string;
    refused: (words: string) => string;
    stopped: (why: string) => string;
    toRequester: (channel: string) => string;
  };
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
  },
  rejectedBy: (who, reason) => `Rejected by ${who}: ${reason}`,
  cancelledBy: (who) => `Cancelled by ${who}.`,
  changedWhat: (what) => `At the service it is no longer the payout approved (${what}); nothing was sent.`,
  serviceSaid: (words) => `The service said: ${words}`,
  stoppedWhy: {
    payouts_off: "Payouts were switched off for this register before it could be sent.",
    expired: (time) => `The request expired (${time}) before it could be sent.`,
    approver_removed: (who) => `${who} approved it but is no longer one of the approvers.`,
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
  notes: {
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
    toRequester: (channel) => `About your payout request (its card is in ${channel}):`,
  },
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
  },
  rejectedBy: (who, reason) => `Отклонил(а) ${who}: ${reason}`,
  cancelledBy: (who) => `Отменил(а) ${who}.`,
  changedWhat: (what) => `В сервисе это уже не одобренная выплата (${what}); ничего не отправлено.`,
  serviceSaid: (words) => `Сервис ответил: ${words}`,
  stoppedWhy: {
    payouts_off: "Выплаты этой кассы выключили раньше, чем её успели отправить.",
    expired: (time) => `Запрос истёк (${time}) раньше, чем её успели отправить.`,
    approver_removed: (who) => `${who} одобрил(а) её, но больше не входит в число одобряющих.`,
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
  notes: {
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
    toRequester: (channel) => `О вашем запросе выплаты (карточка в ${channel}):`,
  },
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
