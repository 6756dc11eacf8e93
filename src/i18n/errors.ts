import type { Lang } from "./lang.js";

/**
 * Replies when something went wrong: each says what happened and what the person can do, in plain
 * words; details (statuses, references) go in a context line. Service words arrive escaped.
 */
export type ErrorText = {
  whoMayManage: string;
  refusalNextStep: string;
  refused: (quoted: string) => string;
  refusedFallback: (messages: string) => string;
  refusedFallbackEnd: string;
  notFound: (id: string) => string;
  notFoundHint: string;
  notFoundFallback: (id: string) => string;
  serviceSaid: (words: string) => string;
  slowDown: (scope: "user" | "team", seconds: number) => string;
  slowDownFallback: (scope: "user" | "team", seconds: number) => string;
  notInstalled: string;
  notInstalledFallback: string;
  httpStatus: (status: number) => string;
  noAnswerWithin: (seconds: number) => string;
  connectionFailed: string;
  notAnswering: string;
  notAnsweringDetails: (what: string, reference: string) => string;
  badAddress: string;
  badAddressFallback: string;
  badAddressDetails: (what: string, reference: string) => string;
  busy: string;
  busyFallback: string;
  busyDetails: string;
  unreadable: string;
  unreadableFallback: (reference: string) => string;
  unreadableDetails: (reference: string) => string;
  storage: string;
  storageDetails: (reference: string) => string;
  internal: string;
  internalFallback: (reference: string) => string;
  internalDetails: (reference: string) => string;
};

const en: ErrorText = {
  whoMayManage:
    "workspace admins and owners, the person who installed Kassa, and the people the Kassa operator has named",
  refusalNextStep:
    "Nothing was changed. Check what you asked for and try again; if the refusal stays, a workspace admin can check the cash register's settings in the payment service's dashboard.",
  refused: (quoted) => `:warning: The payment service refused the request:\n${quoted}`,
  refusedFallback: (messages) => `The payment service refused the request: ${messages}.`,
  refusedFallbackEnd: " Nothing was changed; check and try again.",
  notFound: (id) => `:mag: The payment service has no invoice ${id} for this workspace's cash register.`,
  notFoundHint:
    "Check the id, or paste the invoice's payment link instead: `/invoice https://pay.crystalpay.io/?i=…`.",
  notFoundFallback: (id) => `No invoice ${id} was found. Check the id, or paste the payment link instead.`,
  serviceSaid: (words) => `The payment service said: ${words}`,
  slowDown: (scope, seconds) =>
    `:snail: Slow down: ${scope === "user" ? "you have" : "this workspace has"} sent more commands in the last minute than Kassa allows. Try again in ${seconds} s.`,
  slowDownFallback: (scope, seconds) =>
    `Slow down: ${scope === "user" ? "you have" : "this workspace has"} sent too many commands this minute. Try again in ${seconds} s.`,
  notInstalled:
    ":electric_plug: Kassa is not installed in this workspace (or was uninstalled). A workspace admin can install it again from the link the Kassa operator provides.",
  notInstalledFallback: "Kassa is not installed in this workspace.",
  httpStatus: (status) => `HTTP ${status}`,
  noAnswerWithin: (seconds) => `no answer within ${seconds} s`,
  connectionFailed: "connection failed",
  notAnswering: "The payment service is not answering right now. Try again in a minute.",
  notAnsweringDetails: (what, reference) =>
    `Payment service: ${what}, even after retrying · reference \`${reference}\``,
  badAddress:
    ":warning: Kassa cannot reach the payment service at the address it is set up with, so trying again will not help. Ask the Kassa operator to check it.",
  badAddressFallback:
    "Kassa cannot reach the payment service at its configured address. Ask the Kassa operator.",
  badAddressDetails: (what, reference) =>
    `Payment service: ${what} (operator: check PAYMENTS_API_URL) · reference \`${reference}\``,
  busy: "The payment service is busy: too many lookups for this cash register are waiting, so yours was not sent. Try again in a minute.",
  busyFallback: "The payment service is busy: your lookup was not sent. Try again in a minute.",
  busyDetails:
    "Kassa keeps each cash register under the payment service's request limit; lookups past it wait their turn or, when the wait would be too long, are not sent.",
  unreadable:
    ":warning: The payment service sent an answer Kassa cannot read, so nothing is shown rather than something wrong.",
  unreadableFallback: (reference) =>
    `The payment service sent an answer Kassa cannot read (reference ${reference}).`,
  unreadableDetails: (reference) => `Reference \`${reference}\`: the operator finds the details in the log.`,
  storage: "Kassa's storage is not answering right now. Try again in a minute.",
  storageDetails: (reference) =>
    `Reference \`${reference}\`. If this goes on, tell the person who runs Kassa.`,
  internal:
    "Something went wrong on Kassa's side. Try again; if it keeps happening, tell the Kassa operator.",
  internalFallback: (reference) => `Something went wrong on Kassa's side (reference ${reference}).`,
  internalDetails: (reference) => `Reference \`${reference}\`: the operator finds it in the log.`,
};

