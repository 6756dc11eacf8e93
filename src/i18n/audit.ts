import type { Lang } from "./lang.js";

/** The audit trail as admins read it in Slack (/invoice audit): each act in words. */
export type AuditText = {
  /** What an act was, after who did it ("<@U1> changed the language"), by action (src/audit/entry.ts). */
  acts: Record<string, string>;
  refused: (what: string, reason: string) => string;
  failed: (reason: string) => string;
  actor: { cli: string; kassa: string; workflow: string };
  title: string;
  none: string;
  context: (shown: number, period: string) => string;
  periods: { all: string; today: string; "7d": string; "30d": string };
  notAllowed: string;
  holds: (count: number, first: string, last: string, head: string) => string;
  empty: string;
  broken: (seq: number, reason: string) => string;
  /** `/invoice audit channel`: this channel now gets the daily head; `off`: no channel does. */
  channelSet: (channel: string) => string;
  channelOff: string;
  channelNotHere: string;
  /** A listing narrowed to one person ("by <@U1>"), and the button to the next, older page. */
  byPerson: (who: string) => string;
  older: string;
  /** A page with nothing of the asked kind among the entries read, older ones still to look at. */
  noneHere: string;
  /** `/invoice audit export`: the files' comment, the reply, and Kassa lacking a permission. */
  exportComment: (entries: number, period: string, truncated: boolean) => string;
  exportSent: (entries: number, period: string) => string;
  exportNeedsScope: string;
  /** The daily post in the audit channel: the chain's head, what an outside copy pins. */
  headTitle: string;
  headText: (seq: number, at: string, hash: string) => string;
  headHint: string;
};

