import { ERROR_TEXT } from "./errors.js";
import type { Lang } from "./lang.js";

export type NotSentReason = "not_connected" | "busy" | "store";
export type FailedReason = "no_answer" | "internal";

/** `/invoice new`: the form, its field errors, and what the creator is told when it cannot do its job. */
export type CreateText = {
  amount: string;
  amountHint: string;
  currency: string;
  currencyHint: string;
  lifetime: string;
  lifetimeHint: (max: number) => string;
  description: string;
  descriptionHint: string;
  customer: string;
  customerHint: string;
  customerLong: (max: number) => string;
  email: string;
  emailHint: string;
  emailForm: string;
  emailNeedsV3: string;
  emailNeedsV3Fallback: string;
  extra: string;
  extraHint: string;
  method: string;
  methodHint: string;
  anyMethod: string;
  title: string;
  submit: string;
  cancel: string;
  enterAmount: string;
  amountForm: string;
  amountPositive: string;
  pickCurrency: string;
  wholeMinutes: (max: number) => string;
  refused: (messages: string) => string;
  notAllowed: string;
  notAllowedFallback: string;
  refusedLine: (what: string, words: string) => string;
  refusedNext: string;
  refusedFallback: (messages: string) => string;
  notSentReasons: Record<NotSentReason, string>;
  notSent: (what: string, why: string) => string;
  notSentFallback: string;
  failedReasons: Record<FailedReason, string>;
  failed: (what: string, why: string) => string;
  failedFallback: string;
  reference: (code: string) => string;
  createdBy: (id: string, user: string) => string;
  createdNoCard: (id: string, link: string, command: string) => string;
  paymentPage: string;
  createdByNote: (user: string) => string;
};

const en: CreateText = {
  amount: "Amount",
  amountHint: "Exact, with a point for decimals: 1500 or 0.0005.",
  currency: "Currency",
  currencyHint: "The payment service converts it to roubles at its own rate.",
  lifetime: "Payment page open for (minutes)",
  lifetimeHint: (max) => `1 to ${max} minutes (3 days).`,
  description: "Description",
  descriptionHint: "Shown to the payer on the payment page.",
  customer: "Customer",
  customerHint:
    "Who it is for: Kassa keeps it and shows it on the card (the payment service is not sent it).",
  customerLong: (max) => `Keep the customer within ${max} characters.`,
  email: "Payer's e-mail",
  emailHint: "Sent to the payment service with the invoice (payer details).",
  emailForm: "Enter one e-mail address, like payer@example.com.",
  emailNeedsV3:
    ":warning: This cash register uses the payment service's API v2, which takes no payer's e-mail. Run `/invoice new` again without `email …` (the customer's name is kept either way), or ask an admin to switch the register to v3 (`/invoice connect`).",
  emailNeedsV3Fallback: "This cash register (API v2) takes no payer's e-mail: run /invoice new without it.",
  extra: "Order reference",
  extraHint: "Your own reference, kept with the invoice (not shown to the payer).",
  method: "Only this payment method",
  methodHint: "Leave empty to let the payer choose.",
  anyMethod: "Any method",
  title: "New invoice",
  submit: "Create",
  cancel: "Cancel",
  enterAmount: "Enter the amount.",
  amountForm:
    "Enter a number like 1500 or 99.90: digits, a point for decimals (at most 8), no spaces or signs.",
  amountPositive: "The amount must be more than 0.",
  pickCurrency: "Pick one of the listed currencies.",
  wholeMinutes: (max) => `Enter whole minutes from 1 to ${max}.`,
  refused: (messages) => `The payment service refused it: ${messages}`,
  notAllowed: `:lock: In this workspace only ${ERROR_TEXT.en.whoMayManage} can create invoices. Ask one of them, or ask an admin to let everyone create them (connection settings, \`/invoice connect\`).`,
  notAllowedFallback: "Only workspace admins and owners can create invoices in this workspace.",
  refusedLine: (what, words) =>
    `:warning: The invoice for ${what} was not created: the payment service answered “${words}”.`,
  refusedNext: "Nothing was posted. Run `/invoice new` again with other values.",
  refusedFallback: (messages) => `The invoice was not created: ${messages}`,
  notSentReasons: {
    not_connected: "this workspace's cash register is no longer connected",
    busy: "the payment service is busy with this cash register's other requests",
    store: "Kassa could not reach its own database, where it writes down every invoice before asking for it",
  },
  notSent: (what, why) =>
    `:warning: The invoice for ${what} was not created: ${why}. Nothing was sent to the payment service; run \`/invoice new\` again in a minute.`,
  notSentFallback: "The invoice was not created; nothing was sent to the payment service.",
  failedReasons: {
    no_answer: "the payment service did not give a usable answer",
    internal: "an error on Kassa's side",
  },
  failed: (what, why) =>
    `:warning: Kassa could not tell whether the invoice for ${what} was created: ${why}. Before trying again, check the cash register's invoices in CrystalPay, so the payer does not get two links.`,
  failedFallback: "Kassa could not tell whether the invoice was created.",
  reference: (code) => `Reference: ${code}`,
  createdBy: (id, user) => `Invoice ${id} was created by ${user}.`,
  createdNoCard: (id, link, command) =>
    `:receipt: Invoice ${id} was created${link}. Its details could not be read just now; ${command} shows them.`,
  paymentPage: "payment page",
  createdByNote: (user) => `Created by ${user}.`,
};

