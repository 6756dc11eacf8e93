import { escapeMrkdwn } from "../../blocks/mrkdwn.js";
import type { Lang } from "../../i18n/lang.js";
import { PAYOUT_RECIPIENTS_TEXT } from "../../i18n/payout-recipients.js";
import type { RecipientRefusal } from "../../payout-recipients/recipients.js";

/** A refusal of adding, confirming or removing a recipient, or of the person (Slack's side). */
export type RecipientRefusalShown = RecipientRefusal | { kind: "not_admin" } | { kind: "unchecked" };

const people = (ids: readonly string[]) => ids.map((id) => `<@${id}>`).join(", ");

/** The refusal in words (mrkdwn: people as mentions). */
export function recipientRefusalText(refusal: RecipientRefusalShown, lang: Lang): string {
  const words = PAYOUT_RECIPIENTS_TEXT[lang].refusals;
  switch (refusal.kind) {
    case "invalid":
      return words.invalid[refusal.field];
    case "closed":
      return words.closed[refusal.status];
    case "not_a_requester":
      return words.not_a_requester(refusal.requesters.length > 0 ? people(refusal.requesters) : "admins");
    case "not_an_approver":
      return words.not_an_approver(people(refusal.approvers));
    case "method_not_allowed":
      return words.method_not_allowed(refusal.methods.map((code) => `\`${code}\``).join(", "));
    case "label_taken":
    case "wallet_known":
      return words[refusal.kind](`*${escapeMrkdwn(refusal.label)}*`);
    default:
      return words[refusal.kind]("");
  }
}
