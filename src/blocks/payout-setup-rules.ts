import type { types } from "@slack/bolt";
import type { Lang } from "../i18n/lang.js";
import { PAYOUT_RULES_TEXT } from "../i18n/payout-rules.js";
import { compareDecimals } from "../payments/decimal.js";
import type { PayoutPolicy } from "../payouts/policy.js";
import { textInput, usersInput } from "./form.js";

// Issue 52 in the payout setup form: the trusted one-approver amount, and rows of approval limits
// (the approvers chosen in a row approve up to its amount), one row per limit set, and one or two
// empty rows to add another.

/** People per picker, and the different limits a policy may have (the policy's PEOPLE_MAX, LIMIT_AMOUNTS_MAX). */
const PEOPLE_MAX = 50;
const LIMIT_AMOUNTS_MAX = 10;

/** The rule fields' input blocks (the keys of view.state.values and of field errors). */
export const PAYOUT_RULE_FIELDS = {
  trustedOneBelow: "payout_trusted_below",
  limitPeople: (row: number) => `payout_limit_people_${row}`,
  limitUpTo: (row: number) => `payout_limit_upto_${row}`,
} as const;

/** A policy's limits grouped by amount, lowest first: each amount and its approvers. */
export function limitRowsOf(policy: PayoutPolicy | undefined): Array<{ upTo: string; people: string[] }> {
  const rows = new Map<string, string[]>();
  for (const [who, upTo] of Object.entries(policy?.approverLimits ?? {}))
    rows.set(upTo, [...(rows.get(upTo) ?? []), who]);
  return [...rows.entries()]
    .map(([upTo, people]) => ({ upTo, people }))
    .sort((a, b) => compareDecimals(a.upTo, b.upTo));
}

/** How many rows of limits the form shows: each set, then room for more (two at least, ten at most). */
export function limitRowCount(policy: PayoutPolicy | undefined): number {
  return Math.min(LIMIT_AMOUNTS_MAX, Math.max(2, limitRowsOf(policy).length + 1));
}

/** The trusted one-approver amount's input. */
export function trustedOneInput(policy: PayoutPolicy | undefined, lang: Lang): types.InputBlock {
  const t = PAYOUT_RULES_TEXT[lang];
  return textInput({
    block: PAYOUT_RULE_FIELDS.trustedOneBelow,
    label: t.trustedOneBelow,
    hint: t.trustedOneBelowHint,
    optional: true,
    maxLength: 20,
    placeholder: "100000",
    initial: policy?.trustedOneBelow,
  });
}

/** The approval limits: what they mean, then each row's approvers and amount. */
export function limitInputs(policy: PayoutPolicy | undefined, lang: Lang): types.KnownBlock[] {
  const t = PAYOUT_RULES_TEXT[lang];
  const rows = limitRowsOf(policy);
  const blocks: types.KnownBlock[] = [{ type: "section", text: { type: "mrkdwn", text: t.limitsIntro } }];
  for (let row = 0; row < limitRowCount(policy); row++) {
    const set = rows[row];
    blocks.push(
      usersInput({
        block: PAYOUT_RULE_FIELDS.limitPeople(row),
        label: t.limitPeople(row + 1),
        hint: t.limitPeopleHint,
        optional: true,
        max: PEOPLE_MAX,
        initial: set?.people,
      }),
      textInput({
        block: PAYOUT_RULE_FIELDS.limitUpTo(row),
        label: t.limitUpTo(row + 1),
        optional: true,
        maxLength: 20,
        placeholder: "50000",
        initial: set?.upTo,
      }),
    );
  }
  return blocks;
}
