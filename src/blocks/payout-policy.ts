import type { Lang } from "../i18n/lang.js";
import { PAYOUT_RULES_TEXT } from "../i18n/payout-rules.js";
import { PAYOUTS_TEXT, type PolicyFieldWord } from "../i18n/payouts.js";
import type { PayoutPolicy } from "../payouts/policy.js";
import { slackDateFromEpoch } from "./format.js";
import type { SlackMessage } from "./message.js";
import { escapeMrkdwn, truncate } from "./mrkdwn.js";
import { policyValueText } from "./payout-setup.js";
import { ephemeral } from "./replies.js";

/** `/payout policy`: a register's policy, a field a line (`fields` in the order shown), or that it has none. */
export function payoutPolicyMessage(
  register: string,
  policy: PayoutPolicy | undefined,
  fields: readonly PolicyFieldWord[],
  lang: Lang,
): SlackMessage {
  const t = PAYOUT_RULES_TEXT[lang];
  const named = `*${escapeMrkdwn(register)}*`;
  if (!policy) return ephemeral(t.policyNone(named), t.policyNone(register));
  const by = /^[UW][A-Z0-9]+$/.test(policy.changedBy)
    ? `<@${policy.changedBy}>`
    : escapeMrkdwn(policy.changedBy);
  const when = slackDateFromEpoch(Math.floor(Date.parse(policy.changedAt) / 1000), lang);
  const lines = fields.map(
    (field) => `• *${PAYOUTS_TEXT[lang].fields[field]}*: ${policyValueText(policy, field, lang)}`,
  );
  const text = truncate(
    [t.policyTitle(escapeMrkdwn(register), policy.version, by, when), ...lines, t.policyChange].join("\n"),
    3000,
  );
  return ephemeral(text, PAYOUTS_TEXT[lang].announceFallback(register));
}
