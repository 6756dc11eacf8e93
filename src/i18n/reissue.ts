import type { Lang } from "./lang.js";

// Re-issue in one click (issue 51, item 3): the button on an expired unpaid card, the warning before
// expiry, the line on the old card, and what a press or `/invoice reissue ID` answers. Ids and times
// arrive formatted (in code, a Slack date); people as mentions.

export type ReissueText = {
  /** The button on an expired unpaid card, a reminder and `/invoice unpaid`. */
  button: string;
  /** The warning's button: re-issue before the old link expires. */
  anyway: string;
  /** The old card's line once it was re-issued. */
  replaced: (id: string, person: string) => string;
  /** Before expiry: the old link still works until `until`. */
  early: (id: string, until: string) => string;
  earlyFallback: (id: string) => string;
  /** Done: the new invoice's card is in the old card's thread (or the channel, where the old card is unknown). */
  done: (oldId: string, newId: string, inThread: boolean) => string;
  /** Re-issued before (another click, another person); `newId` when the new invoice is known. */
  already: (oldId: string, person: string, newId: string | undefined) => string;
  paid: (id: string) => string;
  /** A payment is under way or came in short (processing, wrong amount): nothing is re-issued. */
  inPayment: (id: string, state: string) => string;
  /** No record of Kassa's (not made in Kassa, made before re-issue existed, or forgotten). */
  notKassa: (id: string) => string;
  /** The link's create answer was lost or refused: nothing to re-issue yet. */
  notCreated: string;
};

const en: ReissueText = {
  button: "Re-issue",
  anyway: "Re-issue anyway",
  replaced: (id, person) => `:repeat: *Replaced by* ${id} (by ${person})`,
  early: (id, until) =>
    `:warning: Invoice ${id} still works until ${until}: its payer can still pay it. A new invoice now means two payment links for one payment, and if both are paid, one payment may need refunding. Press *Re-issue anyway* to make the new one now, or wait until it expires.`,
  earlyFallback: (id) => `Invoice ${id} still works: re-issue anyway?`,
  done: (oldId, newId, inThread) =>
    `:repeat: Invoice ${newId} re-issues ${oldId}: same amount, description, customer, method and lifetime. ${
      inThread ? "Its card is in the old card's thread" : "Its card is in the channel"
    }; send the payer the new link.`,
  already: (oldId, person, newId) =>
    `Invoice ${oldId} was re-issued already by ${person}${
      newId ? ` as ${newId}` : ""
    }, so nothing new was made. Send the payer the new link from its card.`,
  paid: (id) => `Invoice ${id} is paid: there is nothing to re-issue.`,
  inPayment: (id, state) =>
    `Invoice ${id} is ${state}: a payment came in, so it was not re-issued. Look at it again with \`/invoice ${id}\` in a few minutes.`,
  notKassa: (id) =>
    `Invoice ${id} cannot be re-issued in one click: Kassa has no record of making it (made elsewhere, or too long ago). Make a new one with \`/invoice new\`.`,
  notCreated:
    "Kassa is not sure this invoice was made, so there is nothing to re-issue yet. Use *Create now* on its note, or make a new one with `/invoice new`.",
};

const ru: ReissueText = {
  button: "Перевыпустить",
  anyway: "Всё равно перевыпустить",
  replaced: (id, person) => `:repeat: *Заменён счётом* ${id} (перевыпустил(а) ${person})`,
  early: (id, until) =>
    `:warning: Счёт ${id} действует до ${until}: плательщик ещё может его оплатить. Новый счёт сейчас — это две ссылки на одну оплату, и если оплатят обе, один платёж, возможно, придётся вернуть. Нажмите *Всё равно перевыпустить*, чтобы создать новый сейчас, или дождитесь, пока этот истечёт.`,
  earlyFallback: (id) => `Счёт ${id} ещё действует: всё равно перевыпустить?`,
  done: (oldId, newId, inThread) =>
    `:repeat: Счёт ${newId} заменяет ${oldId}: та же сумма, описание, клиент, метод и срок. ${
      inThread ? "Его карточка в ветке старой карточки" : "Его карточка в канале"
    }; отправьте плательщику новую ссылку.`,
  already: (oldId, person, newId) =>
    `Счёт ${oldId} уже перевыпустил(а) ${person}${
      newId ? ` (новый счёт ${newId})` : ""
    }, поэтому новый не создан. Отправьте плательщику новую ссылку из его карточки.`,
  paid: (id) => `Счёт ${id} оплачен: перевыпускать нечего.`,
  inPayment: (id, state) =>
    `Счёт ${id}: ${state}. Платёж уже поступил, поэтому счёт не перевыпущен. Проверьте его снова через несколько минут: \`/invoice ${id}\`.`,
  notKassa: (id) =>
    `Счёт ${id} нельзя перевыпустить одной кнопкой: у Kassa нет записи о нём (создан не в Kassa или слишком давно). Создайте новый: \`/invoice new\`.`,
  notCreated:
    "Kassa не уверена, что этот счёт создан, поэтому перевыпускать пока нечего. Нажмите *Создать сейчас* в её сообщении или создайте новый: `/invoice new`.",
};

export const REISSUE_TEXT: Record<Lang, ReissueText> = { en, ru };
