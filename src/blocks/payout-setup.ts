import type { types } from "@slack/bolt";
import type { Lang } from "../i18n/lang.js";
import { formatExpiry, PAYOUTS_TEXT, type PolicyFieldWord } from "../i18n/payouts.js";
import type { PayoutPolicy } from "../payouts/policy.js";
import { checkboxesInput, modal, multiSelectInput, selectOption, textInput, usersInput } from "./form.js";
import { formatMoney } from "./format.js";
import { PAYOUT_SETUP_VIEW } from "./ids.js";
import type { SlackMessage } from "./message.js";
import { escapeMrkdwn, inlineCode, truncate } from "./mrkdwn.js";
import { ruleValueText } from "./payout-rules.js";
import { limitInputs, trustedOneInput } from "./payout-setup-rules.js";
import { ephemeral } from "./replies.js";

export { PAYOUT_SETUP_VIEW } from "./ids.js";

/** The setup form's input blocks (the keys of view.state.values and of field errors). */
export const PAYOUT_FIELDS = {
  approvers: "payout_approvers",
  channel: "payout_channel",
  twoApproversFrom: "payout_two_from",
  requesterDaily: "payout_person_day",
  registerDaily: "payout_register_day",
  expiryMinutes: "payout_expire",
  methods: "payout_methods",
  requesters: "payout_requesters",
  enabled: "payout_enabled",
} as const;
export const ENABLED_CHOICE = "on";
/** Slack's limit on a multi-select's options, and people per picker. */
const OPTIONS_MAX = 100;
const PEOPLE_MAX = 50;

/** What the form's private_metadata carries: workspace, register, the version seen, where it was asked. */
export type PayoutSetupOrigin = { t: string; r: string; v: number; c: string };

/**
 * The payout policy form of one register, filled with its policy (none yet: empty but for the wait,
 * 24 hours, and payouts on). `methods`: the register's payout methods when listed in time; "unlisted"
 * on an API with no list (v2: codes are written as text); undefined when not read in time (codes too).
 */
export function payoutSetupModal(options: {
  register: string;
  policy: PayoutPolicy | undefined;
  methods: ReadonlyArray<{ code: string; name: string }> | "unlisted" | undefined;
  origin: PayoutSetupOrigin;
  lang?: Lang;
}): types.ModalView {
  const t = PAYOUTS_TEXT[options.lang ?? "en"];
  const policy = options.policy;
  const amount = (block: string, label: string, initial: string | undefined, hint?: string) =>
    textInput({ block, label, hint, maxLength: 20, placeholder: "50000", initial });
  const blocks: types.KnownBlock[] = [
    { type: "section", text: { type: "mrkdwn", text: t.intro(`*${escapeMrkdwn(options.register)}*`) } },
    usersInput({
      block: PAYOUT_FIELDS.approvers,
      label: t.approvers,
      hint: t.approversHint,
      max: PEOPLE_MAX,
      initial: policy?.approvers,
    }),
    {
      type: "input",
      block_id: PAYOUT_FIELDS.channel,
      label: { type: "plain_text", text: t.channel },
      hint: { type: "plain_text", text: t.channelHint },
      element: {
        type: "conversations_select",
        action_id: "value",
        filter: { include: ["public", "private"], exclude_bot_users: true },
        ...(policy ? { initial_conversation: policy.channel } : {}),
      },
    },
    amount(PAYOUT_FIELDS.twoApproversFrom, t.twoFrom, policy?.twoApproversFrom, t.twoFromHint),
    trustedOneInput(policy, options.lang ?? "en"),
    ...limitInputs(policy, options.lang ?? "en"),
    amount(PAYOUT_FIELDS.requesterDaily, t.personDay, policy?.requesterDaily),
    amount(PAYOUT_FIELDS.registerDaily, t.registerDay, policy?.registerDaily),
    textInput({
      block: PAYOUT_FIELDS.expiryMinutes,
      label: t.expire,
      hint: t.expireHint,
      maxLength: 12,
      initial: formatExpiry(policy?.expiryMinutes ?? 24 * 60),
    }),
    methodsInput(options.methods, policy?.methods ?? [], options.lang ?? "en"),
    usersInput({
      block: PAYOUT_FIELDS.requesters,
      label: t.requesters,
      hint: t.requestersHint,
      optional: true,
      max: PEOPLE_MAX,
      placeholder: t.admins,
      initial: policy?.requesters,
    }),
    checkboxesInput({
      block: PAYOUT_FIELDS.enabled,
      label: t.enabled,
      optional: true,
      options: [selectOption(t.enabledOption, ENABLED_CHOICE)],
      initial: policy?.enabled === false ? [] : [ENABLED_CHOICE],
    }),
  ];
  return modal({
    callbackId: PAYOUT_SETUP_VIEW,
    title: t.title,
    submit: t.save,
    close: t.cancel,
    privateMetadata: JSON.stringify(options.origin),
    blocks,
  });
}

