import type { types } from "@slack/bolt";
import type { Lang } from "../i18n/lang.js";
import { PAYOUT_PICK_TEXT } from "../i18n/payout-pick.js";
import { PAYOUT_REQUEST_TEXT } from "../i18n/payout-request.js";
import { PAYOUT_VOTE_TEXT } from "../i18n/payout-vote.js";
import type { PayoffMethod } from "../payments/payoff-model.js";
import type { Recipient } from "../payout-recipients/model.js";
import type { PayoutRequest } from "../payouts/request-model.js";
import { modal, radioInput, selectInput, selectOption, textInput } from "./form.js";
import { formatAmount, formatDecimal } from "./format.js";
import { PAYOUT_APPROVE_VIEW, PAYOUT_REJECT_VIEW, PAYOUT_REQUEST_VIEW } from "./ids.js";
import { escapeMrkdwn, inlineCode } from "./mrkdwn.js";
import { walletText } from "./payout-card.js";

export { PAYOUT_APPROVE_VIEW, PAYOUT_REJECT_VIEW, PAYOUT_REQUEST_VIEW };

/** The request form's block ids (the keys of view.state.values and of field errors). */
export const REQUEST_FIELDS = {
  method: "payout_method",
  wallet: "payout_wallet",
  amount: "payout_amount",
  subtractFrom: "payout_fee_from",
  reason: "payout_reason",
  reference: "payout_reference",
  /** The trusted recipient picked (issue 52); shown where the register has any. */
  recipient: "payout_recipient",
} as const;

export const APPROVE_FIELD = "payout_last_four";
export const REJECT_FIELD = "payout_reject_reason";

/** What the request form carries in private_metadata: team, channel asked in, register's name. */
export type RequestOrigin = { t: string; c: string; r: string };
/** What Approve's and Reject's modals carry: the request's id, and the card's channel for answers. */
export type VoteOrigin = { id: string; c?: string | undefined };

/** "Card RUB (CARD_RUB) · 1% + 50 RUB · 100–150,000 RUB": a method with its fee and limits. */
export function payoffMethodLabel(method: PayoffMethod, lang: Lang): string {
  const fixed =
    method.feeFixed.value !== "0" ? ` + ${formatAmount(method.feeFixed.value, method.currency, lang)}` : "";
  const fee = `${formatDecimal(method.feePercent, lang)}%${fixed}`;
  const limits =
    method.min || method.max
      ? ` · ${method.min ? formatDecimal(method.min.value, lang) : "0"}–${method.max ? formatDecimal(method.max.value, lang) : "∞"} ${method.currency}`
      : "";
  return `${method.name} (${method.code}) · ${fee}${limits}`;
}

/** A wallet as lists show it: `220…5678` (short ones whole), spaces left out. */
export function shortWallet(wallet: string): string {
  const plain = wallet.replace(/\s+/g, "");
  return plain.length <= 10 ? plain : `${plain.slice(0, 3)}…${plain.slice(-4)}`;
}

/** The method: a drop-down of the listed ones, or a code to type; optional beside a recipient picker. */
function methodInput(methods: PayoffMethod[] | undefined, lang: Lang, picker: boolean): types.InputBlock {
  const t = PAYOUT_REQUEST_TEXT[lang];
  const optional = picker ? { optional: true } : {};
  const orPick = picker ? ` ${PAYOUT_PICK_TEXT[lang].orPick}` : "";
  if (!methods || methods.length === 0)
    return textInput({
      block: REQUEST_FIELDS.method,
      label: t.methodCode,
      maxLength: 64,
      placeholder: "CARD_RUB",
      ...optional,
      ...(picker ? { hint: orPick.trim() } : {}),
    });
  return selectInput({
    block: REQUEST_FIELDS.method,
    label: t.method,
    hint: `${t.methodHint}${orPick}`,
    options: methods.map((method) => selectOption(payoffMethodLabel(method, lang), method.code)),
    ...optional,
  });
}

/** The trusted recipient picker: label, method and wallet shortened of each (Slack shows 100 at most). */
function recipientInput(recipients: readonly Recipient[], lang: Lang): types.InputBlock {
  const p = PAYOUT_PICK_TEXT[lang];
  return selectInput({
    block: REQUEST_FIELDS.recipient,
    label: p.recipient,
    hint: p.recipientHint,
    optional: true,
    options: recipients.map((one) =>
      selectOption(p.option(one.label, one.method, shortWallet(one.wallet)), one.id),
    ),
  });
}

