import { PAYOUT_FIELDS } from "../../blocks/payout-setup.js";
import { PAYOUT_RULE_FIELDS } from "../../blocks/payout-setup-rules.js";
import type { Lang } from "../../i18n/lang.js";
import { PAYOUT_RULES_TEXT } from "../../i18n/payout-rules.js";
import { PAYOUTS_TEXT } from "../../i18n/payouts.js";
import type { PolicyProblem } from "../../payouts/policy.js";

/** The block a problem belongs next to, and what it says there (plain text: ids, no mentions). */
function fieldError(problem: PolicyProblem, lang: Lang): [string, string] {
  const rules = PAYOUT_RULES_TEXT[lang].problems;
  const people = "people" in problem ? (problem.people ?? []).map((id) => `@${id}`).join(", ") : "";
  switch (problem.field) {
    case "trustedOneBelow":
      return [PAYOUT_RULE_FIELDS.trustedOneBelow, rules[problem.reason]("")];
    case "approverLimits": {
      const amount = problem.reason === "not_an_amount" || problem.reason === "too_many";
      const block = amount
        ? PAYOUT_RULE_FIELDS.limitUpTo(problem.row)
        : PAYOUT_RULE_FIELDS.limitPeople(problem.row);
      return [block, rules[problem.reason](people)];
    }
    default:
      return [PAYOUT_FIELDS[problem.field], PAYOUTS_TEXT[lang].problems[problem.reason]];
  }
}

/** Every problem of a policy next to its field (the first one said, where a field has several). */
export function policyFieldErrors(problems: readonly PolicyProblem[], lang: Lang): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const problem of problems) {
    const [block, text] = fieldError(problem, lang);
    errors[block] ??= text;
  }
  return errors;
}
