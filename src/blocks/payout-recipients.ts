import type { types } from "@slack/bolt";
import type { Lang } from "../i18n/lang.js";
import { PAYOUT_RECIPIENTS_TEXT } from "../i18n/payout-recipients.js";
import type { PayoffMethod } from "../payments/payoff-model.js";
import type { Recipient } from "../payout-recipients/model.js";
import { modal, selectInput, selectOption, textInput } from "./form.js";
import { slackDateFromEpoch } from "./format.js";
import { RECIPIENT_ACTIONS, RECIPIENT_ADD_VIEW, RECIPIENT_CONFIRM_VIEW } from "./ids.js";
import type { SlackMessage } from "./message.js";
import { escapeMrkdwn, inlineCode } from "./mrkdwn.js";
import { payoffMethodLabel, shortWallet } from "./payout-forms.js";

export { RECIPIENT_ACTIONS, RECIPIENT_ADD_VIEW, RECIPIENT_CONFIRM_VIEW };

/** The add form's block ids (the keys of view.state.values and of field errors). */
export const RECIPIENT_FIELDS = {
  label: "recipient_label",
  method: "recipient_method",
  wallet: "recipient_wallet",
  walletExtra: "recipient_wallet_extra",
  note: "recipient_note",
} as const;
export const CONFIRM_FIELD = "recipient_last_four";

/** The add form's private_metadata: team, channel asked in, register's name. */
export type RecipientFormOrigin = { t: string; c: string; r: string };

/** A recipient's buttons carry `ID:REGISTER` (the id is 10 letters; the register's name follows). */
export const recipientButtonValue = (id: string, register: string) => `${id}:${register}`;
export function readRecipientButton(value: string | undefined): { id: string; register: string } | undefined {
  const match = /^([a-z2-7]{10}):(.{1,40})$/.exec(value ?? "");
  return match?.[1] && match[2] ? { id: match[1], register: match[2] } : undefined;
}

const section = (text: string): types.KnownBlock => ({ type: "section", text: { type: "mrkdwn", text } });
const people = (ids: readonly string[]) => ids.map((id) => `<@${id}>`).join(", ");

/** `/payout recipient add`: label, method (the register's payout methods, or a code), wallet, v3's extra, note. */
export function recipientAddModal(options: {
  register: string;
  channel: string;
  methods: PayoffMethod[] | undefined;
  v3: boolean;
  origin: RecipientFormOrigin;
  lang: Lang;
}): types.ModalView {
  const t = PAYOUT_RECIPIENTS_TEXT[options.lang];
  const methods = options.methods ?? [];
  const blocks: types.KnownBlock[] = [
    section(t.formIntro(`*${escapeMrkdwn(options.register)}*`, `<#${options.channel}>`)),
    textInput({ block: RECIPIENT_FIELDS.label, label: t.label, hint: t.labelHint, maxLength: 80 }),
    methods.length > 0
      ? selectInput({
          block: RECIPIENT_FIELDS.method,
          label: t.method,
          options: methods.map((method) =>
            selectOption(payoffMethodLabel(method, options.lang), method.code),
          ),
        })
      : textInput({
          block: RECIPIENT_FIELDS.method,
          label: t.methodCode,
          maxLength: 64,
          placeholder: "CARD_RUB",
        }),
    textInput({ block: RECIPIENT_FIELDS.wallet, label: t.wallet, hint: t.walletHint, maxLength: 512 }),
    ...(options.v3
      ? [
          textInput({
            block: RECIPIENT_FIELDS.walletExtra,
            label: t.walletExtra,
            optional: true,
            maxLength: 200,
          }),
        ]
      : []),
    textInput({ block: RECIPIENT_FIELDS.note, label: t.note, optional: true, maxLength: 300 }),
  ];
  return modal({
    callbackId: RECIPIENT_ADD_VIEW,
    title: t.formTitle,
    submit: t.add,
    close: t.close,
    privateMetadata: JSON.stringify(options.origin),
    blocks,
  });
}

