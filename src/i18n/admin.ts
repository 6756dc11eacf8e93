import { ERROR_TEXT } from "./errors.js";
import type { Lang } from "./lang.js";

/** What a refused person was not allowed to do. */
export const MANAGED_ACTIONS = [
  "connect",
  "disconnect",
  "callback",
  "feed",
  "digest",
  "language",
  "payouts",
  "methods",
  "methodsWatch",
] as const;
export type ManagedAction = (typeof MANAGED_ACTIONS)[number];

/** The connection, `/invoice status` and the refusals of admin actions. Mentions and dates arrive as tokens. */
export type AdminText = {
  notConnected: string;
  connected: (login: string, by: string, when: string, api: string) => string;
  anOperator: string;
  defaultApi: (version: string) => string;
  otherKey: string;
  otherKeyManage: string;
  otherKeyAsk: string;
  otherKeyFallback: string;
  reconnect: string;
  connect: string;
  goes: (privately: boolean) => string;
  watched: (count: number) => string;
  balanceTo: (everyone: boolean) => string;
  creatorsTo: (everyone: boolean) => string;
  workflowsCreate: (allowed: boolean) => string;
  changeIt: string;
  connectIt: string;
  adminsCanChange: string;
  statusFallback: (connected: boolean) => string;
  notConnectedLook: string;
  notConnectedManage: string;
  notConnectedAsk: string;
  notConnectedFallback: string;
  refused: (words: string) => string;
  refusedManage: string;
  refusedAsk: string;
  refusedFallback: (messages: string) => string;
  actions: Record<ManagedAction, string>;
  notAllowed: (what: string) => string;
  notAllowedFallback: (what: string) => string;
  disconnectQuestion: (login: string) => string;
  disconnectFallback: string;
  disconnect: string;
  cancel: string;
  disconnected: (by: string) => string;
  disconnectedFallback: string;
  nothingToDisconnect: string;
  nothingToDisconnectFallback: string;
  languageLine: (name: string) => string;
  languageSet: string;
  languageSetFallback: string;
};