const ru: ErrorText = {
  whoMayManage:
    "администраторы и владельцы рабочего пространства, тот, кто установил Kassa, и люди, которых назвал оператор Kassa",
  refusalNextStep:
    "Ничего не изменено. Проверьте запрос и попробуйте снова; если отказ повторяется, администратор рабочего пространства может проверить настройки кассы в личном кабинете платёжного сервиса.",
  refused: (quoted) => `:warning: Платёжный сервис отклонил запрос:\n${quoted}`,
  refusedFallback: (messages) => `Платёжный сервис отклонил запрос: ${messages}.`,
  refusedFallbackEnd: " Ничего не изменено; проверьте и попробуйте снова.",
  notFound: (id) => `:mag: У платёжного сервиса нет счёта ${id} для кассы этого рабочего пространства.`,
  notFoundHint:
    "Проверьте номер счёта или вставьте вместо него ссылку на страницу оплаты: `/invoice https://pay.crystalpay.io/?i=…`.",
  notFoundFallback: (id) => `Счёт ${id} не найден. Проверьте номер или вставьте ссылку на оплату.`,
  serviceSaid: (words) => `Ответ платёжного сервиса: ${words}`,
  slowDown: (scope, seconds) =>
    `:snail: Помедленнее: ${scope === "user" ? "вы отправили" : "это рабочее пространство отправило"} за последнюю минуту больше команд, чем позволяет Kassa. Попробуйте снова через ${seconds} с.`,
  slowDownFallback: (scope, seconds) =>
    `Помедленнее: ${scope === "user" ? "вы отправили" : "это рабочее пространство отправило"} слишком много команд за минуту. Попробуйте снова через ${seconds} с.`,
  notInstalled:
    ":electric_plug: Kassa не установлена в этом рабочем пространстве (или была удалена). Администратор может установить её снова по ссылке от оператора Kassa.",
  notInstalledFallback: "Kassa не установлена в этом рабочем пространстве.",
  httpStatus: (status) => `HTTP ${status}`,
  noAnswerWithin: (seconds) => `нет ответа за ${seconds} с`,
  connectionFailed: "не удалось соединиться",
  notAnswering: "Платёжный сервис сейчас не отвечает. Попробуйте снова через минуту.",
  notAnsweringDetails: (what, reference) =>
    `Платёжный сервис: ${what}, в том числе при повторе · код \`${reference}\``,
  badAddress:
    ":warning: Kassa не может связаться с платёжным сервисом по адресу из своих настроек, поэтому повтор не поможет. Попросите оператора Kassa проверить адрес.",
  badAddressFallback:
    "Kassa не может связаться с платёжным сервисом по адресу из настроек. Обратитесь к оператору Kassa.",
  badAddressDetails: (what, reference) =>
    `Платёжный сервис: ${what} (оператору: проверьте PAYMENTS_API_URL) · код \`${reference}\``,
  busy: "Платёжный сервис занят: для этой кассы в очереди слишком много запросов, поэтому ваш не был отправлен. Попробуйте снова через минуту.",
  busyFallback: "Платёжный сервис занят: ваш запрос не отправлен. Попробуйте снова через минуту.",
  busyDetails:
    "Kassa держит запросы каждой кассы в пределах ограничения платёжного сервиса; запросы сверх него ждут своей очереди, а если ждать пришлось бы слишком долго, не отправляются.",
  unreadable:
    ":warning: Платёжный сервис прислал ответ, который Kassa не может прочитать, поэтому лучше ничего не показывать, чем показать неверное.",
  unreadableFallback: (reference) =>
    `Платёжный сервис прислал ответ, который Kassa не может прочитать (код ${reference}).`,
  unreadableDetails: (reference) => `Код \`${reference}\`: подробности оператор найдёт в журнале.`,
  storage: "Хранилище Kassa сейчас не отвечает. Попробуйте снова через минуту.",
  storageDetails: (reference) =>
    `Код \`${reference}\`. Если это продолжается, сообщите тому, кто обслуживает Kassa.`,
  internal:
    "Что-то пошло не так на стороне Kassa. Попробуйте снова; если ошибка повторяется, сообщите оператору Kassa.",
  internalFallback: (reference) => `Что-то пошло не так на стороне Kassa (код ${reference}).`,
  internalDetails: (reference) => `Код \`${reference}\`: оператор найдёт его в журнале.`,
};

export const ERROR_TEXT: Record<Lang, ErrorText> = { en, ru };