/** The recipient's card in the approval channel: what it is, its confirmations, Confirm while pending. */
export function recipientCard(recipient: Recipient, register: string, lang: Lang): SlackMessage {
  const t = PAYOUT_RECIPIENTS_TEXT[lang];
  const label = escapeMrkdwn(recipient.label);
  const lines = [
    t.cardTitle(label, escapeMrkdwn(register)),
    t.cardLines(inlineCode(recipient.method), inlineCode(recipient.wallet), `<@${recipient.added.by}>`),
    ...(recipient.walletExtra ? [t.extraLine(inlineCode(recipient.walletExtra))] : []),
    ...(recipient.note ? [t.noteLine(escapeMrkdwn(recipient.note))] : []),
  ];
  const confirmed = people(recipient.confirmations.map((one) => one.by));
  const state =
    recipient.status === "trusted"
      ? t.trustedLine(confirmed)
      : recipient.status === "removed"
        ? t.removedLine(`<@${recipient.removed?.by ?? ""}>`)
        : `${t.confirmations(recipient.confirmations.length, confirmed)}\n${t.cardHowTo}`;
  const blocks: types.KnownBlock[] = [section(lines.join("\n")), section(state)];
  if (recipient.status === "pending")
    blocks.push({
      type: "actions",
      elements: [
        {
          type: "button",
          action_id: RECIPIENT_ACTIONS.confirm,
          style: "primary",
          text: { type: "plain_text", text: t.confirm },
          value: recipientButtonValue(recipient.id, register),
        },
      ],
    });
  return { text: t.cardFallback(recipient.label), blocks };
}

/** Confirm's modal: the recipient in a line, and the wallet's last four to type. */
export function recipientConfirmModal(
  recipient: Recipient,
  origin: { id: string; r: string },
  lang: Lang,
): types.ModalView {
  const t = PAYOUT_RECIPIENTS_TEXT[lang];
  return modal({
    callbackId: RECIPIENT_CONFIRM_VIEW,
    title: t.confirmTitle,
    submit: t.confirm,
    close: t.close,
    privateMetadata: JSON.stringify(origin),
    blocks: [
      section(
        t.confirmIntro(
          `*${escapeMrkdwn(recipient.label)}*`,
          inlineCode(recipient.method),
          inlineCode(recipient.wallet),
        ),
      ),
      textInput({ block: CONFIRM_FIELD, label: t.lastFour, hint: t.lastFourHint, maxLength: 8 }),
    ],
  });
}

/** One recipient as the list shows it: label, method, wallet shortened, who added and confirmed, last paid. */
export function recipientLine(recipient: Recipient, lang: Lang): string {
  const t = PAYOUT_RECIPIENTS_TEXT[lang];
  const confirmed = people(recipient.confirmations.map((one) => one.by));
  const line = t.listLine(
    escapeMrkdwn(recipient.label),
    inlineCode(recipient.method),
    inlineCode(shortWallet(recipient.wallet)),
    `<@${recipient.added.by}>`,
    recipient.status === "trusted" ? confirmed : "",
  );
  const paid = recipient.lastPaid
    ? t.lastPaid(slackDateFromEpoch(Math.floor(Date.parse(recipient.lastPaid.at) / 1000), lang))
    : t.neverPaid;
  return `${line}; ${recipient.status === "pending" ? t.pending(recipient.confirmations.length) : paid}`;
}

/** `/payout recipients`' lines (App Home shows the same). */
export function recipientsLines(recipients: readonly Recipient[], register: string, lang: Lang): string {
  const t = PAYOUT_RECIPIENTS_TEXT[lang];
  const lines = recipients.length === 0 ? [t.listEmpty] : recipients.map((one) => recipientLine(one, lang));
  return [t.listTitle(escapeMrkdwn(register)), ...lines].join("\n");
}

/** `/payout recipients`: the list, and how to pay, add and remove. */
export function recipientsMessage(
  recipients: readonly Recipient[],
  register: string,
  lang: Lang,
): SlackMessage {
  const t = PAYOUT_RECIPIENTS_TEXT[lang];
  return {
    response_type: "ephemeral",
    text: t.fallback,
    blocks: [
      section(recipientsLines(recipients, register, lang).slice(0, 2900)),
      { type: "context", elements: [{ type: "mrkdwn", text: t.listHowTo }] },
    ],
  };
}

/** `/payout recipient remove LABEL`: the question, with Remove (Slack asks once more). */
export function recipientRemoveAsk(recipient: Recipient, register: string, lang: Lang): SlackMessage {
  const t = PAYOUT_RECIPIENTS_TEXT[lang];
  const label = escapeMrkdwn(recipient.label);
  return {
    response_type: "ephemeral",
    text: t.fallback,
    blocks: [
      section(t.removeAsk(`*${label}*`)),
      {
        type: "actions",
        elements: [
          {
            type: "button",
            action_id: RECIPIENT_ACTIONS.remove,
            style: "danger",
            text: { type: "plain_text", text: t.remove },
            value: recipientButtonValue(recipient.id, register),
            confirm: {
              title: { type: "plain_text", text: t.removeConfirmTitle },
              text: { type: "mrkdwn", text: t.removeConfirmText(label) },
              confirm: { type: "plain_text", text: t.remove },
              deny: { type: "plain_text", text: t.cancel },
              style: "danger",
            },
          },
        ],
      },
    ],
  };
}