const en: AdminText = {
  notConnected: ":electric_plug: *Not connected.* No cash register is connected to this workspace yet.",
  connected: (login, by, when, api) =>
    `:white_check_mark: *Connected* to cash register ${login} by ${by}, ${when}; API ${api}.`,
  anOperator: "an operator",
  defaultApi: (version) => `${version} (default)`,
  otherKey:
    ":key: *Kassa cannot open this cash register's secret:* it was saved with a different encryption key than the one Kassa is running with now, so no invoice, method list or balance can be read.",
  otherKeyManage:
    "Two ways out: whoever runs Kassa restores the key it ran with when the cash register was connected (then everything works as before), or you reconnect now with the login and secret (settings are kept).",
  otherKeyAsk:
    "A workspace admin can fix it by reconnecting the cash register, or whoever runs Kassa by restoring its earlier key. Ask one of them.",
  otherKeyFallback:
    "Kassa cannot open this workspace's cash register secret: it was saved with a different encryption key. A workspace admin can reconnect it with /invoice connect.",
  reconnect: "Reconnect",
  connect: "Connect",
  goes: (privately) =>
    `Invoice cards and method lists go ${privately ? "privately to the asker (with a Share button)" : "to the channel"}.`,
  watched: (count) => `Invoices being watched for live cards: ${count === 0 ? "none" : count}.`,
  balanceTo: (everyone) =>
    `\`/balance\` is shown to ${everyone ? "everyone in the workspace" : "admins only"}, each time privately to the asker.`,
  creatorsTo: (everyone) =>
    `\`/invoice new\` (creating invoices) is open to ${everyone ? "everyone in the workspace" : "admins only"}.`,
  workflowsCreate: (allowed) =>
    allowed
      ? "Workflows may create invoices (Kassa's `Create invoice` step in Workflow Builder)."
      : "Workflows may not create invoices; Kassa's `Invoice status` step works in any workflow.",
  changeIt: "Change it with `/invoice connect`, or remove it with `/invoice disconnect`.",
  connectIt: "Connect it with `/invoice connect`.",
  adminsCanChange: "Workspace admins and owners can change this.",
  statusFallback: (connected) =>
    connected ? "This workspace is connected to a cash register." : "No cash register is connected.",
  notConnectedLook:
    ":electric_plug: Kassa is not connected to this workspace's cash register yet, so there is nothing to look up.",
  notConnectedManage: "You can connect it now, or with `/invoice connect`.",
  notConnectedAsk: "A workspace admin connects it with `/invoice connect`.",
  notConnectedFallback:
    "Kassa is not connected to this workspace's cash register yet. A workspace admin connects it with /invoice connect.",
  refused: (words) =>
    `:lock: The payment service answered “${words}”: it refused this workspace's cash register login or secret, so nothing can be looked up.`,
  refusedManage: "You can reconnect it with the current login and secret now, or with `/invoice connect`.",
  refusedAsk: "A workspace admin can reconnect it with `/invoice connect`.",
  refusedFallback: (messages) =>
    `The payment service refused the cash register's login or secret (${messages}). A workspace admin can reconnect it with /invoice connect.`,
  actions: {
    connect: "connect the cash register",
    disconnect: "disconnect the cash register",
    callback: "change the payment notification address",
    feed: "change which channels get the payment feed",
    digest: "set the daily summary",
    language: "change the language Kassa writes in",
    payouts: "set up payouts",
    methods: "switch payment methods or change their surcharges",
    methodsWatch: "set up the payment methods watch",
  },
  notAllowed: (what) => `:lock: Only ${ERROR_TEXT.en.whoMayManage} can ${what}. Ask one of them.`,
  notAllowedFallback: (what) => `Only workspace admins and owners can ${what}.`,
  disconnectQuestion: (login) =>
    `Disconnect cash register ${login}? Its stored credentials are deleted; \`/invoice\`, \`/paymethods\` and \`/balance\` stop working until someone connects again.`,
  disconnectFallback: "Disconnect the cash register?",
  disconnect: "Disconnect",
  cancel: "Cancel",
  disconnected: (by) =>
    `:electric_plug: Disconnected by ${by}: the credentials are deleted. \`/invoice connect\` connects a cash register again.`,
  disconnectedFallback: "The cash register was disconnected.",
  nothingToDisconnect: "No cash register is connected, so there is nothing to disconnect.",
  nothingToDisconnectFallback: "Nothing to disconnect.",
  languageLine: (name) => `Language: ${name} (\`/invoice language ru|en\` changes it).`,
  languageSet:
    ":white_check_mark: Kassa now writes in English in this workspace: cards, live updates, the feed and replies. `/invoice language ru` switches to Russian.",
  languageSetFallback: "Kassa now writes in English in this workspace.",
};

