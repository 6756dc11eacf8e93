import type { Lang } from "./lang.js";
import { pluralForm } from "./plural.js";

/** The connect modal and its notices. Modal titles and buttons are at most 24 characters. */
export type ConnectText = {
  adminsOnly: string;
  everyone: string;
  intro: string;
  login: string;
  secret: string;
  secretKeep: string;
  secretWhere: string;
  register: string;
  registerHint: string;
  registerChannels: string;
  registerNameInvalid: string;
  registerChannelsHint: string;
  registerFirstIsMain: string;
  salt: string;
  saltKeep: string;
  saltWhy: string;
  apiVersion: string;
  where: string;
  inChannel: string;
  privately: string;
  whoBalance: string;
  whoBalanceHint: string;
  whoCreates: string;
  whoCreatesHint: string;
  workflows: string;
  workflowsHint: string;
  workflowsNo: string;
  workflowsYes: string;
  language: string;
  languageHint: string;
  title: string;
  submit: string;
  cancel: string;
  close: string;
  checkingTitle: string;
  checking: string;
  connectedTitle: string;
  connected: (methods: number) => string;
};

const en: ConnectText = {
  adminsOnly: "Admins only",
  everyone: "Everyone in the workspace",
  intro:
    "Connect this workspace to its CrystalPay cash register. The login and secret are checked with the payment service before anything is saved; the secret is stored encrypted and never shown again.",
  login: "Cash register login",
  secret: "Secret (Secret 1)",
  secretKeep: "Leave blank to keep the stored secret.",
  secretWhere: "From the cash register's settings in CrystalPay.",
  register: "Register name",
  registerHint:
    "Keep it to change this register. A new name adds another cash register to the workspace (letters, digits and -, a letter first); each channel can then use its own.",
  registerChannels: "Only in these channels (optional)",
  registerNameInvalid:
    "A register's name is letters, digits and -, a letter first, at most 20 characters, and not one of Kassa's command words (such as list or summary).",
  registerChannelsHint:
    "Its balance, reports, invoices and exports are then shown in these channels only; leave empty to use it anywhere.",
  registerFirstIsMain:
    "The workspace's first register is named main. Connect it first; another name then adds a second one.",
  salt: "Secret 2 (optional)",
  saltKeep:
    "Stored. Leave blank to keep it. Kassa checks the payment service's payment notifications with it.",
  saltWhy:
    "Turns on instant notifications: Kassa checks the payment service's payment notifications with it. Stored encrypted.",
  apiVersion: "API version",
  where: "Where invoice cards and method lists go",
  inChannel: "In the channel",
  privately: "Privately, with a Share button",
  whoBalance: "Who may see the balance (/balance)",
  whoBalanceHint:
    "Admins: workspace admins and owners, the installer and the operator's list. The reply is always visible only to the asker.",
  whoCreates: "Who may create invoices (/invoice new)",
  whoCreatesHint:
    "Admins: the same people as above. A created invoice is a real payment link of the cash register.",
  workflows: "Workflows may create invoices (Kassa's Workflow Builder step)",
  workflowsHint:
    "Slack does not tell Kassa who runs a workflow, so this is for the whole workspace: any workflow built here with the step may then create invoices. Always on when everyone may create them.",
  workflowsNo: "No",
  workflowsYes: "Yes, any workflow in this workspace",
  language: "Language Kassa writes in",
  languageHint: "For everyone in this workspace: cards, live updates, the feed, replies and this form.",
  title: "Connect cash register",
  submit: "Check and save",
  cancel: "Cancel",
  close: "Close",
  checkingTitle: "Checking…",
  checking:
    ":hourglass_flowing_sand: Checking the login and secret with the payment service. This takes a few seconds.",
  connectedTitle: "Connected",
  connected: (methods) =>
    `The payment service accepted the credentials and lists ${methods} payment method${methods === 1 ? "" : "s"}. Try \`/invoice &lt;id&gt;\` or \`/paymethods\`.`,
};

const ru: ConnectText = {
  adminsOnly: "Только администраторы",
  everyone: "Все в рабочем пространстве",
  intro:
    "Подключите это рабочее пространство к его кассе CrystalPay. Логин и секрет проверяются в платёжном сервисе до сохранения; секрет хранится зашифрованным и больше не показывается.",
  login: "Логин кассы",
  secret: "Секрет (Секрет 1)",
  secretKeep: "Оставьте пустым, чтобы сохранить прежний секрет.",
  secretWhere: "Из настроек кассы в CrystalPay.",
  register: "Имя кассы",
  registerHint:
    "Оставьте, чтобы изменить эту кассу. Новое имя добавит в пространство ещё одну кассу (латинские буквы, цифры и -, первой буква); каждый канал сможет работать со своей.",
  registerChannels: "Только в этих каналах (необязательно)",
  registerNameInvalid:
    "Имя кассы: латинские буквы, цифры и -, первой буква, не длиннее 20 знаков и не одно из слов команд Kassa (например, `list` или `summary`).",
  registerChannelsHint:
    "Её баланс, отчёты, счета и выгрузки будут видны только в этих каналах; оставьте пустым, чтобы использовать её везде.",
  registerFirstIsMain:
    "Первая касса пространства называется `main`. Подключите сначала её; другое имя затем добавит вторую.",
  salt: "Секрет 2 (необязательно)",
  saltKeep:
    "Сохранён. Оставьте пустым, чтобы не менять. С ним Kassa проверяет уведомления о платежах от сервиса.",
  saltWhy:
    "Включает мгновенные уведомления: с ним Kassa проверяет уведомления о платежах от платёжного сервиса. Хранится зашифрованным.",
  apiVersion: "Версия API",
  where: "Куда идут карточки счетов и списки методов",
  inChannel: "В канал",
  privately: "Лично, с кнопкой «Показать в канале»",
  whoBalance: "Кто видит баланс (/balance)",
  whoBalanceHint:
    "Администраторы: администраторы и владельцы рабочего пространства, установивший Kassa и список оператора. Ответ всегда видит только спросивший.",
  whoCreates: "Кто создаёт счета (/invoice new)",
  whoCreatesHint:
    "Администраторы: те же люди, что выше. Созданный счёт — настоящая ссылка на оплату в кассу.",
  workflows: "Процессы могут создавать счета (шаг Kassa для конструктора процессов)",
  workflowsHint:
    "Slack не сообщает Kassa, кто запустил процесс, поэтому это решение для всего рабочего пространства: любой процесс с этим шагом сможет создавать счета. Всегда включено, если создавать счета могут все.",
  workflowsNo: "Нет",
  workflowsYes: "Да, любой процесс в этом рабочем пространстве",
  language: "Язык, на котором пишет Kassa",
  languageHint: "Для всех в этом рабочем пространстве: карточки, обновления, лента, ответы и эта форма.",
  title: "Подключение кассы",
  submit: "Проверить и сохранить",
  cancel: "Отмена",
  close: "Закрыть",
  checkingTitle: "Проверка…",
  checking:
    ":hourglass_flowing_sand: Проверяем логин и секрет в платёжном сервисе. Это займёт несколько секунд.",
  connectedTitle: "Подключено",
  connected: (methods) =>
    `Платёжный сервис принял данные доступа и показывает ${methods} ${pluralForm("ru", methods, { one: "метод", few: "метода", many: "методов", other: "метода" })} оплаты. Попробуйте \`/invoice &lt;номер&gt;\` или \`/paymethods\`.`,
};

export const CONNECT_TEXT: Record<Lang, ConnectText> = { en, ru };
