import type { Lang } from "./lang.js";

// A payment link's life after it was made (issue 51): the create form's "Remind me", the reminder
// before the link expires with its buttons, what Copy link and Stop reminding answer, and the alert
// when a link and its re-issue were both paid.

/** Where a reminder went when its creator could not get it. */
export type RemindedHere = "deactivated" | "workflow";

export type LinkRemindersText = {
  /** The form's select. */
  remind: string;
  remindHint: string;
  remindOff: string;
  /** "1 hour before it expires". */
  remindBefore: (hours: number) => string;
  /** The lifetime is not longer than the reminder's lead: said next to the select. */
  remindNeedsLonger: (hours: number, minutes: number) => string;
  /** `/invoice new … remind WORD` with a lead Kassa does not offer. */
  remindWords: (word: string) => string;
  /** The reminder. `what`: amount and currency; `who`: the customer (or nothing); `when`: the expiry. */
  reminder: (id: string, what: string, when: string) => string;
  customerLine: (customer: string) => string;
  reminderNext: string;
  reminderFallback: (id: string, what: string) => string;
  /** Said above a reminder posted in the card's channel instead of the creator's messages. */
  reminderHere: (why: RemindedHere, creator: string) => string;
  copyLink: string;
  reissue: string;
  stopReminding: string;
  /** Copy link's answer: the URL in a block of code. */
  copied: (id: string, url: string, when: string) => string;
  copiedPaid: (id: string) => string;
  /** Kassa no longer keeps the link (or never had its URL). */
  linkGone: (id: string) => string;
  /** Stop reminding: the reminder's line in the message's place. */
  stopped: (by: string) => string;
  stoppedSchedule: (by: string) => string;
  /** Both the link and its re-issue were paid. */
  paidTwice: (first: string, second: string) => string;
  paidTwiceNext: string;
  paidTwiceFallback: (first: string, second: string) => string;
};

const en: LinkRemindersText = {
  remind: "Remind me",
  remindHint:
    "A message in your messages with Kassa before the link expires, unless it is paid by then. Only for links that live longer than that.",
  remindOff: "Off",
  remindBefore: (hours) => `${hours} ${hours === 1 ? "hour" : "hours"} before it expires`,
  remindNeedsLonger: (hours, minutes) =>
    `A reminder ${hours} ${hours === 1 ? "hour" : "hours"} before the link expires needs a lifetime of more than ${minutes} minutes. Make the lifetime longer, or choose Off.`,
  remindWords: (word) =>
    `Kassa can remind you 1 hour or 6 hours before a payment link expires, not \`${word}\`. Run \`/invoice new\` again with \`remind 1h\` or \`remind 6h\` (or without it, and choose in the form).`,
  reminder: (id, what, when) =>
    `:alarm_clock: The payment link of invoice ${id} for *${what}* expires ${when} and is not paid yet.`,
  customerLine: (customer) => `Customer: ${customer}`,
  reminderNext:
    "Send the payer the link again (*Copy link*), make a new one that lives as long as this one did (*Re-issue*), or press *Stop reminding*. Nothing more comes for this link either way.",
  reminderFallback: (id, what) => `Invoice ${id} for ${what} expires soon and is not paid yet.`,
  reminderHere: (why, creator) =>
    why === "workflow"
      ? "A workflow made this link, so its reminder comes here."
      : `${creator}, who made this link, is no longer in the workspace, so its reminder comes here.`,
  copyLink: "Copy link",
  reissue: "Re-issue",
  stopReminding: "Stop reminding",
  copied: (id, url, when) =>
    `The payment link of invoice ${id}, to copy and send to the payer (it works until ${when}):\n\`\`\`${url}\`\`\``,
  copiedPaid: (id) => `Invoice ${id} is paid already: there is no need to send its link again.`,
  linkGone: (id) =>
    `Kassa no longer keeps the payment link of invoice ${id}. Run \`/invoice ${id}\` to see the invoice.`,
  stopped: (by) => `:no_bell: Reminders stopped by ${by}: no more reminders for this link.`,
  stoppedSchedule: (by) =>
    `:no_bell: Reminders stopped by ${by}: no more reminders for this link, nor for the later invoices of its repeating schedule.`,
  paidTwice: (first, second) =>
    `:warning: *Paid twice:* invoice ${first} and its re-issue ${second} were both paid. One of the payments may need refunding: check with the payer which one to keep.`,
  paidTwiceNext:
    "Kassa refunds nothing by itself. Refund from the payment service's dashboard once you know which payment to keep.",
  paidTwiceFallback: (first, second) =>
    `Paid twice: invoice ${first} and its re-issue ${second} were both paid.`,
};

