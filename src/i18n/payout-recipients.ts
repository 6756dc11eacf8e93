import type { Lang } from "./lang.js";

/** Why adding, confirming or removing a recipient was refused (src/payout-recipients' RecipientRefusal). */
export type RecipientRefusalWord =
  | "payouts_off"
  | "not_a_requester"
  | "method_not_allowed"
  | "invalid"
  | "label_taken"
  | "wallet_known"
  | "too_few_approvers"
  | "not_found"
  | "not_an_approver"
  | "own_recipient"
  | "already_confirmed"
  | "wrong_last_four"
  | "closed"
  | "not_admin"
  | "unchecked";

/** `/payout recipient add|remove`, `/payout recipients`, `/payout to`, the card and its Confirm. */
export type PayoutRecipientsText = {
  formTitle: string;
  formIntro: (register: string, channel: string) => string;
  add: string;
  close: string;
  label: string;
  labelHint: string;
  method: string;
  methodCode: string;
  wallet: string;
  walletHint: string;
  walletExtra: string;
  note: string;
  added: (label: string, channel: string) => string;
  cardTitle: (label: string, register: string) => string;
  cardLines: (method: string, wallet: string, addedBy: string) => string;
  extraLine: (extra: string) => string;
  noteLine: (note: string) => string;
  confirmations: (count: number, names: string) => string;
  cardHowTo: string;
  trustedLine: (names: string) => string;
  removedLine: (by: string) => string;
  confirm: string;
  cardFallback: (label: string) => string;
  confirmTitle: string;
  confirmIntro: (label: string, method: string, wallet: string) => string;
  lastFour: string;
  lastFourHint: string;
  confirmedNow: (count: number) => string;
  trustedNow: (label: string) => string;
  refusals: Record<Exclude<RecipientRefusalWord, "invalid" | "closed">, (detail: string) => string> & {
    invalid: Record<"label" | "wallet" | "note" | "walletExtra", string>;
    closed: Record<"trusted" | "removed", string>;
  };
  listTitle: (register: string) => string;
  listEmpty: string;
  listLine: (label: string, method: string, wallet: string, added: string, confirmed: string) => string;
  lastPaid: (when: string) => string;
  neverPaid: string;
  pending: (count: number) => string;
  listHowTo: string;
  removeAsk: (label: string) => string;
  remove: string;
  removeConfirmTitle: string;
  removeConfirmText: (label: string) => string;
  cancel: string;
  removed: (label: string) => string;
  toUsage: string;
  unknownLabel: (label: string, known: string) => string;
  noneTrusted: string;
  picker: string;
  pickerHint: string;
  fallback: string;
};