/** Whom to pay: the trusted recipient picker (where any), then the method and the wallet (optional beside it). */
function payeeInputs(
  recipients: readonly Recipient[],
  methods: PayoffMethod[] | undefined,
  lang: Lang,
): types.InputBlock[] {
  const picker = recipients.length > 0;
  const orPick = picker ? ` ${PAYOUT_PICK_TEXT[lang].orPick}` : "";
  return [
    ...(picker ? [recipientInput(recipients, lang)] : []),
    methodInput(methods, lang, picker),
    textInput({
      block: REQUEST_FIELDS.wallet,
      label: PAYOUT_REQUEST_TEXT[lang].wallet,
      hint: `${PAYOUT_REQUEST_TEXT[lang].walletHint}${orPick}`,
      maxLength: 512,
      ...(picker ? { optional: true } : {}),
    }),
  ];
}

/**
 * `/payout`'s request form: a trusted recipient to pick where the register has any (then the method
 * and the wallet may stay empty), method (the register's payout methods, allowed by the policy, with
 * fees and limits; a code field where the service lists none), wallet, amount, who pays the fee,
 * reason, reference.
 */
export function payoutRequestModal(options: {
  register: string;
  channel: string;
  methods: PayoffMethod[] | undefined;
  /** The register's trusted recipients the policy's methods allow (none: no picker). */
  recipients?: readonly Recipient[] | undefined;
  origin: RequestOrigin;
  lang: Lang;
}): types.ModalView {
  const t = PAYOUT_REQUEST_TEXT[options.lang];
  const blocks: types.KnownBlock[] = [
    {
      type: "section",
      text: {
        type: "mrkdwn",
        text: t.formIntro(`*${escapeMrkdwn(options.register)}*`, `<#${options.channel}>`),
      },
    },
    ...payeeInputs(options.recipients ?? [], options.methods, options.lang),
    textInput({
      block: REQUEST_FIELDS.amount,
      label: t.amount,
      hint: t.amountHint,
      maxLength: 24,
      placeholder: "1500",
    }),
    radioInput({
      block: REQUEST_FIELDS.subtractFrom,
      label: t.feeFrom,
      options: [selectOption(t.feeOnTop, "balance"), selectOption(t.feeFromAmount, "amount")],
      initial: "balance",
    }),
    textInput({ block: REQUEST_FIELDS.reason, label: t.reason, hint: t.reasonHint, maxLength: 500 }),
    textInput({ block: REQUEST_FIELDS.reference, label: t.reference, optional: true, maxLength: 200 }),
  ];
  return modal({
    callbackId: PAYOUT_REQUEST_VIEW,
    title: t.formTitle,
    submit: t.send,
    close: t.close,
    privateMetadata: JSON.stringify(options.origin),
    blocks,
  });
}

/** Approve's modal: the payout in a line, and the wallet's last four characters to type. */
export function payoutApproveModal(request: PayoutRequest, origin: VoteOrigin, lang: Lang): types.ModalView {
  const t = PAYOUT_VOTE_TEXT[lang];
  const amount = `${formatAmount(request.amount, request.currency, lang)} · ${inlineCode(request.method)}`;
  return modal({
    callbackId: PAYOUT_APPROVE_VIEW,
    title: t.approveTitle,
    submit: t.approveButton,
    close: PAYOUT_REQUEST_TEXT[lang].close,
    privateMetadata: JSON.stringify(origin),
    blocks: [
      {
        type: "section",
        text: {
          type: "mrkdwn",
          text: t.approveIntro(amount, walletText(request.wallet), `<@${request.requester}>`),
        },
      },
      textInput({ block: APPROVE_FIELD, label: t.lastFour, hint: t.lastFourHint, maxLength: 8 }),
    ],
  });
}

/** Reject's modal: the reason, required (the requester is told it). */
export function payoutRejectModal(request: PayoutRequest, origin: VoteOrigin, lang: Lang): types.ModalView {
  const t = PAYOUT_VOTE_TEXT[lang];
  return modal({
    callbackId: PAYOUT_REJECT_VIEW,
    title: t.rejectTitle,
    submit: t.rejectButton,
    close: PAYOUT_REQUEST_TEXT[lang].close,
    privateMetadata: JSON.stringify(origin),
    blocks: [
      {
        type: "section",
        text: {
          type: "mrkdwn",
          text: t.rejectIntro(
            formatAmount(request.amount, request.currency, lang),
            `<@${request.requester}>`,
          ),
        },
      },
      textInput({ block: REJECT_FIELD, label: t.rejectReason, maxLength: 500 }),
    ],
  });
}
