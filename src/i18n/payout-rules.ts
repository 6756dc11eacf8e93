import type { Lang } from "./lang.js";

// Issue 52: the trusted one-approver rule and approver limits, as the setup form, the card, a refused
// click and the policy's lines say them. People and amounts arrive formatted (mentions, RUB).

/** Why a rule field of the policy was refused (src/payouts/policy.ts's PolicyProblem). */
export type RuleProblemReason =
  | "not_an_amount"
  | "not_above_two_from"
  | "no_people"
  | "not_approvers"
  | "twice"
  | "too_many";

export type PayoutRulesText = {
  trustedOneBelow: string;
  trustedOneBelowHint: string;
  limitsIntro: string;
  limitPeople: (row: number) => string;
  limitPeopleHint: string;
  limitUpTo: (row: number) => string;
  /** Problems of the rule fields; `people` (mentions or ids) for not_approvers and twice. */
  problems: Record<RuleProblemReason, (people: string) => string>;
  fields: { trustedOneBelow: string; approverLimits: string };
  /** The policy's lines: no trusted rule, no limits, one approver's limit. */
  noTrustedRule: string;
  noLimits: string;
  upTo: (who: string, limit: string) => string;
  /** The card: which rule set the approvals needed. */
  ruleTrustedOne: (below: string) => string;
  ruleTwoFrom: (from: string) => string;
  ruleOneBelow: (from: string) => string;
  /** The card: an approval set aside since (its approver's limit lowered below the amount). */
  setAside: (who: string, limit: string) => string;
  /** A click over the approver's limit: their limit, and who can approve (none: nobody). */
  overLimit: (limit: string, canApprove: string) => string;
  overLimitNobody: (limit: string) => string;
  /** Stopped: the approver's limit now below the amount, and nobody else could approve it. */
  stoppedOverLimit: (who: string, limit: string) => string;
  /** `/payout policy`: the policy in full; none set. */
  policyTitle: (register: string, version: number, by: string, when: string) => string;
  policyNone: (register: string) => string;
  policyChange: string;
};

const en: PayoutRulesText = {
  trustedOneBelow: "One approver to a trusted recipient below (RUB)",
  trustedOneBelowHint:
    "Optional. A payout to a trusted recipient (confirmed by two approvers) below this many roubles needs one approver; a new wallet always follows the rule above. Must be more than the two-approver amount.",
  limitsIntro:
    "*Approval limits* (optional): the approvers chosen in a row approve payouts only up to its amount; approvers in no row approve any amount. Two approvals mean two approvers within their limits.",
  limitPeople: (row) => `Approvers with limit ${row}`,
  limitPeopleHint: "Only people among the approvers above.",
  limitUpTo: (row) => `Limit ${row}: approve up to (RUB)`,
  problems: {
    not_an_amount: () => "Write an amount in roubles above 0, such as 50000 or 50 000,50.",
    not_above_two_from: () =>
      "Must be more than the two-approver amount: below that one approver suffices anyway.",
    no_people: () => "Choose the approvers this limit is for, or clear the amount.",
    not_approvers: (people) =>
      `${people}: not among the approvers. Add them as approvers, or take them out here.`,
    twice: (people) => `${people}: already in another limit. Give each approver one limit.`,
    too_many: () => "Too many different limits: at most 10.",
  },
  fields: { trustedOneBelow: "One approver to trusted recipients below", approverLimits: "Approval limits" },
  noTrustedRule: "none (every payout by the rule above)",
  noLimits: "none (every approver approves any amount)",
  upTo: (who, limit) => `${who} up to ${limit}`,
  ruleTrustedOne: (below) => `One approver: trusted recipient under ${below}`,
  ruleTwoFrom: (from) => `Two approvers: ${from} and more`,
  ruleOneBelow: (from) => `One approver: under ${from}`,
  setAside: (who, limit) =>
    `:warning: ${who}'s approval no longer counts: their approval limit is now ${limit}, below this payout. Another approver is needed.`,
  overLimit: (limit, canApprove) =>
    `:no_entry_sign: This payout is above your approval limit (${limit}), so your approval was not counted. Who can approve it: ${canApprove}.`,
  overLimitNobody: (limit) =>
    `:no_entry_sign: This payout is above your approval limit (${limit}), so your approval was not counted. No other approver's limit covers it now: an admin can raise a limit with \`/payout setup\`.`,
  stoppedOverLimit: (who, limit) =>
    `${who} approved it, but their approval limit is now ${limit}, below this payout, and no other approver could approve it.`,
  policyTitle: (register, version, by, when) =>
    `*Payout policy of cash register ${register}* (version ${version}, set by ${by} ${when}):`,
  policyNone: (register) =>
    `Cash register ${register} has no payout policy, so it makes no payouts. An admin sets one with \`/payout setup\`.`,
  policyChange: "Admins change it with `/payout setup`; every change is announced in the approval channel.",
};