const en: PayoutRecipientsText = {
  formTitle: "Add a payout recipient",
  formIntro: (register, channel) =>
    `For register ${register}. Two approvers confirm it in ${channel}, each typing the wallet's last four characters; then it is trusted.`,
  add: "Add",
  close: "Close",
  label: "Label",
  labelHint: "The name people pay it by, e.g. Acme Ltd (unique in this register).",
  method: "Payout method",
  methodCode: "Payout method code",
  wallet: "Wallet or card",
  walletHint: "As the method expects it. To change a wallet later, add a new recipient.",
  walletExtra: "Wallet extra (memo or tag, optional)",
  note: "Note (optional)",
  added: (label, channel) =>
    `:inbox_tray: ${label} added. Two approvers confirm it in ${channel}; until then payouts to it need the usual approvals.`,
  cardTitle: (label, register) =>
    `:bust_in_silhouette: *New payout recipient ${label}* (register ${register})`,
  cardLines: (method, wallet, addedBy) => `Method: ${method}\nWallet: ${wallet}\nAdded by ${addedBy}`,
  extraLine: (extra) => `Wallet extra: ${extra}`,
  noteLine: (note) => `Note: ${note}`,
  confirmations: (count, names) => `Confirmations: ${count} of 2${names ? ` (${names})` : ""}`,
  cardHowTo:
    "Two approvers, not the one who added it, each press Confirm and type the wallet's last four characters.",
  trustedLine: (names) => `:white_check_mark: Trusted: confirmed by ${names}.`,
  removedLine: (by) => `:no_entry: Removed by ${by}.`,
  confirm: "Confirm",
  cardFallback: (label) => `New payout recipient ${label}: two approvers confirm it.`,
  confirmTitle: "Confirm a recipient",
  confirmIntro: (label, method, wallet) =>
    `${label}: ${method}, wallet ${wallet}. Check the wallet against the supplier's own papers, then type its last four characters.`,
  lastFour: "The wallet's last four characters",
  lastFourHint: "Typed, not copied: that is the check.",
  confirmedNow: (count) => `:ballot_box_with_check: Confirmation noted (${count} of 2).`,
  trustedNow: (label) => `:white_check_mark: ${label} is trusted now.`,
  refusals: {
    payouts_off: () => "Payouts are off for this register: an admin sets a policy with `/payout setup`.",
    not_a_requester: (who) => `Only those who may request payouts add recipients: ${who}.`,
    method_not_allowed: (methods) => `The payout policy allows these methods only: ${methods}.`,
    invalid: {
      label: "A label has a letter in it, no line breaks or `*`, and at most 80 characters.",
      wallet: "A wallet has no spaces and at most 512 characters.",
      note: "A note has at most 300 characters.",
      walletExtra: "The wallet extra has at most 200 characters.",
    },
    label_taken: (label) =>
      `There is a recipient ${label} already: choose another label, or remove it first.`,
    wallet_known: (label) => `This method and wallet are recipient ${label}'s already.`,
    too_few_approvers: () =>
      "The policy needs two approvers besides you to confirm a recipient: an admin adds them with `/payout setup`.",
    not_found: () => "This recipient is not there any more (removed, or the register disconnected).",
    not_an_approver: (who) => `Only the payout approvers confirm recipients: ${who}.`,
    own_recipient: () => "You added this recipient: two other approvers confirm it.",
    already_confirmed: () => "You confirmed this recipient already: another approver confirms it.",
    wrong_last_four: () => "These are not the wallet's last four characters: nothing was counted.",
    closed: { trusted: "It is trusted already.", removed: "It was removed." },
    not_admin: () => "Only a workspace admin removes recipients.",
    unchecked: () => "Slack could not say who you are just now: try again in a moment.",
  },
  listTitle: (register) => `*Payout recipients* (register ${register})`,
  listEmpty: "None yet. Add one with `/payout recipient add`.",
  listLine: (label, method, wallet, added, confirmed) =>
    `• *${label}*: ${method} ${wallet}; added by ${added}${confirmed ? `, confirmed by ${confirmed}` : ""}`,
  lastPaid: (when) => `last paid ${when}`,
  neverPaid: "not paid yet",
  pending: (count) => `waiting for confirmations (${count} of 2)`,
  listHowTo:
    "`/payout to LABEL AMOUNT REASON` pays a trusted one; `/payout recipient add` adds one; `/payout recipient remove LABEL` (admins) removes one.",
  removeAsk: (label) =>
    `Remove recipient ${label}? Payouts to it waiting or approved then need two approvers again.`,
  remove: "Remove",
  removeConfirmTitle: "Remove the recipient?",
  removeConfirmText: (label) => `${label} will no longer be trusted.`,
  cancel: "Cancel",
  removed: (label) => `:no_entry: ${label} removed.`,
  toUsage:
    "To pay a trusted recipient: `/payout to LABEL AMOUNT REASON`, e.g. `/payout to Acme Ltd 15000 October rent`.",
  unknownLabel: (label, known) => `No trusted recipient ${label}. Trusted ones: ${known}.`,
  noneTrusted: "none yet",
  picker: "Trusted recipient",
  pickerHint: "Fills in the method and wallet; leave them empty then.",
  fallback: "Payout recipients.",
};

