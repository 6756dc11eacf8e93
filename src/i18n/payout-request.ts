import type { Lang } from "./lang.js";

/** Why a request was refused (src/payouts/requests.ts's RequestRefusal kinds). */
export type RequestRefusalWord =
  | "payouts_off"
  | "not_a_requester"
  | "method_not_allowed"
  | "invalid"
  | "not_connected"
  | "service_refused"
  | "quote_mismatch"
  | "no_rub_amount"
  | "rub_amount_wrong"
  | "too_few_approvers"
  | "cap_reached"
  | "too_many_today"
  | "totals_unreadable";

/** `/payout` requests: the form, the one-line form, the modals of Approve and Reject, refusals. */
export type PayoutRequestText = {
  formTitle: string;
  formIntro: (register: string, channel: string) => string;
  send: string;
  close: string;
  method: string;
  methodHint: string;
  methodCode: string;
  wallet: string;
  walletHint: string;
  amount: string;
  amountHint: string;
  feeFrom: string;
  feeOnTop: string;
  feeFromAmount: string;
  reason: string;
  reasonHint: string;
  reference: string;
  usage: string;
  usageFallback: string;
  requested: (channel: string, needed: number) => string;
  requestedFallback: string;
  requestRefusals: {
    payouts_off: (register: string) => string;
    not_a_requester: (who: string) => string;
    admins: string;
    method_not_allowed: (methods: string) => string;
    invalid: Record<"amount" | "method" | "wallet" | "reason" | "reference", string>;
    not_connected: string;
    service_refused: (words: string) => string;
    quote_mismatch: string;
    no_rub_amount: string;
    rub_amount_wrong: (amount: string, rub: string) => string;
    too_few_approvers: (needed: number, approvers: string) => string;
    cap_reached: (which: "requester" | "register", total: string, limit: string, left: string) => string;
    too_many_today: string;
    totals_unreadable: string;
  };
  refusedFallback: string;
  /** An amount not read (readWrittenAmount's reasons): what was typed, why, and how to write it. */
  amountUnread: Record<"empty" | "not_a_number" | "ambiguous" | "zero", (typed: string) => string>;
  duplicate: string;
  /** The same one-line /payout again within seconds (a double Enter). */
  repeated: { requested: (id: string, channel: string) => string; refused: string; underWay: string };
  repeatedFallback: string;
  storeDown: string;
  slowRequest: string;
};

const HOW_EN =
  "Write thousands with spaces or with commas in groups of three (10 000 or 10,000 is ten thousand) and the decimals after a point or a single comma (1500.50 or 1500,50).";
const HOW_RU =
  "Разряды отделяйте пробелами или запятыми по три цифры (10 000 или 10,000 — десять тысяч), а дробную часть — точкой или одной запятой (1500.50 или 1500,50).";

