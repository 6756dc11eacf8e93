import type { Lang } from "./lang.js";

/** Why a click on a request was refused (src/payouts/votes.ts's VoteRefusal kinds, and Slack's checks). */
export type VoteRefusalWord =
  | "not_found"
  | "payouts_off"
  | "not_an_approver"
  | "own_request"
  | "already_voted"
  | "not_the_requester"
  | "reason_required"
  | "expired"
  | "busy"
  | "not_a_member"
  | "unchecked"
  | "wallet_mismatch";

/** Approve's and Reject's modals, what a click is told, and why it changed nothing. */
export type PayoutVoteText = {
  approveTitle: string;
  approveIntro: (amount: string, wallet: string, requester: string) => string;
  lastFour: string;
  lastFourHint: string;
  approveButton: string;
  rejectTitle: string;
  rejectIntro: (amount: string, requester: string) => string;
  rejectReason: string;
  rejectButton: string;
  voteRefusals: {
    not_found: string;
    payouts_off: string;
    not_an_approver: (approvers: string) => string;
    own_request: string;
    already_voted: (time: string) => string;
    not_the_requester: (requester: string) => string;
    reason_required: string;
    expired: (time: string) => string;
    busy: string;
    not_a_member: string;
    unchecked: string;
    wallet_mismatch: string;
  };
  closed: (status: string, by: string, time: string) => string;
  /** The request's quote was sent at the service by someone else, seen at `time`. */
  closedOutside: (time: string) => string;
  closedWords: Record<
    | "approved"
    | "submitting"
    | "submitted"
    | "ended"
    | "rejected"
    | "cancelled"
    | "expired"
    | "changed"
    | "refused"
    | "stopped"
    | "outside",
    string
  >;
  kassa: string;
  modalNotOpened: string;
  approvalNoted: (votes: number, needed: number) => string;
  approvedNow: string;
  rejectedNow: string;
  cancelledNow: string;
};

const en: PayoutVoteText = {
  approveTitle: "Approve payout",
  approveIntro: (amount, wallet, requester) =>
    `You approve paying out *${amount}* to ${wallet}, requested by ${requester}. Check the wallet with the requester if in doubt.`,
  lastFour: "Last four characters of the wallet",
  lastFourHint: "Type them as the card shows them: a check that you read the wallet.",
  approveButton: "Approve",
  rejectTitle: "Reject payout",
  rejectIntro: (amount, requester) => `You reject paying out *${amount}*, requested by ${requester}.`,
  rejectReason: "Why (the requester is told)",
  rejectButton: "Reject",
  voteRefusals: {
    not_found: "This payout request is out of date: it is no longer kept. Nothing was changed.",
    payouts_off: "Payouts are off for this register now: nothing can be approved. An admin can turn them on.",
    not_an_approver: (approvers) => `Only the policy's approvers may decide on payouts: ${approvers}.`,
    own_request: "You requested this payout: another approver must decide on it.",
    already_voted: (time) => `You approved this payout already (${time}).`,
    not_the_requester: (requester) => `Only ${requester}, who requested it, can cancel this payout.`,
    reason_required: "Say why you reject it (up to 500 characters): the requester is told.",
    expired: (time) => `This request expired (${time}): it can no longer be approved.`,
    busy: "Several people clicked at once. Look at the card and try again.",
    not_a_member: "Guests, apps and deactivated accounts cannot decide on payouts.",
    unchecked: "Slack could not say who you are right now, so nothing was changed. Try again in a minute.",
    wallet_mismatch: "That is not how the wallet ends: type its last four characters as the card shows them.",
  },
  closed: (status, by, time) => `Already ${status} by ${by} (${time}).`,
  closedOutside: (time) =>
    `This payout was sent at the service without approval (seen ${time}): there is nothing left to decide here. Its card says what the service shows.`,
  closedWords: {
    approved: "approved",
    submitting: "approved",
    submitted: "approved",
    ended: "approved",
    rejected: "rejected",
    cancelled: "cancelled",
    expired: "expired",
    changed: "approved",
    refused: "approved",
    stopped: "approved",
    outside: "sent at the service without approval",
  },
  kassa: "Kassa",
  modalNotOpened: ":hourglass: The form could not be opened in time: press the button on the card again.",
  approvalNoted: (votes, needed) => `:ballot_box_with_check: Your approval is noted: ${votes} of ${needed}.`,
  approvedNow: ":white_check_mark: Approved: Kassa checks the payout at the service once more and sends it.",
  rejectedNow: ":no_entry: Rejected: the requester is told why.",
  cancelledNow: ":no_entry_sign: Cancelled. Nothing is paid out.",
};

