import type { Lang } from "./lang.js";

/**
 * Kassa's Workflow Builder steps: what a step run that could not do its job says (Slack shows it to
 * the workflow's people in the run's activity, as plain text), and the words of its outputs.
 */
export type StepsText = {
  /** "Amount “abc”: Enter a number like …": one wrong input, named as Workflow Builder names it. */
  input: (label: string, given: string, problem: string) => string;
  inputLabels: {
    amount: string;
    currency: string;
    lifetime: string;
    invoice: string;
    customer: string;
    email: string;
    remind: string;
  };
  /** The reminder input holds something else than 1h or 6h. */
  remindChoices: string;
  /** An e-mail given for a register on API v2, which takes none. */
  emailNeedsV3: string;
  badInputs: (problems: string) => string;
  /** Inputs whose values are of the wrong kind (not text, not a channel or a person). */
  unreadable: (names: string) => string;
  currencies: (list: string) => string;
  /** The invoice input is neither an invoice id nor a payment page link. */
  notAnInvoice: string;
  unknownRegister: (name: string) => string;
  notAllowed: string;
  notConnected: string;
  credentialsKey: string;
  credentialsRefused: (words: string) => string;
  refused: (words: string) => string;
  storeDown: string;
  busy: string;
  mayExist: (reference: string) => string;
  internalCreate: (reference: string) => string;
  notFound: (id: string) => string;
  statusRefused: (words: string) => string;
  statusUnavailable: (reference: string) => string;
  statusInternal: (reference: string) => string;
  /** The card_problem output: the invoice stands, its card is not in the workflow's channel. */
  cardProblem: (why: string) => string;
  cardWhy: {
    /** Kassa is not in the channel, or cannot see it (gone, or private without Kassa). */
    not_in_channel: string;
    archived: string;
    /** The new invoice could not be read back from the payment service. */
    unreadable: string;
    failed: string;
  };
};

const en: StepsText = {
  input: (label, given, problem) => `${label}${given ? ` “${given}”` : ""}: ${problem}`,
  inputLabels: {
    amount: "Amount",
    currency: "Currency",
    lifetime: "Payment page open for (minutes)",
    invoice: "Invoice",
    customer: "Customer",
    email: "Payer's e-mail",
    remind: "Remind before expiry",
  },
  remindChoices: "Use 1h or 6h, or leave it empty for no reminder.",
  emailNeedsV3:
    "Kassa created no invoice: this cash register uses the payment service's API v2, which takes no payer's e-mail. Leave the Payer's e-mail input empty, or switch the register to v3 (/invoice connect), and run the workflow again.",
  badInputs: (problems) =>
    `Kassa created no invoice. ${problems} Change the step's inputs in Workflow Builder and run the workflow again.`,
  unreadable: (names) => `Kassa could not read these inputs of the step: ${names}.`,
  currencies: (list) => `Use one of ${list} (RUB when left empty).`,
  unknownRegister: (name) =>
    `This workspace has no cash register named "${name}": leave the Register input empty for main, or use one of the names /invoice status lists.`,
  notAnInvoice:
    "Kassa could not read the invoice input: give an invoice id (like 715308958_rPwTzvsvCm) or its payment page link.",
  notAllowed:
    "Kassa created no invoice: in this workspace workflows may not create invoices. A workspace admin can allow it in Kassa's connection settings (/invoice connect, “Workflows may create invoices”).",
  notConnected:
    "This workspace has not connected its cash register to Kassa yet, so nothing was sent to the payment service. A workspace admin connects it with /invoice connect; then run the workflow again.",
  credentialsKey:
    "Kassa cannot open this workspace's cash register secret: it was saved with a different encryption key. Nothing was sent to the payment service. Ask whoever runs Kassa to restore the key, or a workspace admin to reconnect with /invoice connect.",
  credentialsRefused: (words) =>
    `The payment service refused this workspace's cash register login or secret (“${words}”), so nothing was done. A workspace admin can reconnect it with /invoice connect.`,
  refused: (words) =>
    `The payment service refused the invoice: “${words}”. Nothing was created; change the step's inputs (amount, currency, minutes) and run the workflow again.`,
  storeDown:
    "Kassa created no invoice: it could not reach its own database, which makes sure each run creates one invoice only. Run the workflow again in a few minutes.",
  busy: "Kassa created no invoice: the payment service is busy with this cash register's other requests, and nothing was sent. Run the workflow again in a minute.",
  mayExist: (reference) =>
    `Kassa could not tell whether the invoice was created: the payment service gave no usable answer. Kassa looks for it in the cash register's history for a day; if it was made, its card is posted in the step's channel and the person the step names is told. Before running the workflow again, look at the newest invoices (/invoice list) so the payer does not get two links. Reference: ${reference}`,
  internalCreate: (reference) =>
    `Kassa could not finish this step because of an error on its side, and cannot tell whether the invoice was created. Look at the newest invoices (/invoice list) before running the workflow again. Reference: ${reference}`,
  notFound: (id) =>
    `This workspace's cash register has no invoice ${id}. Check the id the workflow gave, or give the invoice's payment page link instead.`,
  statusRefused: (words) => `The payment service refused to show the invoice: “${words}”.`,
  statusUnavailable: (reference) =>
    `The payment service did not give a usable answer in time, so the invoice's state is unknown. Run the workflow again in a few minutes. Reference: ${reference}`,
  statusInternal: (reference) =>
    `Kassa could not read the invoice because of an error on its side. Run the workflow again; if it keeps failing, tell whoever runs Kassa. Reference: ${reference}`,
  cardProblem: (why) =>
    `Kassa could not post the invoice's card: ${why}. The invoice was created and its payment link works; send the link another way, and fix the step's channel for the next runs.`,
  cardWhy: {
    not_in_channel:
      "Kassa is not a member of the channel, or cannot see it (add it with /invite @Kassa; a deleted channel cannot take it)",
    archived: "the channel is archived",
    unreadable: "the payment service did not show the new invoice back in time",
    failed: "Slack did not take the message",
  },
};

