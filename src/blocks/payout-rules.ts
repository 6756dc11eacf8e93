import type { Lang } from "../i18n/lang.js";
import { PAYOUT_CARD_TEXT } from "../i18n/payout-card.js";
import { PAYOUT_RULES_TEXT } from "../i18n/payout-rules.js";
import type { PayoutPolicy } from "../payouts/policy.js";
import type { PayoutRequest } from "../payouts/request-model.js";
import { formatAmount } from "./format.js";

// Issue 52 on the card and in replies: which approval rule applied, approvals set aside by a lowered
// limit, a click over the approver's limit, and the policy's two rule fields in words.

const rub = (value: string, lang: Lang) => formatAmount(value, "RUB", lang);
const people = (ids: readonly string[]) => ids.map((id) => `<@${id}>`).join(", ");

/** Which rule set the approvals a request needs, in words ("two approvers: 15,000.00 RUB and more"). */
export function ruleWords(
  request: Pick<PayoutRequest, "rule" | "ruleAt" | "needed">,
  lang: Lang,
): string | undefined {
  const t = PAYOUT_RULES_TEXT[lang];
  if (!request.rule || !request.ruleAt) return undefined;
  if (request.rule === "trusted_one") return t.ruleTrustedOne(rub(request.ruleAt, lang));
  return request.needed >= 2
    ? t.ruleTwoFrom(rub(request.ruleAt, lang))
    : t.ruleOneBelow(rub(request.ruleAt, lang));
}

/** The card's approvals fact ("Approvals: 1 of 2 (@anna)"), then the rule that asks them. */
export function approvalFacts(request: PayoutRequest, lang: Lang): string[] {
  const votes = request.votes.map((vote) => `<@${vote.by}>`).join(", ");
  const given = PAYOUT_CARD_TEXT[lang].approvals(request.votes.length, request.needed, votes);
  const rule = ruleWords(request, lang);
  return rule ? [given, rule] : [given];
}

/** While it is open: each approval set aside, whose, and the limit that no longer covers it. */
export function asideLines(request: PayoutRequest, lang: Lang): string[] {
  if (request.status !== "waiting" && request.status !== "approved") return [];
  const t = PAYOUT_RULES_TEXT[lang];
  return (request.setAside ?? []).map((vote) => t.setAside(`<@${vote.by}>`, rub(vote.limit, lang)));
}

/** Stopped because a lowered limit left nobody who could approve it. */
export function overLimitStopped(request: PayoutRequest, lang: Lang): string {
  const stop = request.stop;
  return PAYOUT_RULES_TEXT[lang].stoppedOverLimit(
    `<@${stop?.approver ?? "?"}>`,
    rub(stop?.limit ?? "0", lang),
  );
}

/** A click over the approver's limit: the limit, and who can approve it (or that nobody can now). */
export function overLimitText(refusal: { limit: string; canApprove: string[] }, lang: Lang): string {
  const t = PAYOUT_RULES_TEXT[lang];
  const limit = rub(refusal.limit, lang);
  return refusal.canApprove.length > 0
    ? t.overLimit(limit, people(refusal.canApprove))
    : t.overLimitNobody(limit);
}

/** The policy's rule fields as people read them (the announcement, `/payout policy`). */
export function ruleValueText(
  policy: PayoutPolicy,
  field: "trustedOneBelow" | "approverLimits",
  lang: Lang,
): string {
  const t = PAYOUT_RULES_TEXT[lang];
  if (field === "trustedOneBelow")
    return policy.trustedOneBelow ? rub(policy.trustedOneBelow, lang) : t.noTrustedRule;
  const limits = Object.entries(policy.approverLimits ?? {});
  if (limits.length === 0) return t.noLimits;
  return limits.map(([who, limit]) => t.upTo(`<@${who}>`, rub(limit, lang))).join("; ");
}
