import { ERROR_TEXT } from "./errors.js";
import type { Lang } from "./lang.js";

/** Why a command's text could not be read: a code from the parsers, words here. */
export const USAGE_REASONS = [
  "subscribe_arg",
  "digest_arg",
  "summary_arg",
  "summary_future",
  "export_arg",
  "list_arg",
  "audit_arg",
  "link_unreadable",
  "link_no_id",
  "link_bad_id",
  "spaces",
  "bad_id",
  "filter_long",
  "language_arg",
  "watch_arg",
  "switch_arg",
  "surcharge_arg",
  "repeat_arg",
] as const;
export type UsageReason = (typeof USAGE_REASONS)[number];

/** Help and usage texts: what each command does, in this workspace. */
export type HelpText = {
  reasons: Record<UsageReason, string>;
  sharedPrivately: (what: string) => string;
  postedInChannel: (what: string) => string;
  dmOnChange: string;
  liveInThread: string;
  invoiceCards: string;
  methodLists: string;
  invoiceHelp: (example: string) => string[];
  invoiceTimes: string;
  invoiceHelpFallback: string;
  invoiceUsageId: (example: string) => string;
  invoiceUsageMore: string;
  invoiceUsageFallback: (reason: string) => string;
  paymethodsHelp: string[];
  paymethodsHelpFallback: string;
  paymethodsUsage: string;
  paymethodsUsageFallback: (reason: string) => string;
};