function methodsInput(
  methods: ReadonlyArray<{ code: string; name: string }> | "unlisted" | undefined,
  chosen: readonly string[],
  lang: Lang,
): types.InputBlock {
  const t = PAYOUTS_TEXT[lang];
  if (methods === undefined || methods === "unlisted" || methods.length === 0)
    return textInput({
      block: PAYOUT_FIELDS.methods,
      label: t.methodCodes,
      hint: t.methodCodesHint,
      optional: true,
      maxLength: 2000,
      placeholder: "CARDRUBP2P, BITCOIN",
      initial: chosen.join(", ") || undefined,
    });
  const listed = methods.slice(0, OPTIONS_MAX);
  // A method allowed before but gone from the list stays offered, so saving never drops it unseen.
  const gone = chosen.filter((code) => !listed.some((method) => method.code === code));
  return multiSelectInput({
    block: PAYOUT_FIELDS.methods,
    label: t.methods,
    hint: t.methodsHint,
    optional: true,
    placeholder: t.everyMethod,
    options: [
      ...listed.map((method) => selectOption(`${method.name} (${method.code})`, method.code)),
      ...gone.map((code) => selectOption(code, code)),
    ].slice(0, OPTIONS_MAX),
    initial: chosen,
  });
}

/** One field's value as people read it in Slack. */
export function policyValueText(policy: PayoutPolicy, field: PolicyFieldWord, lang: Lang): string {
  const t = PAYOUTS_TEXT[lang];
  const people = (ids: string[]) => ids.map((id) => `<@${id}>`).join(", ");
  const rub = (amount: string) => formatMoney({ value: amount, currency: "RUB" }, lang);
  switch (field) {
    case "enabled":
      return policy.enabled ? t.on : t.off;
    case "approvers":
      return people(policy.approvers);
    case "channel":
      return `<#${policy.channel}>`;
    case "twoApproversFrom":
    case "requesterDaily":
    case "registerDaily":
      return rub(policy[field]);
    case "expiryMinutes":
      return formatExpiry(policy.expiryMinutes);
    case "methods":
      return policy.methods.length === 0 ? t.everyMethod : policy.methods.map(inlineCode).join(", ");
    case "requesters":
      return policy.requesters.length === 0 ? t.admins : people(policy.requesters);
    case "trustedOneBelow":
    case "approverLimits":
      return ruleValueText(policy, field, lang);
  }
}

/** The change, as posted in the approval channel: who, which register, each field before → after. */
export function policyAnnouncement(options: {
  by: string;
  register: string;
  policy: PayoutPolicy;
  before: PayoutPolicy | undefined;
  changed: readonly PolicyFieldWord[];
  lang: Lang;
}): SlackMessage {
  const { policy, before, lang } = options;
  const t = PAYOUTS_TEXT[lang];
  const by = /^[UW][A-Z0-9]+$/.test(options.by) ? `<@${options.by}>` : escapeMrkdwn(options.by);
  const register = `*${escapeMrkdwn(options.register)}*`;
  const lines = options.changed.map((field) => {
    const after = policyValueText(policy, field, lang);
    const was = before ? `${policyValueText(before, field, lang)} → ` : "";
    return `• *${t.fields[field]}*: ${was}${after}`;
  });
  const text = truncate([t.announce(by, register, policy.version), ...lines].join("\n"), 3000);
  return {
    text: t.announceFallback(options.register),
    blocks: [{ type: "section", text: { type: "mrkdwn", text } }],
  };
}

/** The admin's private note once saved; with a warning when Kassa could not post in the channel. */
export function policySavedNote(register: string, policy: PayoutPolicy, notInChannel: boolean, lang: Lang) {
  const t = PAYOUTS_TEXT[lang];
  const channel = `<#${policy.channel}>`;
  const lines = [t.saved(`*${escapeMrkdwn(register)}*`, policy.version, channel)];
  if (notInChannel) lines.push(t.notInChannel(channel));
  return ephemeral(lines.join("\n"), t.savedFallback);
}

/** `/payout` and `/payout help`: what exists, and the register's policy in a line. */
export function payoutHelpMessage(
  register: string,
  policy: PayoutPolicy | undefined,
  lang: Lang,
): SlackMessage {
  const t = PAYOUTS_TEXT[lang];
  const status = !policy
    ? t.statusOff
    : policy.enabled
      ? t.statusOn(policyValueText(policy, "approvers", lang), `<#${policy.channel}>`)
      : t.statusPaused;
  return ephemeral(t.help(`*${escapeMrkdwn(register)}*`, status), t.helpFallback);
}

/** The register has no Secret 2: said before the form opens (and again if it went before saving). */
export function noSecret2Message(register: string, connect: string, lang: Lang): SlackMessage {
  const t = PAYOUTS_TEXT[lang];
  return ephemeral(t.noSecret2(`*${escapeMrkdwn(register)}*`, `\`${connect}\``), t.noSecret2Fallback);
}