const ru: PayoutRulesText = {
  trustedOneBelow: "Одно одобрение доверенному получателю до (₽)",
  trustedOneBelowHint:
    "Необязательно. Выплате доверенному получателю (его подтвердили два одобряющих) меньше этой суммы в рублях хватает одного одобрения; новый кошелёк всегда по правилу выше. Должна быть больше суммы для двух одобрений.",
  limitsIntro:
    "*Лимиты одобрения* (необязательно): одобряющие из строки одобряют выплаты только до её суммы; одобряющие не из строк — любые суммы. Два одобрения — это два одобряющих в пределах своих лимитов.",
  limitPeople: (row) => `Одобряющие с лимитом ${row}`,
  limitPeopleHint: "Только люди из числа одобряющих выше.",
  limitUpTo: (row) => `Лимит ${row}: одобряют до (₽)`,
  problems: {
    not_an_amount: () => "Впишите сумму в рублях больше 0, например 50000 или 50 000,50.",
    not_above_two_from: () =>
      "Должна быть больше суммы для двух одобрений: меньше неё и так хватает одного одобряющего.",
    no_people: () => "Выберите одобряющих, для которых этот лимит, или сотрите сумму.",
    not_approvers: (people) =>
      `${people}: нет среди одобряющих. Добавьте их в одобряющие или уберите отсюда.`,
    twice: (people) => `${people}: уже в другом лимите. У каждого одобряющего один лимит.`,
    too_many: () => "Слишком много разных лимитов: не больше 10.",
  },
  fields: {
    trustedOneBelow: "Одно одобрение доверенным получателям до",
    approverLimits: "Лимиты одобрения",
  },
  noTrustedRule: "нет (все выплаты по правилу выше)",
  noLimits: "нет (каждый одобряющий одобряет любые суммы)",
  upTo: (who, limit) => `${who} до ${limit}`,
  ruleTrustedOne: (below) => `Одно одобрение: доверенный получатель, меньше ${below}`,
  ruleTwoFrom: (from) => `Два одобрения: от ${from}`,
  ruleOneBelow: (from) => `Одно одобрение: меньше ${from}`,
  setAside: (who, limit) =>
    `:warning: Одобрение ${who} больше не учитывается: его (её) лимит одобрения теперь ${limit}, меньше этой выплаты. Нужен другой одобряющий.`,
  overLimit: (limit, canApprove) =>
    `:no_entry_sign: Эта выплата больше вашего лимита одобрения (${limit}), поэтому ваше одобрение не учтено. Одобрить её могут: ${canApprove}.`,
  overLimitNobody: (limit) =>
    `:no_entry_sign: Эта выплата больше вашего лимита одобрения (${limit}), поэтому ваше одобрение не учтено. Сейчас её не покрывает лимит ни одного другого одобряющего: администратор может поднять лимит в \`/payout setup\`.`,
  stoppedOverLimit: (who, limit) =>
    `${who} одобрил(а) её, но его (её) лимит одобрения теперь ${limit}, меньше этой выплаты, а других одобряющих, которые могли бы её одобрить, нет.`,
  policyTitle: (register, version, by, when) =>
    `*Правила выплат кассы ${register}* (версия ${version}, задал(а) ${by} ${when}):`,
  policyNone: (register) =>
    `У кассы ${register} нет правил выплат, поэтому выплат она не делает. Администратор задаёт их в \`/payout setup\`.`,
  policyChange:
    "Администраторы меняют их в `/payout setup`; каждое изменение объявляется в канале одобрения.",
};

export const PAYOUT_RULES_TEXT: Record<Lang, PayoutRulesText> = { en, ru };
