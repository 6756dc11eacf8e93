import type { Lang } from "./lang.js";
import { PAYOUT_RULES_TEXT } from "./payout-rules.js";

/** Why a policy field was refused (the codes of src/payouts/policy.ts's PolicyProblem). */
export type PolicyProblemReason =
  | "too_few"
  | "too_many"
  | "not_people"
  | "missing"
  | "not_an_amount"
  | "above_register_daily"
  | "out_of_range"
  | "not_codes";

/** The policy's fields as people read them (the announcement's lines). */
export type PolicyFieldWord =
  | "enabled"
  | "approvers"
  | "channel"
  | "twoApproversFrom"
  | "requesterDaily"
  | "registerDaily"
  | "expiryMinutes"
  | "methods"
  | "requesters"
  | "trustedOneBelow"
  | "approverLimits";

/** `/payout`, its setup form and what saving says. Registers, mentions and amounts arrive formatted. */
export type PayoutsText = {
  title: string;
  save: string;
  cancel: string;
  intro: (register: string) => string;
  approvers: string;
  approversHint: string;
  channel: string;
  channelHint: string;
  twoFrom: string;
  twoFromHint: string;
  personDay: string;
  registerDay: string;
  expire: string;
  expireHint: string;
  methods: string;
  methodsHint: string;
  everyMethod: string;
  methodCodes: string;
  methodCodesHint: string;
  requesters: string;
  requestersHint: string;
  admins: string;
  enabled: string;
  enabledOption: string;
  problems: Record<PolicyProblemReason, string>;
  fields: Record<PolicyFieldWord, string>;
  on: string;
  off: string;
  noSecret2: (register: string, connect: string) => string;
  noSecret2Fallback: string;
  notConnected: string;
  personRefused: (name: string, why: "bot" | "deactivated" | "guest") => string;
  peopleUnchecked: string;
  notAllowed: string;
  outdated: string;
  changedMeanwhile: (by: string, when: string) => string;
  saved: (register: string, version: number, channel: string) => string;
  savedFallback: string;
  notInChannel: (channel: string) => string;
  announce: (by: string, register: string, version: number) => string;
  announceFallback: (register: string) => string;
  help: (register: string, status: string) => string;
  helpFallback: string;
  statusOff: string;
  statusOn: (approvers: string, channel: string) => string;
  statusPaused: string;
};