const en: PayoutRequestText = {
  formTitle: "Request a payout",
  formIntro: (register, channel) =>
    `From register ${register}. The approvers decide in ${channel}; nothing is paid out before they do.`,
  send: "Request",
  close: "Close",
  method: "Payout method",
  methodHint: "With its fee and limits, as the service lists them.",
  methodCode: "Payout method code",
  wallet: "Wallet or card",
  walletHint: "As the method expects it. Approvers confirm its last four characters.",
  amount: "Amount",
  amountHint: "In the method's currency, e.g. 1500.50, or 10 000 (10,000 is ten thousand too).",
  feeFrom: "Who pays the fee",
  feeOnTop: "The balance (the recipient gets the full amount)",
  feeFromAmount: "The amount (the recipient gets the amount less the fee)",
  reason: "Reason",
  reasonHint: "What the payout is for: the approvers read it.",
  reference: "Reference (optional)",
  usage:
    "To request a payout: `/payout` opens a form, or in one line `/payout AMOUNT METHOD WALLET REASON`, e.g. `/payout 1500 CARD_RUB 2200700012345678 Supplier invoice 17`.",
  usageFallback: "Request a payout with /payout, or /payout AMOUNT METHOD WALLET REASON.",
  requested: (channel, needed) =>
    `:inbox_tray: Requested. The card is in ${channel}; ${needed === 1 ? "one approval is" : `${needed} approvals are`} needed before anything is sent. You will hear here how it ends.`,
  requestedFallback: "Payout requested: the approvers decide.",
  requestRefusals: {
    payouts_off: (register) =>
      `Payouts are off for register ${register}: an admin turns them on with \`/payout setup\`.`,
    not_a_requester: (who) => `Only ${who} may request payouts from this register.`,
    admins: "the workspace's admins",
    method_not_allowed: (methods) => `That payout method is not allowed here. Allowed: ${methods}.`,
    invalid: {
      amount: "Type the amount as a number above zero, e.g. 1500, 10 000 or 1500.50.",
      method: "Choose a payout method.",
      wallet: "Type the wallet or card the money goes to.",
      reason: "Say what the payout is for (up to 500 characters).",
      reference: "The reference is too long (up to 200 characters).",
    },
    not_connected:
      "This register is not connected, or its Secret 2 is not stored: payouts cannot be signed. An admin can add it in the connect form.",
    service_refused: (words) => `The payment service refused this payout: ${words}. Nothing was requested.`,
    quote_mismatch:
      "The service's quote was not the payout asked for, so it was cancelled and nothing was requested. Try again; if it repeats, tell your admin.",
    no_rub_amount:
      "The service did not say what this payout is in roubles, so the daily caps cannot be counted. Nothing was requested.",
    rub_amount_wrong: (amount, rub) =>
      `The payment service counted ${amount} as ${rub}, which cannot be right, so the daily caps and the approvals needed cannot be counted. Its quote was cancelled and nothing was requested. Try again later; if it repeats, tell your admin.`,
    too_few_approvers: (needed, approvers) =>
      `This payout needs ${needed} approvers besides you, and the policy has ${approvers}. Ask an admin to add approvers.`,
    cap_reached: (which, total, limit, left) =>
      which === "requester"
        ? `This would take your requests today to more than your daily cap (${total} requested of ${limit}). Nothing was requested. ${left} is left of your cap today; an admin can change the cap with \`/payout setup\`.`
        : `This would take the register's payouts today above its daily cap (${total} requested of ${limit}). Nothing was requested. ${left} is left of the register's cap today; an admin can change the cap with \`/payout setup\`.`,
    too_many_today: "Too many payouts were requested from this register today. Try again tomorrow.",
    totals_unreadable:
      "Today's payouts could not be counted, so the caps cannot be checked. Nothing was requested; try again in a minute.",
  },
  refusedFallback: "Payout not requested.",
  amountUnread: {
    empty: () => `Type the amount, e.g. 1500, 10 000 or 1500.50. ${HOW_EN}`,
    not_a_number: (typed) => `${typed} is not an amount. ${HOW_EN} Nothing was requested.`,
    ambiguous: (typed) => `${typed} can be read as more than one amount, so nothing was requested. ${HOW_EN}`,
    zero: (typed) => `${typed} is zero: type an amount above zero. Nothing was requested.`,
  },
  duplicate: "This form was sent already: one request is made for it.",
  repeated: {
    requested: (id, channel) =>
      `:repeat: You sent this same /payout a few seconds ago and it was requested once, as payout ${id} (its card is in ${channel}). Nothing more was requested. To ask for the same payout a second time on purpose, send it again in 10 seconds.`,
    refused:
      ":repeat: You sent this same /payout a few seconds ago and it was refused: its answer is above. Nothing more was asked.",
    underWay:
      ":repeat: You sent this same /payout a few seconds ago and it is still being requested: its answer comes above. Nothing more was asked.",
  },
  repeatedFallback: "The same /payout again: requested once.",
  storeDown: "Kassa's storage is not answering, so nothing was requested. Try again in a minute.",
  slowRequest: "The service is slow: the request goes on, and you will hear here how it went.",
};