const en: HelpText = {
  reasons: {
    subscribe_arg:
      "`/invoice subscribe` takes what to post, `paid` (the default), `failures` (failed, wrong-amount and expired unpaid invoices) or `all`, then a rouble amount to start from, in digits: `/invoice subscribe paid over 10000`",
    digest_arg:
      "`/invoice digest` takes a time of day like `09:00` (24-hour), or `off`, and then `weekly` or `monthly` for the week's or the month's report",
    // `2000-01`: FIRST_MONTH_YEAR in reports/periods.ts (a floor above the catalogues).
    summary_arg:
      "`/invoice summary` takes `today` (the default), `yesterday`, `7d`, `30d` or a month from `2000-01` on, like `2026-10`",
    summary_future: "That month has not begun yet: `/invoice summary` takes this month or an earlier one",
    export_arg:
      "`/invoice export` takes a period (`today`, `yesterday`, `7d`, `30d` or a month from `2000-01` on, like `2026-10`) and `csv` (the default) or `xlsx`",
    list_arg: "`/invoice list` takes `paid`, `notpaid` or `all` (the default)",
    audit_arg:
      "`/invoice audit` takes a period (`today`, `7d`, `30d` or a month such as `2026-11`), a person (`@name`) and what to show (`register`, `settings`, `feed`, `invoice`, `export`, `payout`, `act` for refusals), or `verify`, `export [period]`, `channel` (`channel off`)",
    repeat_arg:
      "A repeating invoice ends with `every week` or `every month`, then as you like `on DAY` (a weekday, or a day 1–31), `at HH:MM`, and `until YYYY-MM-DD` or `N times`: `/invoice new 1500 RUB Rent every month on 5 at 10:00 12 times`",
    link_unreadable: "That link cannot be read",
    link_no_id: "That link has no invoice id (`?i=...`)",
    link_bad_id: "The invoice id in that link is not valid",
    spaces: "Give one invoice id, without spaces",
    bad_id: "That is not a valid invoice id",
    filter_long: "A filter is at most 40 characters",
    watch_arg: "The methods watch is `watch` (its form) or `watch off`",
    switch_arg: "Switching takes one method code, for example `off BITCOIN` or `on BITCOIN`",
    surcharge_arg:
      "A surcharge takes a method code and a percent from 0 to 100, for example `surcharge BITCOIN 2.5`",
    language_arg: "`/invoice language` takes `en` (English) or `ru` (Russian)",
  },
  sharedPrivately: (what) =>
    `In this workspace ${what} are shown only to whoever asks, with a *Share in channel* button that posts them for everyone.`,
  postedInChannel: (what) => `In this workspace ${what} are posted in the channel for everyone.`,
  dmOnChange: "When an invoice you looked up changes (paid, expired…), Kassa tells you in a direct message.",
  liveInThread:
    "Invoice cards of unfinished invoices update themselves and tell each change in their thread; *Stop updating* ends it.",
  invoiceCards: "invoice cards",
  methodLists: "method lists",
  invoiceHelp: (example) => [
    "*`/invoice &lt;id&gt;`* shows an invoice of this workspace's cash register: its state, amounts, commissions and times.",
    `• \`/invoice ${example}\`: by invoice id`,
    `• \`/invoice https://pay.crystalpay.io/?i=${example}\`: by payment page link`,
    '• `/invoice new [amount] [currency] [customer NAME] [email ADDRESS] [remind 1h|6h] [description]`: create an invoice (a payment link) in a form, e.g. `/invoice new 1500 USD customer "Acme Ltd" remind 6h Order 10232` (the payer\'s e-mail on API v3 cash registers only; a reminder comes before the link expires, unless it is paid)',
    "• `/invoice reissue ID`: a new invoice with the same amount, customer and lifetime for one Kassa made that expired unpaid; its card goes in the old card's thread",
    "• `/invoice status`: whether a cash register is connected, and by whom",
    "• `/invoice list [paid|notpaid]`: the ten newest invoices, only for you, with Next and Share",
    "• `/invoice unpaid [7d|30d|YYYY-MM] [customer]`: the payment links Kassa made that still wait for payment (30 days by default), by customer with totals, each with Re-issue",
    "• `/invoice summary [today|yesterday|7d|30d|YYYY-MM]`: the period's report: invoices made and paid, the paid total and its change on the period before, the largest payments, the total per method",
    "• `/invoice export [period] [csv|xlsx]`: every invoice of the period in a file sent to your messages with Kassa, for reconciliation (those who may see the balance)",
    "• `/invoice digest HH:MM` in a feed channel: yesterday's summary there each day (admins); `/invoice digest off` stops it",
    "• `/invoice subscribe [paid|failures|all] [over 10000]` in a channel: post every paid invoice there (`failures`: failed, wrong-amount and expired unpaid ones; `all`: every change; `over`: only from that many roubles); `/invoice feed` there: the feed's form (methods, test payments, whom to mention); `/invoice unsubscribe` stops it (admins)",
    "• `/invoice digest HH:MM weekly|monthly` in a channel: the past week's report every Monday, or last month's with its CSV on the 1st (admins); `/invoice digest off weekly|monthly` stops it",
    "• `/invoice language ru|en`: the language Kassa writes in for this workspace (admins)",
  ],
  invoiceTimes: "Times appear in each reader's own timezone; *Refresh* on a card reads the invoice again.",
  invoiceHelpFallback: "/invoice <id> shows an invoice's state, amounts, commissions and times.",
  invoiceUsageId: (example) =>
    `An invoice id is 1 to 64 letters, digits, \`_\` or \`-\` (like \`${example}\`), or paste the payment page link.`,
  invoiceUsageMore: "Type `/invoice help` for more.",
  invoiceUsageFallback: (reason) => `${reason}. Usage: /invoice <id>`,
  paymethodsHelp: [
    "*`/paymethods [filter]`* lists this workspace's payment methods and what each costs: commission percent, fixed fee, extra commission, their sum, and the minimal status level where a method needs one.",
    "• `/paymethods`: all methods, enabled first",
    "• `/paymethods btc`: methods whose code, name or currency contains “btc”",
    "• `/paymethods enabled` or `/paymethods disabled`",
    "*Switching* (admins; a confirmation first, then what the service shows after it):",
    "• `/paymethods off BITCOIN` or `/paymethods on BITCOIN`: switch a method off or on at the service",
    "• `/paymethods surcharge BITCOIN 2.5`: the surcharge payers pay with a method, in percent",
    "*The watch* (admins): `/paymethods watch` opens its form: an alert when a method fails or stops being paid, and a note when a method is changed outside Kassa. `/paymethods watch off` turns it off.",
  ],
  paymethodsHelpFallback: "/paymethods [filter] lists the payment methods and their commissions.",
  paymethodsUsage:
    "Usage: `/paymethods [all | enabled | disabled | part of a code, name or currency]`, `/paymethods off|on CODE`, `/paymethods surcharge CODE PERCENT`, `/paymethods watch [off]`",
  paymethodsUsageFallback: (reason) => `${reason}. Usage: /paymethods [filter]`,
};