const en: PayoutsText = {
  title: "Payout policy",
  save: "Save",
  cancel: "Cancel",
  intro: (register) =>
    `Who may send money out of cash register ${register}, and who must approve it. Until a policy is saved, the register makes no payouts. Every change is written down and announced in the approval channel.`,
  approvers: "Approvers",
  approversHint:
    "At least two people. A requester never approves their own payout, so two approvers are the fewest that work.",
  channel: "Approval channel",
  channelHint: "Requests and their Approve buttons are posted here. Invite Kassa to it.",
  twoFrom: "Two approvers from (RUB)",
  twoFromHint: "A payout of at least this many roubles needs two different approvers; below it, one.",
  personDay: "Daily cap per requester (RUB)",
  registerDay: "Daily cap for the register (RUB)",
  expire: "A request waits",
  expireHint: "From 5m to 72h, such as 30m, 4h or 24h. Not approved in time, it is cancelled.",
  methods: "Payout methods allowed",
  methodsHint: "None chosen: every payout method of the register.",
  everyMethod: "Every method",
  methodCodes: "Payout method codes allowed",
  methodCodesHint:
    "This register's API gives no list of payout methods: write their codes separated by commas, or leave it empty for all.",
  requesters: "Who may request",
  requestersHint: "Nobody chosen: the workspace's admins and owners.",
  admins: "workspace admins",
  enabled: "Payouts",
  enabledOption: "On: the people above may request payouts",
  problems: {
    too_few: "Choose at least two different people.",
    too_many: "Too many people.",
    not_people: "Choose people, not apps or channels.",
    missing: "Choose a channel.",
    not_an_amount: "Write an amount in roubles above 0, such as 50000 or 50 000,50.",
    above_register_daily: "Cannot be more than the register's daily cap.",
    out_of_range: "Write a time from 5m to 72h, such as 30m, 4h or 24h.",
    not_codes: "Write method codes separated by commas, such as CARDRUBP2P, BITCOIN.",
  },
  fields: {
    enabled: "Payouts",
    approvers: "Approvers",
    channel: "Approval channel",
    twoApproversFrom: "Two approvers from",
    requesterDaily: "Daily cap per requester",
    registerDaily: "Daily cap for the register",
    expiryMinutes: "A request waits",
    methods: "Methods",
    requesters: "May request",
    ...PAYOUT_RULES_TEXT.en.fields,
  },
  on: "on",
  off: "off",
  noSecret2: (register, connect) =>
    `:closed_lock_with_key: Cash register ${register} has no Secret 2 stored, and payouts are signed with it. Add it in the connect form (${connect}), then set up payouts again.`,
  noSecret2Fallback: "The register has no Secret 2 stored: add it in the connect form first.",
  notConnected: "This cash register is not connected any more. Connect it, then try again.",
  personRefused: (name, why) =>
    `${name} ${{ bot: "is an app", deactivated: "is deactivated", guest: "is a guest" }[why] ?? why}: choose full members of the workspace.`,
  peopleUnchecked: "Slack could not say who these people are right now. Try again in a minute.",
  notAllowed: "Only workspace admins and owners can set up payouts.",
  outdated: "This form is out of date. Close it and run /payout setup again.",
  changedMeanwhile: (by, when) =>
    `The policy was changed meanwhile (by ${by}, ${when}). Close this form and run /payout setup again to see it.`,
  saved: (register, version, channel) =>
    `:white_check_mark: Payout policy of cash register ${register} saved (version ${version}) and announced in ${channel}.`,
  savedFallback: "Payout policy saved.",
  notInChannel: (channel) =>
    `:warning: Kassa is not in ${channel}, so it could not announce the change there, nor post requests: invite it (\`/invite @Kassa\`).`,
  announce: (by, register, version) =>
    `:scales: ${by} changed the payout policy of cash register ${register} (version ${version}):`,
  announceFallback: (register) => `The payout policy of cash register ${register} changed.`,
  help: (register, status) =>
    `*Payouts* (cash register ${register}): ${status}\n• \`/payout setup\`: admins set who approves payouts, where, the limits and who may request. A register has none until its policy is saved.\n• \`/payout NAME setup\`: the same for cash register NAME. \`/payout policy\`: the policy in full, its rules and approval limits.\n• \`/payout\`: a form to request a payout; or in one line \`/payout AMOUNT METHOD WALLET REASON\`. The approvers decide on its card in the approval channel (Approve asks for the wallet's last four characters); nothing is sent before they do, and it is sent once.\n• \`/payout recipients\`: the trusted recipients; \`/payout recipient add\` adds one (two approvers confirm it), \`/payout to LABEL AMOUNT REASON\` pays one.\n• \`/payout batch\`: pay up to 50 rows pasted from a spreadsheet on one card, approved once (type its rows and total).\n• \`/payout refund INVOICE [AMOUNT] REASON\`: a refund of a paid invoice.`,
  helpFallback: "Payouts: /payout setup (admins).",
  statusOff: "off, no policy set.",
  statusOn: (approvers, channel) => `policy set; approvers ${approvers}, approval channel ${channel}.`,
  statusPaused: "off, the policy is kept but paused.",
};