const ru: PayoutRequestText = {
  formTitle: "Запрос выплаты",
  formIntro: (register, channel) =>
    `С кассы ${register}. Одобряющие решают в ${channel}; до их решения ничего не выплачивается.`,
  send: "Запросить",
  close: "Закрыть",
  method: "Способ выплаты",
  methodHint: "С комиссией и лимитами, как их называет сервис.",
  methodCode: "Код способа выплаты",
  wallet: "Кошелёк или карта",
  walletHint: "В том виде, как его ждёт способ. Одобряющие подтвердят четыре последних знака.",
  amount: "Сумма",
  amountHint: "В валюте способа, например 1500,50 или 10 000 (10,000 — тоже десять тысяч).",
  feeFrom: "Кто платит комиссию",
  feeOnTop: "Баланс (получатель получит всю сумму)",
  feeFromAmount: "Сумма (получатель получит сумму без комиссии)",
  reason: "Причина",
  reasonHint: "На что выплата: одобряющие это прочтут.",
  reference: "Основание (необязательно)",
  usage:
    "Чтобы запросить выплату: `/payout` открывает форму, или одной строкой `/payout СУММА СПОСОБ КОШЕЛЁК ПРИЧИНА`, например `/payout 1500 CARD_RUB 2200700012345678 Счёт поставщика 17`.",
  usageFallback: "Запросите выплату командой /payout или /payout СУММА СПОСОБ КОШЕЛЁК ПРИЧИНА.",
  requested: (channel, needed) =>
    `:inbox_tray: Запрошено. Карточка в ${channel}; до отправки ${needed === 1 ? "нужно одно одобрение" : `нужно одобрений: ${needed}`}. Чем всё кончится, вы узнаете здесь.`,
  requestedFallback: "Выплата запрошена: решают одобряющие.",
  requestRefusals: {
    payouts_off: (register) =>
      `Выплаты кассы ${register} выключены: администратор включает их командой \`/payout setup\`.`,
    not_a_requester: (who) => `Запрашивать выплаты с этой кассы могут только ${who}.`,
    admins: "администраторы пространства",
    method_not_allowed: (methods) => `Этот способ выплаты здесь не разрешён. Разрешены: ${methods}.`,
    invalid: {
      amount: "Введите сумму числом больше нуля, например 1500, 10 000 или 1500,50.",
      method: "Выберите способ выплаты.",
      wallet: "Введите кошелёк или карту получателя.",
      reason: "Напишите, на что выплата (до 500 знаков).",
      reference: "Основание слишком длинное (до 200 знаков).",
    },
    not_connected:
      "Эта касса не подключена или у неё не сохранён «Секрет 2»: выплаты нечем подписать. Администратор может добавить его в форме подключения.",
    service_refused: (words) => `Платёжный сервис отказал в этой выплате: ${words}. Ничего не запрошено.`,
    quote_mismatch:
      "Заявка сервиса оказалась не той выплатой, что запрошена, поэтому её отменили и ничего не запросили. Попробуйте снова; если повторится, скажите администратору.",
    no_rub_amount:
      "Сервис не сказал, сколько это в рублях, поэтому дневные лимиты не посчитать. Ничего не запрошено.",
    rub_amount_wrong: (amount, rub) =>
      `Платёжный сервис посчитал ${amount} как ${rub}, а так быть не может, поэтому дневные лимиты и число одобрений не посчитать. Его заявка отменена, ничего не запрошено. Попробуйте позже; если повторится, скажите администратору.`,
    too_few_approvers: (needed, approvers) =>
      `Этой выплате нужно одобряющих кроме вас: ${needed}, а в правилах: ${approvers}. Попросите администратора добавить одобряющих.`,
    cap_reached: (which, total, limit, left) =>
      which === "requester"
        ? `Так ваши запросы за сегодня превысят ваш дневной лимит (запрошено ${total} из ${limit}). Ничего не запрошено. Сегодня от вашего лимита осталось ${left}; изменить лимит может администратор командой \`/payout setup\`.`
        : `Так выплаты кассы за сегодня превысят её дневной лимит (запрошено ${total} из ${limit}). Ничего не запрошено. Сегодня от лимита кассы осталось ${left}; изменить лимит может администратор командой \`/payout setup\`.`,
    too_many_today: "С этой кассы сегодня запрошено слишком много выплат. Попробуйте завтра.",
    totals_unreadable:
      "Не удалось посчитать сегодняшние выплаты, поэтому лимиты не проверить. Ничего не запрошено; попробуйте через минуту.",
  },
  refusedFallback: "Выплата не запрошена.",
  amountUnread: {
    empty: () => `Введите сумму, например 1500, 10 000 или 1500,50. ${HOW_RU}`,
    not_a_number: (typed) => `${typed} — не сумма. ${HOW_RU} Ничего не запрошено.`,
    ambiguous: (typed) => `${typed} можно прочесть как разные суммы, поэтому ничего не запрошено. ${HOW_RU}`,
    zero: (typed) => `${typed} — это ноль: введите сумму больше нуля. Ничего не запрошено.`,
  },
  duplicate: "Эта форма уже отправлена: по ней делается один запрос.",
  repeated: {
    requested: (id, channel) =>
      `:repeat: Вы отправили этот же /payout несколько секунд назад, и он запрошен один раз: выплата ${id} (карточка в ${channel}). Больше ничего не запрошено. Чтобы нарочно запросить такую же выплату ещё раз, отправьте её через 10 секунд.`,
    refused:
      ":repeat: Вы отправили этот же /payout несколько секунд назад, и в нём отказано: ответ выше. Больше ничего не запрошено.",
    underWay:
      ":repeat: Вы отправили этот же /payout несколько секунд назад, и он ещё запрашивается: ответ придёт выше. Больше ничего не запрошено.",
  },
  repeatedFallback: "Тот же /payout ещё раз: запрошено один раз.",
  storeDown: "Хранилище Kassa не отвечает, поэтому ничего не запрошено. Попробуйте через минуту.",
  slowRequest: "Сервис отвечает медленно: запрос продолжается, результат придёт сюда.",
};

export const PAYOUT_REQUEST_TEXT: Record<Lang, PayoutRequestText> = { en, ru };