const ru: HelpText = {
  reasons: {
    subscribe_arg:
      "`/invoice subscribe` принимает, что публиковать: `оплаченные` (`paid`, по умолчанию), `сбои` (`failures`: ошибки оплаты, неверные суммы и истёкшие без оплаты) или `все` (`all`), затем сумму в рублях цифрами, с которой начинать: `/invoice subscribe оплаченные от 10000`",
    digest_arg:
      "`/invoice digest` принимает время суток, например `09:00` (24 часа), или `off`, а затем `weekly` или `monthly` для отчёта за неделю или месяц",
    summary_arg:
      "`/invoice summary` принимает `today` (по умолчанию), `yesterday`, `7d`, `30d` или месяц начиная с `2000-01`, например `2026-10`",
    summary_future: "Этот месяц ещё не начался: `/invoice summary` принимает текущий месяц или более ранний",
    export_arg:
      "`/invoice export` принимает период (`today`, `yesterday`, `7d`, `30d` или месяц начиная с `2000-01`, например `2026-10`) и `csv` (по умолчанию) или `xlsx`",
    list_arg: "`/invoice list` принимает `paid`, `notpaid` или `all` (по умолчанию)",
    audit_arg:
      "`/invoice audit` принимает период (`today`, `7d`, `30d` или месяц, например `2026-11`), человека (`@имя`) и что показать (`register`, `settings`, `feed`, `invoice`, `export`, `payout`, `act` — отказы), или `verify`, `export [период]`, `channel` (`channel off`)",
    repeat_arg:
      "Повторяющийся счёт заканчивается словами `каждую неделю` или `каждый месяц`, затем по желанию день (день недели или число 1–31), `в ЧЧ:ММ` и `до ГГГГ-ММ-ДД` или `N раз`: `/invoice new 1500 RUB Аренда каждый месяц 5 числа в 10:00 12 раз`",
    link_unreadable: "Эту ссылку не удаётся прочитать",
    link_no_id: "В ссылке нет номера счёта (`?i=...`)",
    link_bad_id: "Номер счёта в ссылке недействителен",
    spaces: "Укажите один номер счёта, без пробелов",
    bad_id: "Это не номер счёта",
    filter_long: "Фильтр — не длиннее 40 символов",
    watch_arg: "Наблюдение за методами: `watch` (форма) или `watch off`",
    switch_arg: "Укажите один код метода, например `off BITCOIN` или `on BITCOIN`",
    surcharge_arg: "Наценка: код метода и процент от 0 до 100, например `surcharge BITCOIN 2.5`",
    language_arg: "`/invoice language` принимает `en` (английский) или `ru` (русский)",
  },
  sharedPrivately: (what) =>
    `В этом рабочем пространстве ${what} видит только тот, кто спросил, с кнопкой *Показать в канале*, которая публикует их для всех.`,
  postedInChannel: (what) => `В этом рабочем пространстве ${what} публикуются в канале для всех.`,
  dmOnChange:
    "Когда счёт, который вы смотрели, меняется (оплачен, истёк…), Kassa пишет вам в личные сообщения.",
  liveInThread:
    "Карточки незавершённых счетов обновляются сами и сообщают о каждом изменении в своей ветке; *Остановить обновления* это прекращает.",
  invoiceCards: "карточки счетов",
  methodLists: "списки методов",
  invoiceHelp: (example) => [
    "*`/invoice &lt;id&gt;`* показывает счёт кассы этого рабочего пространства: статус, суммы, комиссии и время.",
    `• \`/invoice ${example}\`: по номеру счёта`,
    `• \`/invoice https://pay.crystalpay.io/?i=${example}\`: по ссылке на страницу оплаты`,
    "• `/invoice new [сумма] [валюта] [клиент ИМЯ] [email АДРЕС] [напомнить 1ч|6ч] [описание]`: создать счёт (ссылку на оплату) в форме, например `/invoice new 1500 USD клиент «ООО Ромашка» напомнить 6ч Заказ 10232` (почта плательщика — только для касс на API v3; напоминание придёт до истечения ссылки, если счёт не оплачен)",
    "• `/invoice перевыпустить ID` (или `reissue`): новый счёт с той же суммой, клиентом и сроком вместо созданного Kassa и истёкшего без оплаты; его карточка — в ветке старой",
    "• `/invoice status`: подключена ли касса и кем",
    "• `/invoice list [paid|notpaid]`: десять самых новых счетов, только для вас, с кнопками «Вперёд» и «Показать в канале»",
    "• `/invoice unpaid [7d|30d|YYYY-MM] [клиент]` (или `неоплаченные`): ссылки на оплату от Kassa, которые ещё ждут оплаты (по умолчанию за 30 дней), по клиентам с итогами, у каждой кнопка «Перевыпустить»",
    "• `/invoice summary [today|yesterday|7d|30d|YYYY-MM]`: отчёт за период: сколько счетов создано и оплачено, на какую сумму и как это изменилось к прошлому периоду, крупнейшие платежи, суммы по методам",
    "• `/invoice export [период] [csv|xlsx]`: все счета периода файлом в ваши сообщения с Kassa, для сверки (тем, кому виден баланс)",
    "• `/invoice digest HH:MM` в канале ленты: вчерашняя сводка там каждый день (администраторы); `/invoice digest off` её отключает",
    "• `/invoice subscribe [оплаченные|сбои|все] [от 10000]` в канале: публиковать там каждый оплаченный счёт (`сбои`: неоплаченные из-за ошибки, оплаченные на неверную сумму и истёкшие без оплаты; `все`: каждое изменение; `от`: только от этой суммы в рублях); `/invoice feed` там: форма ленты (методы, тестовые платежи, кого упоминать); `/invoice unsubscribe` отключает (администраторы)",
    "• `/invoice digest HH:MM weekly|monthly` в канале: отчёт за прошлую неделю по понедельникам или за прошлый месяц с CSV первого числа (администраторы); `/invoice digest off weekly|monthly` его отключает",
    "• `/invoice language ru|en`: язык, на котором Kassa пишет в этом рабочем пространстве (администраторы)",
  ],
  invoiceTimes: "Время показано в часовом поясе каждого читателя; *Обновить* на карточке читает счёт заново.",
  invoiceHelpFallback: "/invoice <id> показывает статус, суммы, комиссии и время счёта.",
  invoiceUsageId: (example) =>
    `Номер счёта — от 1 до 64 латинских букв, цифр, \`_\` или \`-\` (например, \`${example}\`); можно вставить и ссылку на страницу оплаты.`,
  invoiceUsageMore: "Наберите `/invoice help`, чтобы узнать больше.",
  invoiceUsageFallback: (reason) => `${reason}. Использование: /invoice <номер>`,
  paymethodsHelp: [
    "*`/paymethods [фильтр]`* показывает методы оплаты этого рабочего пространства и их стоимость: процент комиссии, фиксированную комиссию, дополнительную комиссию, итог и минимальный уровень статуса, если метод его требует.",
    "• `/paymethods`: все методы, сначала включённые",
    "• `/paymethods btc`: методы, в коде, названии или валюте которых есть `btc`",
    "• `/paymethods enabled` или `/paymethods disabled`",
    "*Включение и выключение* (администраторы; сначала подтверждение, затем то, что сервис показывает после него):",
    "• `/paymethods off BITCOIN` или `/paymethods on BITCOIN`: выключить или включить метод в сервисе",
    "• `/paymethods surcharge BITCOIN 2.5`: наценка, которую плательщики платят за метод, в процентах",
    "*Наблюдение* (администраторы): `/paymethods watch` открывает его форму: оповещение, когда метод сбоит или по нему перестают платить, и заметка, когда метод меняют в обход Кассы. `/paymethods watch off` выключает его.",
  ],
  paymethodsHelpFallback: "/paymethods [фильтр] показывает методы оплаты и их комиссии.",
  paymethodsUsage:
    "Использование: `/paymethods [all | enabled | disabled | часть кода, названия или валюты]`, `/paymethods off|on КОД`, `/paymethods surcharge КОД ПРОЦЕНТ`, `/paymethods watch [off]`",
  paymethodsUsageFallback: (reason) => `${reason}. Использование: /paymethods [фильтр]`,
};

export const HELP_TEXT: Record<Lang, HelpText> = { en, ru };

/** Who may manage the connection, in a language. */
export const whoMayManage = (lang: Lang) => ERROR_TEXT[lang].whoMayManage;
