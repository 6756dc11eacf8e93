import { z } from "zod";
import { ENABLED_CHOICE, PAYOUT_FIELDS } from "../../blocks/payout-setup.js";
import { PAYOUT_RULE_FIELDS } from "../../blocks/payout-setup-rules.js";
import { LIMIT_AMOUNTS_MAX, type LimitRow, type PolicyInput, parseExpiry } from "../../payouts/policy.js";
import { parseRubAmount } from "../../util/rub-amount.js";
import { textValue } from "./form.js";

/** A multi-select's or checkboxes' state in view.state.values. */
const chosenValues = z.object({
  selected_options: z
    .array(z.object({ value: z.string().max(100) }))
    .max(100)
    .nullish(),
});
/** A people picker's state: Slack user ids (checked again by the policy). */
const chosenUsers = z.object({ selected_users: z.array(z.string().max(40)).max(100).nullish() });
/** A conversations_select's state. */
const chosenConversation = z.object({ selected_conversation: z.string().max(40).nullish() });

/** The parts of view.state.values the setup form defines (methods: a multi-select, or codes as text). */
const formSchema = z.object({
  [PAYOUT_FIELDS.approvers]: z.object({ value: chosenUsers }),
  [PAYOUT_FIELDS.channel]: z.object({ value: chosenConversation }),
  [PAYOUT_FIELDS.twoApproversFrom]: z.object({ value: textValue }),
  [PAYOUT_FIELDS.requesterDaily]: z.object({ value: textValue }),
  [PAYOUT_FIELDS.registerDaily]: z.object({ value: textValue }),
  [PAYOUT_FIELDS.expiryMinutes]: z.object({ value: textValue }),
  [PAYOUT_FIELDS.methods]: z
    .object({ value: chosenValues.extend({ type: z.string(), value: z.string().max(3000).nullish() }) })
    .optional(),
  [PAYOUT_FIELDS.requesters]: z.object({ value: chosenUsers }).optional(),
  [PAYOUT_FIELDS.enabled]: z.object({ value: chosenValues }).optional(),
  [PAYOUT_RULE_FIELDS.trustedOneBelow]: z.object({ value: textValue }).optional(),
});

const ROWS = Array.from({ length: LIMIT_AMOUNTS_MAX }, (_, row) => row);
/** One row of approval limits as the form sends it (a row the form did not show: neither). */
const rowSchema = z.object({
  people: z.object({ value: chosenUsers }).optional(),
  upTo: z.object({ value: textValue }).optional(),
});

/** Each row the form showed, as typed (an empty row: no people, no amount); undefined: not the form's. */
function limitRows(values: unknown): LimitRow[] | undefined {
  const blocks = z.record(z.string(), z.unknown()).safeParse(values);
  if (!blocks.success) return undefined;
  const rows: LimitRow[] = [];
  for (const row of ROWS) {
    const read = rowSchema.safeParse({
      people: blocks.data[PAYOUT_RULE_FIELDS.limitPeople(row)],
      upTo: blocks.data[PAYOUT_RULE_FIELDS.limitUpTo(row)],
    });
    if (!read.success) return undefined;
    rows.push({
      people: read.data.people?.value.selected_users ?? [],
      upTo: parseRubAmount(read.data.upTo?.value.value ?? ""),
    });
  }
  return rows;
}

/**
 * What a submitted setup form says, as the policy's check takes it (amounts as exact decimal text,
 * the wait in minutes); undefined when these are not the form's values (an old form, a forged one).
 */
export function readPayoutSetup(values: unknown): PolicyInput | undefined {
  const form = formSchema.safeParse(values);
  const limits = limitRows(values);
  if (!form.success || !limits) return undefined;
  const data = form.data;
  const text = (
    block:
      | typeof PAYOUT_FIELDS.twoApproversFrom
      | typeof PAYOUT_FIELDS.requesterDaily
      | typeof PAYOUT_FIELDS.registerDaily
      | typeof PAYOUT_FIELDS.expiryMinutes,
  ) => data[block].value.value ?? "";
  // The methods are a multi-select where the register lists them, else codes written as text.
  const methodsState = data[PAYOUT_FIELDS.methods]?.value;
  const methods =
    methodsState?.type === "plain_text_input"
      ? (methodsState.value ?? "").split(/[\s,;]+/).filter((code) => code !== "")
      : (methodsState?.selected_options ?? []).map((option) => option.value);
  const enabled = data[PAYOUT_FIELDS.enabled]?.value.selected_options ?? [];
  return {
    enabled: enabled.some((option) => option.value === ENABLED_CHOICE),
    approvers: data[PAYOUT_FIELDS.approvers].value.selected_users ?? [],
    channel: data[PAYOUT_FIELDS.channel].value.selected_conversation ?? undefined,
    twoApproversFrom: parseRubAmount(text(PAYOUT_FIELDS.twoApproversFrom)),
    requesterDaily: parseRubAmount(text(PAYOUT_FIELDS.requesterDaily)),
    registerDaily: parseRubAmount(text(PAYOUT_FIELDS.registerDaily)),
    expiryMinutes: parseExpiry(text(PAYOUT_FIELDS.expiryMinutes)),
    methods,
    requesters: data[PAYOUT_FIELDS.requesters]?.value.selected_users ?? [],
    trustedOneBelow: parseRubAmount(data[PAYOUT_RULE_FIELDS.trustedOneBelow]?.value.value ?? ""),
    approverLimits: limits,
  };
}