const ru: PayoutVoteText = {
  approveTitle: "Одобрить выплату",
  approveIntro: (amount, wallet, requester) =>
    `Вы одобряете выплату *${amount}* на ${wallet}, запросил(а) ${requester}. Если сомневаетесь, сверьте кошелёк с запросившим.`,
  lastFour: "Четыре последних знака кошелька",
  lastFourHint: "Введите их, как на карточке: так видно, что кошелёк прочитан.",
  approveButton: "Одобрить",
  rejectTitle: "Отклонить выплату",
  rejectIntro: (amount, requester) => `Вы отклоняете выплату *${amount}*, запросил(а) ${requester}.`,
  rejectReason: "Почему (запросивший узнает)",
  rejectButton: "Отклонить",
  voteRefusals: {
    not_found: "Этот запрос выплаты устарел: он больше не хранится. Ничего не изменено.",
    payouts_off: "Выплаты этой кассы сейчас выключены: одобрить нельзя. Администратор может их включить.",
    not_an_approver: (approvers) => `Решать по выплатам могут только одобряющие из правил: ${approvers}.`,
    own_request: "Эту выплату запросили вы: решать должен другой одобряющий.",
    already_voted: (time) => `Вы уже одобрили эту выплату (${time}).`,
    not_the_requester: (requester) => `Отменить выплату может только запросивший: ${requester}.`,
    reason_required: "Напишите, почему отклоняете (до 500 знаков): запросивший узнает.",
    expired: (time) => `Запрос истёк (${time}): одобрить его уже нельзя.`,
    busy: "Несколько человек нажали одновременно. Посмотрите на карточку и попробуйте снова.",
    not_a_member: "Гости, приложения и деактивированные учётные записи не решают по выплатам.",
    unchecked: "Slack сейчас не может сказать, кто вы, поэтому ничего не изменено. Попробуйте через минуту.",
    wallet_mismatch: "Кошелёк кончается не так: введите четыре последних знака, как на карточке.",
  },
  closed: (status, by, time) => `Уже ${status}: ${by} (${time}).`,
  closedOutside: (time) =>
    `Эту выплату отправили в сервисе без одобрения (замечено ${time}): решать здесь больше нечего. Что показывает сервис, видно на карточке.`,
  closedWords: {
    approved: "одобрена",
    submitting: "одобрена",
    submitted: "одобрена",
    ended: "одобрена",
    rejected: "отклонена",
    cancelled: "отменена",
    expired: "истекла",
    changed: "одобрена",
    refused: "одобрена",
    stopped: "одобрена",
    outside: "отправлена в сервисе без одобрения",
  },
  kassa: "Kassa",
  modalNotOpened: ":hourglass: Форма не успела открыться: нажмите кнопку на карточке ещё раз.",
  approvalNoted: (votes, needed) => `:ballot_box_with_check: Ваше одобрение учтено: ${votes} из ${needed}.`,
  approvedNow: ":white_check_mark: Одобрено: Kassa ещё раз проверит выплату в сервисе и отправит её.",
  rejectedNow: ":no_entry: Отклонено: запросивший узнает причину.",
  cancelledNow: ":no_entry_sign: Отменено. Ничего не выплачивается.",
};

export const PAYOUT_VOTE_TEXT: Record<Lang, PayoutVoteText> = { en, ru };