export const AUDIT_TEXT: Record<Lang, AuditText> = {
  en: {
    acts: {
      "register.connected": "connected a cash register",
      "register.edited": "changed a cash register's connection",
      "register.disconnected": "disconnected a cash register",
      "register.channel_set": "chose a channel's cash register",
      "app.installed": "installed Kassa",
      "app.uninstalled": "uninstalled Kassa",
      "settings.language_changed": "changed the language",
      "settings.visibility_changed": "changed where replies go",
      "settings.creators_changed": "changed who may create invoices",
      "settings.workflow_changed": "changed what workflows may do",
      "feed.subscribed": "made a channel a payment feed",
      "feed.unsubscribed": "stopped a payment feed",
      "feed.form_saved": "saved a payment feed's settings",
      "digest.set": "set a digest",
      "callback.rotated": "gave the payment notifications a new address",
      "invoice.created": "created an invoice",
      "invoice.found": "found an invoice whose answer was lost",
      "invoice.reissued": "re-issued an invoice (a new one with the same fields)",
      "schedule.created": "set a repeating invoice",
      "schedule.paused": "paused a repeating invoice",
      "schedule.resumed": "resumed a repeating invoice",
      "schedule.deleted": "deleted a repeating invoice",
      "schedule.ran": "made a repeating invoice's invoice",
      "export.asked": "asked for an export",
      "balance.alert_set": "set a balance alert",
      "balance.alert_removed": "removed a balance alert",
      "payout.policy_changed": "changed the payout policy",
      "payout.requested": "requested a payout",
      "payout.approved": "approved a payout",
      "payout.rejected": "rejected a payout",
      "payout.cancelled": "cancelled a payout",
      "payout.submitted": "sent a payout",
      "payout.ended": "saw a payout end",
      "payout.outside": "saw a payout made outside Kassa",
      "payout.reopened": "asked one more approval of a payout (the policy changed)",
      "refund.asked": "asked for a refund of an invoice",
      "refund.paid": "saw a refund paid out",
      "refund.released": "let go of a refund that was not paid out",
      "recipient.added": "added a payout recipient for approval",
      "recipient.confirmed": "confirmed a payout recipient's wallet",
      "recipient.trusted": "made a payout recipient trusted (two confirmations)",
      "recipient.removed": "removed a trusted payout recipient",
      "batch.requested": "asked for a batch of payouts",
      "batch.rows_dropped": "dropped a payout batch's refused rows",
      "batch.approved": "approved a batch of payouts",
      "batch.rejected": "rejected a batch of payouts",
      "batch.cancelled": "cancelled a batch of payouts",
      "batch.expired": "a batch of payouts expired unapproved",
      "batch.ended": "a batch of payouts ended",
      "method.switched": "switched a payment method on or off at the service",
      "method.surcharge_set": "set a payment method's surcharge at the service",
      "method.outside": "saw a payment method changed outside Kassa",
      "method.watch_set": "set the payment methods watch",
      "method.watch_off": "turned the payment methods watch off",
      "method.snoozed": "snoozed a payment method's alerts",
      "act.refused": "was refused",
      "audit.days_removed": "removed entries past their keeping time",
      "audit.channel_set": "chose the audit channel",
    },
    refused: (what, reason) => `was refused: ${what} (${reason})`,
    failed: (reason) => `failed: ${reason}`,
    actor: { cli: "The CLI", kassa: "Kassa", workflow: "A workflow" },
    title: "Audit trail",
    none: "Nothing was recorded in this period.",
    context: (shown, period) =>
      `${period} · the ${shown} newest, newest first · \`/invoice audit verify\` checks the chain`,
    periods: { all: "All kept entries", today: "Today", "7d": "Last 7 days", "30d": "Last 30 days" },
    notAllowed:
      "Only workspace admins and owners (and the people the operator lists) can read the audit trail. Ask one of them.",
    holds: (count, first, last, head) =>
      `:white_check_mark: The audit trail holds: ${count} entries, from ${first} to ${last}; every entry chains to the one before it. Head hash \`${head}\`.`,
    empty: ":white_check_mark: The audit trail holds: nothing is recorded yet.",
    broken: (seq, reason) =>
      `:warning: The audit trail does not hold from entry ${seq}: ${reason}. Entries before it still chain; tell your operator, who can compare it with the head posted in the audit channel.`,
    channelSet: (channel) =>
      `:white_check_mark: The head of the audit chain will be posted in <#${channel}> once a day. \`/invoice audit channel off\` stops it.`,
    channelOff: ":white_check_mark: The head of the audit chain is no longer posted anywhere.",
    byPerson: (who) => `by ${who}`,
    older: "Older",
    noneHere: "Nothing of this kind among the latest entries read; _Older_ looks further back.",
    channelNotHere:
      "Type `/invoice audit channel` in the channel that should get the audit chain's head (a channel, not a direct message).",
    exportComment: (entries, period, truncated) =>
      `Audit trail, ${period}: ${entries} entries, oldest first, as CSV and JSON Lines (each with its hash and the previous one)${truncated ? "; only the newest fit, ask for a shorter period for the rest" : ""}.`,
    exportSent: (entries, period) =>
      `:white_check_mark: The audit trail of ${period} (${entries} entries) is in your direct messages with Kassa, as CSV and JSON Lines.`,
    exportNeedsScope:
      ":warning: Kassa may not send files or direct messages in this workspace yet. A workspace admin can reinstall Kassa from its Slack app page (it asks for the two permissions) to allow exports.",
    headTitle: "Audit chain head",
    headText: (seq, at, hash) => `Entry ${seq}, recorded ${at}. Head hash:\n\`${hash}\``,
    headHint:
      "Slack keeps this message: if the trail in Kassa's store is ever rewritten, its chain no longer reaches this hash. `/invoice audit verify` checks the chain.",
  },
  ru: {
    acts: {
      "register.connected": "подключил(а) кассу",
      "register.edited": "изменил(а) подключение кассы",
      "register.disconnected": "отключил(а) кассу",
      "register.channel_set": "выбрал(а) кассу канала",
      "app.installed": "установил(а) Kassa",
      "app.uninstalled": "удалил(а) Kassa",
      "settings.language_changed": "сменил(а) язык",
      "settings.visibility_changed": "изменил(а), куда идут ответы",
      "settings.creators_changed": "изменил(а), кто может создавать счета",
      "settings.workflow_changed": "изменил(а), что могут сценарии",
      "feed.subscribed": "сделал(а) канал лентой платежей",
      "feed.unsubscribed": "остановил(а) ленту платежей",
      "feed.form_saved": "сохранил(а) настройки ленты",
      "digest.set": "настроил(а) сводку",
      "callback.rotated": "сменил(а) адрес уведомлений о платежах",
      "invoice.created": "создал(а) счёт",
      "invoice.found": "нашла счёт, ответ о котором потерялся",
      "invoice.reissued": "перевыпустил(а) счёт (новый с теми же полями)",
      "schedule.created": "настроил(а) повторяющийся счёт",
      "schedule.paused": "приостановил(а) повторяющийся счёт",
      "schedule.resumed": "возобновил(а) повторяющийся счёт",
      "schedule.deleted": "удалил(а) повторяющийся счёт",
      "schedule.ran": "создала счёт по расписанию",
      "export.asked": "запросил(а) выгрузку",
      "balance.alert_set": "включил(а) оповещение о балансе",
      "balance.alert_removed": "выключил(а) оповещение о балансе",
      "payout.policy_changed": "изменил(а) правила выплат",
      "payout.requested": "запросил(а) выплату",
      "payout.approved": "одобрил(а) выплату",
      "payout.rejected": "отклонил(а) выплату",
      "payout.cancelled": "отменил(а) выплату",
      "payout.submitted": "отправил(а) выплату",
      "payout.ended": "выплата завершилась",
      "payout.outside": "увидела выплату в обход Кассы",
      "payout.reopened": "запросила ещё одно одобрение выплаты (политика изменилась)",
      "refund.asked": "запросил(а) возврат по счёту",
      "refund.paid": "увидела, что возврат выплачен",
      "refund.released": "освободила сумму невыплаченного возврата",
      "recipient.added": "добавил(а) получателя выплат на подтверждение",
      "recipient.confirmed": "подтвердил(а) кошелёк получателя выплат",
      "recipient.trusted": "сделала получателя выплат доверенным (два подтверждения)",
      "recipient.removed": "удалил(а) доверенного получателя выплат",
      "batch.requested": "запросил(а) пакет выплат",
      "batch.rows_dropped": "убрал(а) отклонённые строки пакета выплат",
      "batch.approved": "одобрил(а) пакет выплат",
      "batch.rejected": "отклонил(а) пакет выплат",
      "batch.cancelled": "отменил(а) пакет выплат",
      "batch.expired": "пакет выплат истёк без одобрения",
      "batch.ended": "пакет выплат завершён",
      "method.switched": "включил(а) или выключил(а) метод оплаты в сервисе",
      "method.surcharge_set": "изменил(а) наценку метода оплаты в сервисе",
      "method.outside": "увидела изменение метода оплаты в обход Кассы",
      "method.watch_set": "настроил(а) наблюдение за методами оплаты",
      "method.watch_off": "выключил(а) наблюдение за методами оплаты",
      "method.snoozed": "отложил(а) оповещения о методе оплаты",
      "act.refused": "получил(а) отказ",
      "audit.days_removed": "удалил(а) записи, чей срок хранения истёк",
      "audit.channel_set": "выбрал(а) канал журнала",
    },
    refused: (what, reason) => `получил(а) отказ: ${what} (${reason})`,
    failed: (reason) => `не удалось: ${reason}`,
    actor: { cli: "Через CLI", kassa: "Kassa", workflow: "Сценарий" },
    title: "Журнал действий",
    none: "За этот период ничего не записано.",
    context: (shown, period) =>
      `${period} · ${shown} последних, новые сверху · \`/invoice audit verify\` проверяет цепочку`,
    periods: {
      all: "Все хранимые записи",
      today: "Сегодня",
      "7d": "Последние 7 дней",
      "30d": "Последние 30 дней",
    },
    notAllowed:
      "Журнал действий могут читать только администраторы и владельцы пространства (и люди из списка оператора). Обратитесь к ним.",
    holds: (count, first, last, head) =>
      `:white_check_mark: Журнал цел: записей ${count}, с ${first} по ${last}; каждая запись сцеплена с предыдущей. Хеш вершины \`${head}\`.`,
    empty: ":white_check_mark: Журнал цел: записей пока нет.",
    broken: (seq, reason) =>
      `:warning: Журнал нарушен начиная с записи ${seq}: ${reason}. Записи до неё сцеплены; сообщите оператору — он сверит журнал с вершиной, опубликованной в канале журнала.`,
    channelSet: (channel) =>
      `:white_check_mark: Вершина цепочки журнала будет публиковаться в <#${channel}> раз в день. \`/invoice audit channel off\` отключает это.`,
    channelOff: ":white_check_mark: Вершина цепочки журнала больше нигде не публикуется.",
    byPerson: (who) => `действия ${who}`,
    older: "Раньше",
    noneHere: "Среди последних прочитанных записей таких нет; «Раньше» ищет дальше в прошлом.",
    channelNotHere:
      "Наберите `/invoice audit channel` в том канале, куда публиковать вершину цепочки журнала (в канале, не в личных сообщениях).",
    exportComment: (entries, period, truncated) =>
      `Журнал действий, ${period}: записей ${entries}, старые сверху, в форматах \`CSV\` и \`JSON Lines\` (у каждой её хеш и хеш предыдущей)${truncated ? "; поместились только новые — за остальными запросите период короче" : ""}.`,
    exportSent: (entries, period) =>
      `:white_check_mark: Журнал действий за период «${period}» (записей: ${entries}) отправлен вам в личные сообщения с Kassa, в форматах \`CSV\` и \`JSON Lines\`.`,
    exportNeedsScope:
      ":warning: Kassa пока не может отправлять файлы и личные сообщения в этом пространстве. Администратор может переустановить Kassa со страницы приложения в Slack (она запросит эти два разрешения), чтобы выгрузки заработали.",
    headTitle: "Вершина цепочки журнала",
    headText: (seq, at, hash) => `Запись ${seq}, сделана ${at}. Хеш вершины:\n\`${hash}\``,
    headHint:
      "Slack хранит это сообщение: если журнал в хранилище Kassa когда-нибудь перепишут, его цепочка больше не приведёт к этому хешу. `/invoice audit verify` проверяет цепочку.",
  },
};