const ru: CreateText = {
  amount: "Сумма",
  amountHint: "Точно, дробная часть через точку: 1500 или 0.0005.",
  currency: "Валюта",
  currencyHint: "Платёжный сервис пересчитает её в рубли по своему курсу.",
  lifetime: "Страница оплаты открыта (минут)",
  lifetimeHint: (max) => `От 1 до ${max} минут (3 дня).`,
  description: "Описание",
  descriptionHint: "Плательщик увидит его на странице оплаты.",
  customer: "Клиент",
  customerHint:
    "Для кого счёт: Kassa хранит это и показывает на карточке (в платёжный сервис не отправляется).",
  customerLong: (max) => `Клиент — не длиннее ${max} символов.`,
  email: "Почта плательщика",
  emailHint: "Отправляется в платёжный сервис вместе со счётом (данные плательщика).",
  emailForm: "Введите один адрес электронной почты, например `payer@example.com`.",
  emailNeedsV3:
    ":warning: Эта касса работает с API v2 платёжного сервиса, а он не принимает почту плательщика. Запустите `/invoice new` снова без `email …` (имя клиента сохраняется и так) или попросите администратора переключить кассу на v3 (`/invoice connect`).",
  emailNeedsV3Fallback:
    "Эта касса (API v2) не принимает почту плательщика: запустите /invoice new без адреса.",
  extra: "Номер заказа",
  extraHint: "Ваша собственная отметка, хранится со счётом (плательщик её не видит).",
  method: "Только этот метод оплаты",
  methodHint: "Оставьте пустым, чтобы плательщик выбрал сам.",
  anyMethod: "Любой метод",
  title: "Новый счёт",
  submit: "Создать",
  cancel: "Отмена",
  enterAmount: "Введите сумму.",
  amountForm:
    "Введите число вроде 1500 или 99.90: цифры, дробная часть через точку (не больше 8 знаков), без пробелов и знаков.",
  amountPositive: "Сумма должна быть больше 0.",
  pickCurrency: "Выберите одну из валют списка.",
  wholeMinutes: (max) => `Введите целое число минут от 1 до ${max}.`,
  refused: (messages) => `Платёжный сервис отклонил счёт: ${messages}`,
  notAllowed: `:lock: В этом рабочем пространстве счета могут создавать только ${ERROR_TEXT.ru.whoMayManage}. Обратитесь к одному из них или попросите администратора открыть создание счетов всем (настройки подключения, \`/invoice connect\`).`,
  notAllowedFallback: "В этом рабочем пространстве счета могут создавать только администраторы и владельцы.",
  refusedLine: (what, words) => `:warning: Счёт на ${what} не создан: платёжный сервис ответил «${words}».`,
  refusedNext: "Ничего не опубликовано. Запустите `/invoice new` снова с другими значениями.",
  refusedFallback: (messages) => `Счёт не создан: ${messages}`,
  notSentReasons: {
    not_connected: "касса этого рабочего пространства больше не подключена",
    busy: "платёжный сервис занят другими запросами этой кассы",
    store:
      "Kassa не смогла обратиться к своей базе данных, где записывает каждый счёт, прежде чем его запросить",
  },
  notSent: (what, why) =>
    `:warning: Счёт на ${what} не создан: ${why}. В платёжный сервис ничего не отправлено; запустите \`/invoice new\` снова через минуту.`,
  notSentFallback: "Счёт не создан; в платёжный сервис ничего не отправлено.",
  failedReasons: {
    no_answer: "платёжный сервис не дал понятного ответа",
    internal: "ошибка на стороне Kassa",
  },
  failed: (what, why) =>
    `:warning: Kassa не может сказать, создан ли счёт на ${what}: ${why}. Прежде чем пробовать снова, проверьте счета кассы в CrystalPay, чтобы плательщик не получил две ссылки.`,
  failedFallback: "Kassa не может сказать, создан ли счёт.",
  reference: (code) => `Код: ${code}`,
  createdBy: (id, user) => `Счёт ${id} создал(а) ${user}.`,
  createdNoCard: (id, link, command) =>
    `:receipt: Счёт ${id} создан${link}. Его подробности сейчас не удалось прочитать; их покажет ${command}.`,
  paymentPage: "страница оплаты",
  createdByNote: (user) => `Создал: ${user}.`,
};

export const CREATE_TEXT: Record<Lang, CreateText> = { en, ru };