const ru: StepsText = {
  input: (label, given, problem) => `${label}${given ? ` «${given}»` : ""}: ${problem}`,
  inputLabels: {
    amount: "Сумма",
    currency: "Валюта",
    lifetime: "Страница оплаты открыта (минут)",
    invoice: "Счёт",
    customer: "Клиент",
    email: "Почта плательщика",
    remind: "Напомнить до истечения",
  },
  remindChoices: "Укажите 1ч или 6ч, или оставьте пустым, чтобы не напоминать.",
  emailNeedsV3:
    "Kassa не создала счёт: эта касса работает с API v2 платёжного сервиса, а он не принимает почту плательщика. Оставьте поле «Почта плательщика» пустым или переключите кассу на v3 (/invoice connect) и запустите процесс снова.",
  badInputs: (problems) =>
    `Kassa не создала счёт. ${problems} Исправьте данные шага в конструкторе процессов и запустите процесс снова.`,
  unreadable: (names) => `Kassa не смогла прочитать эти данные шага: ${names}.`,
  currencies: (list) => `Укажите одну из валют: ${list} (если пусто — RUB).`,
  unknownRegister: (name) =>
    `В этом пространстве нет кассы «${name}»: оставьте поле «Касса» пустым для \`main\` или укажите имя из \`/invoice status\`.`,
  notAnInvoice:
    "Kassa не поняла, какой это счёт: укажите номер счёта (например, 715308958_rPwTzvsvCm) или ссылку на его страницу оплаты.",
  notAllowed:
    "Kassa не создала счёт: в этом рабочем пространстве процессам не разрешено создавать счета. Администратор может разрешить это в настройках подключения Kassa (/invoice connect, «Процессы могут создавать счета»).",
  notConnected:
    "Это рабочее пространство ещё не подключило кассу к Kassa, поэтому в платёжный сервис ничего не отправлено. Администратор подключает её командой /invoice connect; после этого запустите процесс снова.",
  credentialsKey:
    "Kassa не может открыть секрет кассы этого рабочего пространства: он сохранён с другим ключом шифрования. В платёжный сервис ничего не отправлено. Попросите того, кто обслуживает Kassa, вернуть ключ, или администратора переподключить кассу командой /invoice connect.",
  credentialsRefused: (words) =>
    `Платёжный сервис отклонил логин или секрет кассы этого рабочего пространства («${words}»), поэтому ничего не сделано. Администратор может переподключить её командой /invoice connect.`,
  refused: (words) =>
    `Платёжный сервис отклонил счёт: «${words}». Ничего не создано; измените данные шага (сумму, валюту, минуты) и запустите процесс снова.`,
  storeDown:
    "Kassa не создала счёт: нет связи с её собственной базой данных, которая следит, чтобы каждый запуск создавал только один счёт. Запустите процесс снова через несколько минут.",
  busy: "Kassa не создала счёт: платёжный сервис занят другими запросами этой кассы, ничего не отправлено. Запустите процесс снова через минуту.",
  mayExist: (reference) =>
    `Kassa не может сказать, создан ли счёт: платёжный сервис не дал понятного ответа. Kassa ищет его в истории кассы в течение суток; если счёт создан, его карточка появится в канале шага, а указанный в шаге человек получит сообщение. Прежде чем запускать процесс снова, посмотрите последние счета (/invoice list), чтобы плательщик не получил две ссылки. Код: ${reference}`,
  internalCreate: (reference) =>
    `Kassa не смогла завершить шаг из-за ошибки на своей стороне и не может сказать, создан ли счёт. Посмотрите последние счета (/invoice list), прежде чем запускать процесс снова. Код: ${reference}`,
  notFound: (id) =>
    `У кассы этого рабочего пространства нет счёта ${id}. Проверьте номер, который передаёт процесс, или укажите ссылку на страницу оплаты счёта.`,
  statusRefused: (words) => `Платёжный сервис отказался показать счёт: «${words}».`,
  statusUnavailable: (reference) =>
    `Платёжный сервис не дал понятного ответа вовремя, поэтому состояние счёта неизвестно. Запустите процесс снова через несколько минут. Код: ${reference}`,
  statusInternal: (reference) =>
    `Kassa не смогла прочитать счёт из-за ошибки на своей стороне. Запустите процесс снова; если ошибка повторяется, сообщите тому, кто обслуживает Kassa. Код: ${reference}`,
  cardProblem: (why) =>
    `Kassa не смогла опубликовать карточку счёта: ${why}. Счёт создан, и ссылка на оплату работает; отправьте её другим способом, а канал шага исправьте для следующих запусков.`,
  cardWhy: {
    not_in_channel:
      "Kassa не участник канала или не видит его (добавьте её командой /invite @Kassa; в удалённый канал её не добавить)",
    archived: "канал в архиве",
    unreadable: "платёжный сервис не показал новый счёт вовремя",
    failed: "Slack не принял сообщение",
  },
};

export const STEPS_TEXT: Record<Lang, StepsText> = { en, ru };