const ru: PayoutsText = {
  title: "Правила выплат",
  save: "Сохранить",
  cancel: "Отмена",
  intro: (register) =>
    `Кто может отправлять деньги из кассы ${register} и кто должен это одобрить. Пока правила не сохранены, касса не делает выплат. Каждое изменение записывается и объявляется в канале одобрения.`,
  approvers: "Одобряющие",
  approversHint:
    "Не меньше двух человек. Запросивший никогда не одобряет свою выплату, поэтому меньше двух одобряющих не работает.",
  channel: "Канал одобрения",
  channelHint: "Сюда приходят запросы с кнопками «Одобрить». Пригласите в него Kassa.",
  twoFrom: "Два одобрения от (₽)",
  twoFromHint: "Выплата от этой суммы в рублях требует двух разных одобряющих; меньше — одного.",
  personDay: "Дневной лимит на запросившего (₽)",
  registerDay: "Дневной лимит кассы (₽)",
  expire: "Запрос ждёт",
  expireHint: "От 5м до 72ч, например 30м, 4ч или 24ч. Не одобренный вовремя запрос отменяется.",
  methods: "Разрешённые способы выплат",
  methodsHint: "Ничего не выбрано — все способы выплат кассы.",
  everyMethod: "Все способы",
  methodCodes: "Коды разрешённых способов выплат",
  methodCodesHint:
    "Версия программного интерфейса этой кассы не даёт списка способов выплат: впишите их коды через запятую или оставьте пустым — тогда все.",
  requesters: "Кто может запрашивать",
  requestersHint: "Никто не выбран — администраторы и владельцы рабочего пространства.",
  admins: "администраторы пространства",
  enabled: "Выплаты",
  enabledOption: "Включены: люди выше могут запрашивать выплаты",
  problems: {
    too_few: "Выберите не меньше двух разных людей.",
    too_many: "Слишком много людей.",
    not_people: "Выберите людей, а не приложения или каналы.",
    missing: "Выберите канал.",
    not_an_amount: "Впишите сумму в рублях больше 0, например 50000 или 50 000,50.",
    above_register_daily: "Не может быть больше дневного лимита кассы.",
    out_of_range: "Впишите время от 5м до 72ч, например 30м, 4ч или 24ч.",
    not_codes: "Впишите коды способов через запятую, например CARDRUBP2P, BITCOIN.",
  },
  fields: {
    enabled: "Выплаты",
    approvers: "Одобряющие",
    channel: "Канал одобрения",
    twoApproversFrom: "Два одобрения от",
    requesterDaily: "Дневной лимит на запросившего",
    registerDaily: "Дневной лимит кассы",
    expiryMinutes: "Запрос ждёт",
    methods: "Способы",
    requesters: "Могут запрашивать",
    ...PAYOUT_RULES_TEXT.ru.fields,
  },
  on: "включены",
  off: "выключены",
  noSecret2: (register, connect) =>
    `:closed_lock_with_key: У кассы ${register} не сохранён «Секрет 2», а выплаты подписываются им. Добавьте его в форме подключения (${connect}) и настройте выплаты снова.`,
  noSecret2Fallback: "У кассы не сохранён «Секрет 2»: сначала добавьте его в форме подключения.",
  notConnected: "Эта касса больше не подключена. Подключите её и попробуйте снова.",
  personRefused: (name, why) =>
    `${name} — ${{ bot: "приложение", deactivated: "деактивирован(а)", guest: "гость" }[why] ?? why}: выберите полноправных участников пространства.`,
  peopleUnchecked: "Slack сейчас не может сказать, кто эти люди. Попробуйте через минуту.",
  notAllowed: "Настраивать выплаты могут только администраторы и владельцы рабочего пространства.",
  outdated: "Эта форма устарела. Закройте её и снова выполните /payout setup.",
  changedMeanwhile: (by, when) =>
    `Правила тем временем изменились (${by}, ${when}). Закройте форму и снова выполните /payout setup, чтобы их увидеть.`,
  saved: (register, version, channel) =>
    `:white_check_mark: Правила выплат кассы ${register} сохранены (версия ${version}) и объявлены в ${channel}.`,
  savedFallback: "Правила выплат сохранены.",
  notInChannel: (channel) =>
    `:warning: Kassa нет в ${channel}, поэтому она не смогла объявить изменение и не сможет публиковать запросы: пригласите её (\`/invite @Kassa\`).`,
  announce: (by, register, version) =>
    `:scales: ${by} изменил(а) правила выплат кассы ${register} (версия ${version}):`,
  announceFallback: (register) => `Правила выплат кассы ${register} изменились.`,
  help: (register, status) =>
    `*Выплаты* (касса ${register}): ${status}\n• \`/payout setup\`: администраторы задают, кто одобряет выплаты, где, лимиты и кто может запрашивать. Пока правила не сохранены, выплат у кассы нет.\n• \`/payout NAME setup\`: то же для кассы NAME. \`/payout policy\`: правила целиком, с лимитами одобрения.\n• \`/payout\`: форма запроса выплаты; или одной строкой \`/payout СУММА СПОСОБ КОШЕЛЁК ПРИЧИНА\`. Одобряющие решают на её карточке в канале одобрения (одобрение просит четыре последних знака кошелька); до их решения ничего не отправляется, и отправляется один раз.\n• \`/payout recipients\`: доверенные получатели; \`/payout recipient add\` добавляет (его подтверждают два одобряющих), \`/payout to НАЗВАНИЕ СУММА ПРИЧИНА\` платит ему.\n• \`/payout batch\`: до 50 строк из таблицы одной карточкой, одобряется один раз (введите число строк и итог).\n• \`/payout refund СЧЁТ [СУММА] ПРИЧИНА\`: возврат по оплаченному счёту.`,
  helpFallback: "Выплаты: /payout setup (администраторы).",
  statusOff: "выключены, правила не заданы.",
  statusOn: (approvers, channel) => `правила заданы; одобряющие ${approvers}, канал одобрения ${channel}.`,
  statusPaused: "выключены, правила сохранены, но приостановлены.",
};

export const PAYOUTS_TEXT: Record<Lang, PayoutsText> = { en, ru };

/** How long a request waits, minutes as `24h`, `30m`, `1h30m` (read back by the policy's parseExpiry). */
export function formatExpiry(minutes: number): string {
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  if (hours === 0) return `${rest}m`;
  return rest === 0 ? `${hours}h` : `${hours}h${rest}m`;
}