const ru: PayoutRecipientsText = {
  formTitle: "Добавить получателя",
  formIntro: (register, channel) =>
    `Для кассы ${register}. Два одобряющих подтверждают его в ${channel}, каждый вводит четыре последних знака кошелька; после этого он доверенный.`,
  add: "Добавить",
  close: "Закрыть",
  label: "Название",
  labelHint: "Имя, по которому ему платят, например ООО Ромашка (одно на кассу).",
  method: "Способ выплаты",
  methodCode: "Код способа выплаты",
  wallet: "Кошелёк или карта",
  walletHint: "Как его ждёт способ. Чтобы сменить кошелёк, добавьте нового получателя.",
  walletExtra: "Дополнение к кошельку (мемо или тег, необязательно)",
  note: "Заметка (необязательно)",
  added: (label, channel) =>
    `:inbox_tray: ${label} добавлен. Два одобряющих подтверждают его в ${channel}; до тех пор выплаты ему требуют обычных одобрений.`,
  cardTitle: (label, register) =>
    `:bust_in_silhouette: *Новый получатель выплат ${label}* (касса ${register})`,
  cardLines: (method, wallet, addedBy) => `Способ: ${method}\nКошелёк: ${wallet}\nДобавил(а) ${addedBy}`,
  extraLine: (extra) => `Дополнение к кошельку: ${extra}`,
  noteLine: (note) => `Заметка: ${note}`,
  confirmations: (count, names) => `Подтверждений: ${count} из 2${names ? ` (${names})` : ""}`,
  cardHowTo:
    "Два одобряющих, кроме добавившего, нажимают «Подтвердить» и вводят четыре последних знака кошелька.",
  trustedLine: (names) => `:white_check_mark: Доверенный: подтвердили ${names}.`,
  removedLine: (by) => `:no_entry: Удалил(а) ${by}.`,
  confirm: "Подтвердить",
  cardFallback: (label) => `Новый получатель выплат ${label}: его подтверждают два одобряющих.`,
  confirmTitle: "Подтвердить получателя",
  confirmIntro: (label, method, wallet) =>
    `${label}: ${method}, кошелёк ${wallet}. Сверьте кошелёк с документами поставщика и введите четыре последних знака.`,
  lastFour: "Четыре последних знака кошелька",
  lastFourHint: "Введите сами, не копируйте: в этом проверка.",
  confirmedNow: (count) => `:ballot_box_with_check: Подтверждение учтено (${count} из 2).`,
  trustedNow: (label) => `:white_check_mark: ${label} теперь доверенный.`,
  refusals: {
    payouts_off: () => "Выплаты кассы выключены: администратор задаёт правила командой `/payout setup`.",
    not_a_requester: (who) => `Получателей добавляют те, кто может запрашивать выплаты: ${who}.`,
    method_not_allowed: (methods) => `Правила выплат разрешают только эти способы: ${methods}.`,
    invalid: {
      label: "В названии есть буква, нет переносов строк и `*`, и не больше 80 знаков.",
      wallet: "В кошельке нет пробелов и не больше 512 знаков.",
      note: "В заметке не больше 300 знаков.",
      walletExtra: "В дополнении к кошельку не больше 200 знаков.",
    },
    label_taken: (label) => `Получатель ${label} уже есть: выберите другое название или сначала удалите его.`,
    wallet_known: (label) => `Этот способ и кошелёк уже у получателя ${label}.`,
    too_few_approvers: () =>
      "Чтобы подтвердить получателя, нужны два одобряющих кроме вас: администратор добавляет их в `/payout setup`.",
    not_found: () => "Этого получателя больше нет (удалён, или касса отключена).",
    not_an_approver: (who) => `Получателей подтверждают одобряющие выплаты: ${who}.`,
    own_recipient: () => "Вы добавили этого получателя: его подтверждают два других одобряющих.",
    already_confirmed: () => "Вы уже подтвердили этого получателя: нужен другой одобряющий.",
    wrong_last_four: () => "Это не четыре последних знака кошелька: ничего не засчитано.",
    closed: { trusted: "Он уже доверенный.", removed: "Он удалён." },
    not_admin: () => "Удаляет получателей администратор рабочего пространства.",
    unchecked: () => "Slack сейчас не ответил, кто вы: попробуйте через минуту.",
  },
  listTitle: (register) => `*Получатели выплат* (касса ${register})`,
  listEmpty: "Пока нет. Добавьте командой `/payout recipient add`.",
  listLine: (label, method, wallet, added, confirmed) =>
    `• *${label}*: ${method} ${wallet}; добавил(а) ${added}${confirmed ? `, подтвердили ${confirmed}` : ""}`,
  lastPaid: (when) => `последняя выплата ${when}`,
  neverPaid: "выплат ещё не было",
  pending: (count) => `ждёт подтверждений (${count} из 2)`,
  listHowTo:
    "`/payout to НАЗВАНИЕ СУММА ПРИЧИНА` платит доверенному; `/payout recipient add` добавляет; `/payout recipient remove НАЗВАНИЕ` (администраторы) удаляет.",
  removeAsk: (label) =>
    `Удалить получателя ${label}? Ждущим и одобренным выплатам ему снова понадобятся два одобряющих.`,
  remove: "Удалить",
  removeConfirmTitle: "Удалить получателя?",
  removeConfirmText: (label) => `${label} больше не будет доверенным.`,
  cancel: "Отмена",
  removed: (label) => `:no_entry: ${label} удалён.`,
  toUsage:
    "Заплатить доверенному получателю: `/payout to НАЗВАНИЕ СУММА ПРИЧИНА`, например `/payout to ООО Ромашка 15000 аренда за октябрь`.",
  unknownLabel: (label, known) => `Нет доверенного получателя ${label}. Доверенные: ${known}.`,
  noneTrusted: "пока нет",
  picker: "Доверенный получатель",
  pickerHint: "Заполняет способ и кошелёк; тогда оставьте их пустыми.",
  fallback: "Получатели выплат.",
};

export const PAYOUT_RECIPIENTS_TEXT: Record<Lang, PayoutRecipientsText> = { en, ru };