const ru: AdminText = {
  notConnected: ":electric_plug: *Не подключено.* К этому рабочему пространству пока не подключена касса.",
  connected: (login, by, when, api) =>
    `:white_check_mark: *Подключена* касса ${login}, подключил(а) ${by}, ${when}; API ${api}.`,
  anOperator: "оператор",
  defaultApi: (version) => `${version} (по умолчанию)`,
  otherKey:
    ":key: *Kassa не может открыть секрет этой кассы:* он сохранён с другим ключом шифрования, не тем, с которым Kassa работает сейчас, поэтому ни счета, ни методы, ни баланс прочитать нельзя.",
  otherKeyManage:
    "Два выхода: тот, кто обслуживает Kassa, возвращает ключ, с которым она работала при подключении кассы (и всё заработает как прежде), или вы подключаете кассу заново с логином и секретом (настройки сохранятся).",
  otherKeyAsk:
    "Администратор рабочего пространства может исправить это, подключив кассу заново, или тот, кто обслуживает Kassa, — вернув прежний ключ. Обратитесь к одному из них.",
  otherKeyFallback:
    "Kassa не может открыть секрет кассы этого рабочего пространства: он сохранён с другим ключом шифрования. Администратор может подключить кассу заново командой /invoice connect.",
  reconnect: "Подключить заново",
  connect: "Подключить",
  goes: (privately) =>
    `Карточки счетов и списки методов ${privately ? "видит только тот, кто спросил (с кнопкой «Показать в канале»)" : "публикуются в канале"}.`,
  watched: (count) => `Счетов, отслеживаемых в реальном времени: ${count === 0 ? "нет" : count}.`,
  balanceTo: (everyone) =>
    `\`/balance\` ${everyone ? "доступна всем в рабочем пространстве" : "доступна только администраторам"}, ответ каждый раз видит только спросивший.`,
  creatorsTo: (everyone) =>
    `\`/invoice new\` (создание счетов) ${everyone ? "доступна всем в рабочем пространстве" : "доступна только администраторам"}.`,
  workflowsCreate: (allowed) =>
    allowed
      ? "Процессы могут создавать счета (шаг Kassa `Create invoice` в конструкторе процессов)."
      : "Процессам не разрешено создавать счета; шаг Kassa `Invoice status` работает в любом процессе.",
  changeIt: "Изменить подключение — `/invoice connect`, отключить — `/invoice disconnect`.",
  connectIt: "Подключить — `/invoice connect`.",
  adminsCanChange: "Изменить это могут администраторы и владельцы рабочего пространства.",
  statusFallback: (connected) =>
    connected ? "К этому рабочему пространству подключена касса." : "Касса не подключена.",
  notConnectedLook:
    ":electric_plug: Kassa пока не подключена к кассе этого рабочего пространства, поэтому смотреть нечего.",
  notConnectedManage: "Вы можете подключить её сейчас или командой `/invoice connect`.",
  notConnectedAsk: "Администратор рабочего пространства подключает её командой `/invoice connect`.",
  notConnectedFallback:
    "Kassa пока не подключена к кассе этого рабочего пространства. Администратор подключает её командой /invoice connect.",
  refused: (words) =>
    `:lock: Платёжный сервис ответил «${words}»: он не принял логин или секрет кассы этого рабочего пространства, поэтому ничего нельзя посмотреть.`,
  refusedManage:
    "Вы можете подключить кассу заново с действующими логином и секретом сейчас или командой `/invoice connect`.",
  refusedAsk:
    "Администратор рабочего пространства может подключить кассу заново командой `/invoice connect`.",
  refusedFallback: (messages) =>
    `Платёжный сервис не принял логин или секрет кассы (${messages}). Администратор может подключить её заново командой /invoice connect.`,
  actions: {
    connect: "подключать кассу",
    disconnect: "отключать кассу",
    callback: "менять адрес уведомлений о платежах",
    feed: "менять, в какие каналы приходит лента платежей",
    digest: "настраивать ежедневную сводку",
    language: "менять язык, на котором пишет Kassa",
    payouts: "настраивать выплаты",
    methods: "включать и отключать методы оплаты и менять их наценку",
    methodsWatch: "настраивать наблюдение за методами оплаты",
  },
  notAllowed: (what) =>
    `:lock: ${what[0]?.toUpperCase()}${what.slice(1)} могут только ${ERROR_TEXT.ru.whoMayManage}. Обратитесь к одному из них.`,
  notAllowedFallback: (what) =>
    `${what[0]?.toUpperCase()}${what.slice(1)} могут только администраторы и владельцы рабочего пространства.`,
  disconnectQuestion: (login) =>
    `Отключить кассу ${login}? Сохранённые данные доступа будут удалены; \`/invoice\`, \`/paymethods\` и \`/balance\` перестанут работать, пока кассу не подключат снова.`,
  disconnectFallback: "Отключить кассу?",
  disconnect: "Отключить",
  cancel: "Отмена",
  disconnected: (by) =>
    `:electric_plug: Касса отключена, отключил(а) ${by}: данные доступа удалены. \`/invoice connect\` подключает кассу снова.`,
  disconnectedFallback: "Касса отключена.",
  nothingToDisconnect: "Касса не подключена, отключать нечего.",
  nothingToDisconnectFallback: "Отключать нечего.",
  languageLine: (name) => `Язык: ${name} (\`/invoice language ru|en\` меняет его).`,
  languageSet:
    ":white_check_mark: Теперь Kassa пишет в этом рабочем пространстве по-русски: карточки, обновления, лента и ответы. `/invoice language en` переключает на английский.",
  languageSetFallback: "Теперь Kassa пишет в этом рабочем пространстве по-русски.",
};

export const ADMIN_TEXT: Record<Lang, AdminText> = { en, ru };