const ru: LinkRemindersText = {
  remind: "Напомнить",
  remindHint:
    "Сообщение в ваших сообщениях с Kassa перед тем, как ссылка истечёт, если к тому времени счёт не оплачен. Только для ссылок, которые живут дольше этого срока.",
  remindOff: "Не напоминать",
  remindBefore: (hours) => `За ${hours} ${hours === 1 ? "час" : "часов"} до истечения`,
  remindNeedsLonger: (hours, minutes) =>
    `Чтобы напомнить за ${hours} ${hours === 1 ? "час" : "часов"} до истечения ссылки, её срок должен быть больше ${minutes} минут. Увеличьте срок или выберите «Не напоминать».`,
  remindWords: (word) =>
    `Kassa может напомнить за 1 час или за 6 часов до истечения ссылки на оплату, но не \`${word}\`. Запустите \`/invoice new\` ещё раз с \`напомнить 1ч\` или \`напомнить 6ч\` (или без этого и выберите в форме).`,
  reminder: (id, what, when) =>
    `:alarm_clock: Ссылка на оплату счёта ${id} на *${what}* истекает ${when}, а счёт ещё не оплачен.`,
  customerLine: (customer) => `Клиент: ${customer}`,
  reminderNext:
    "Отправьте плательщику ссылку ещё раз (*Скопировать ссылку*), создайте новую с тем же сроком (*Перевыпустить*) или нажмите *Не напоминать*. Других напоминаний об этой ссылке не будет.",
  reminderFallback: (id, what) => `Счёт ${id} на ${what} скоро истечёт и ещё не оплачен.`,
  reminderHere: (why, creator) =>
    why === "workflow"
      ? "Эту ссылку создал рабочий процесс, поэтому напоминание пришло сюда."
      : `${creator}, создавший(ая) эту ссылку, больше не состоит в пространстве, поэтому напоминание пришло сюда.`,
  copyLink: "Скопировать ссылку",
  reissue: "Перевыпустить",
  stopReminding: "Не напоминать",
  copied: (id, url, when) =>
    `Ссылка на оплату счёта ${id}: скопируйте и отправьте плательщику (она работает до ${when}):\n\`\`\`${url}\`\`\``,
  copiedPaid: (id) => `Счёт ${id} уже оплачен: отправлять ссылку ещё раз не нужно.`,
  linkGone: (id) =>
    `Kassa больше не хранит ссылку на оплату счёта ${id}. Запустите \`/invoice ${id}\`, чтобы посмотреть счёт.`,
  stopped: (by) => `:no_bell: Напоминания отключил(а) ${by}: об этой ссылке больше не напомним.`,
  stoppedSchedule: (by) =>
    `:no_bell: Напоминания отключил(а) ${by}: больше не напомним ни об этой ссылке, ни о следующих счетах её расписания.`,
  paidTwice: (first, second) =>
    `:warning: *Оплачено дважды:* счёт ${first} и его перевыпуск ${second} оба оплачены. Один из платежей, возможно, нужно вернуть: уточните у плательщика, какой оставить.`,
  paidTwiceNext:
    "Сама Kassa ничего не возвращает. Сделайте возврат в кабинете платёжного сервиса, когда будет ясно, какой платёж оставить.",
  paidTwiceFallback: (first, second) =>
    `Оплачено дважды: счёт ${first} и его перевыпуск ${second} оба оплачены.`,
};

export const LINK_REMINDERS_TEXT: Record<Lang, LinkRemindersText> = { en, ru };
