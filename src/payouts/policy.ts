import { z } from "zod";
import { compareDecimals } from "../payments/decimal.js";

// A register's payout policy: who may ask for money to go out, who approves it, in which channel,
// from which amount two approvers are needed, the daily caps, how long a request waits and the
// methods allowed. Without one (or with one not enabled) the register makes no payouts.

/** How long a request waits for its approvals, in minutes: 5 minutes to 72 hours, 24 hours unless set. */
export const EXPIRY_MIN_MINUTES = 5;
export const EXPIRY_MAX_MINUTES = 72 * 60;
export const EXPIRY_DEFAULT_MINUTES = 24 * 60;
/** Fewer than two people could approve nothing when one of them asks. */
export const APPROVERS_MIN = 2;
export const PEOPLE_MAX = 50;
export const METHODS_MAX = 100;
/** Approver limits of different amounts a policy may have (the setup form shows a row for each). */
export const LIMIT_AMOUNTS_MAX = 10;

export const USER_ID = /^[UW][A-Z0-9]{2,20}$/;
export const CHANNEL_ID = /^[CG][A-Z0-9]{2,40}$/;
export const METHOD_CODE = /^[A-Za-z0-9_.-]{1,64}$/;
/** Whole roubles and up to two decimals, no leading zeros, at most 12 digits before the point: exact. */
const RUB_TEXT = /^(0|[1-9]\d{0,11})(\.\d{0,1}[1-9])?$/;

const rubSchema = z.string().refine((text) => RUB_TEXT.test(text) && compareDecimals(text, "0") > 0);
const userSchema = z.string().regex(USER_ID);

/** What an admin sets (the form, the CLI). */
export const policyDraftSchema = z.object({
  enabled: z.boolean(),
  approvers: z.array(userSchema).min(APPROVERS_MIN).max(PEOPLE_MAX),
  channel: z.string().regex(CHANNEL_ID),
  /** From this amount (RUB, inclusive) two different approvers are needed; below it, one. */
  twoApproversFrom: rubSchema,
  /** At most this much (RUB) per requester per day (the register's day, UTC), waiting requests included. */
  requesterDaily: rubSchema,
  /** At most this much (RUB) out of the register per day. */
  registerDaily: rubSchema,
  expiryMinutes: z.number().int().min(EXPIRY_MIN_MINUTES).max(EXPIRY_MAX_MINUTES),
  /** Method codes allowed; empty: every payout method of the register. */
  methods: z.array(z.string().regex(METHOD_CODE)).max(METHODS_MAX),
  /** Who may request; empty: the workspace's admins (those who may connect the register). */
  requesters: z.array(userSchema).max(PEOPLE_MAX),
  // Issue 52 (optional: a policy stored before reads as before, with neither rule).
  /** To a trusted recipient, below this amount (RUB) one approver suffices; none: the threshold alone. */
  trustedOneBelow: rubSchema.optional(),
  /** Approvers who approve only up to an amount (RUB, inclusive), by user id; the others, any amount. */
  approverLimits: z.record(userSchema, rubSchema).optional(),
});
export type PolicyDraft = z.infer<typeof policyDraftSchema>;

/** The stored policy: the draft, and which version it is, who set it and when. */
export const payoutPolicySchema = policyDraftSchema.extend({
  v: z.literal(1),
  /** 1 for the first policy, one more at each change. */
  version: z.number().int().min(1),
  /** A Slack user id, or "cli" for an operator. */
  changedBy: z.string().min(1).max(32),
  changedAt: z.iso.datetime(),
});
export type PayoutPolicy = z.infer<typeof payoutPolicySchema>;

/** What the form and the CLI may get wrong, by field; each is worded in the catalogue and the CLI. */
export type PolicyProblem =
  | { field: "approvers"; reason: "too_few" | "too_many" | "not_people" }
  | { field: "channel"; reason: "missing" }
  | { field: "twoApproversFrom" | "requesterDaily" | "registerDaily"; reason: "not_an_amount" }
  | { field: "requesterDaily"; reason: "above_register_daily" }
  | { field: "expiryMinutes"; reason: "out_of_range" }
  | { field: "methods"; reason: "not_codes" | "too_many" }
  | { field: "requesters"; reason: "too_many" | "not_people" }
  | { field: "trustedOneBelow"; reason: "not_an_amount" | "not_above_two_from" }
  /** A row of limits (0-based): its amount, its people (those who are no approvers, or have two limits). */
  | {
      field: "approverLimits";
      reason: "not_an_amount" | "no_people" | "not_approvers" | "twice" | "too_many";
      row: number;
      people?: string[];
    };
export type PolicyField = PolicyProblem["field"];

/** What the form or the CLI read, before it is checked: amounts as exact decimal text (or "invalid"). */
export type PolicyInput = {
  enabled: boolean;
  approvers: string[];
  channel: string | undefined;
  twoApproversFrom: string | null | "invalid";
  requesterDaily: string | null | "invalid";
  registerDaily: string | null | "invalid";
  expiryMinutes: number | "invalid";
  methods: string[];
  requesters: string[];
  /** null or left out: no trusted one-approver rule. */
  trustedOneBelow?: string | null | "invalid";
  /** Rows of limits as typed: the people in a row approve up to its amount. Left out: none. */
  approverLimits?: LimitRow[];
};
export type LimitRow = { people: string[]; upTo: string | null | "invalid" };

function peopleProblem(ids: string[], min: number): "too_few" | "too_many" | "not_people" | undefined {
  if (ids.length < min) return "too_few";
  if (ids.length > PEOPLE_MAX) return "too_many";
  return ids.every((id) => USER_ID.test(id)) ? undefined : "not_people";
}

function amountOk(value: string | null | "invalid"): value is string {
  return value !== null && rubSchema.safeParse(value).success;
}

/** Checks what an admin set: the policy, or every problem found (each next to its field). */
export function checkPolicy(
  input: PolicyInput,
): { ok: true; draft: PolicyDraft } | { ok: false; problems: PolicyProblem[] } {
  const problems: PolicyProblem[] = [];
  const approvers = [...new Set(input.approvers)];
  const requesters = [...new Set(input.requesters)];
  const methods = [...new Set(input.methods)];
  const approverProblem = peopleProblem(approvers, APPROVERS_MIN);
  if (approverProblem) problems.push({ field: "approvers", reason: approverProblem });
  if (!input.channel || !CHANNEL_ID.test(input.channel))
    problems.push({ field: "channel", reason: "missing" });
  for (const field of ["twoApproversFrom", "requesterDaily", "registerDaily"] as const)
    if (!amountOk(input[field])) problems.push({ field, reason: "not_an_amount" });
  if (
    amountOk(input.requesterDaily) &&
    amountOk(input.registerDaily) &&
    compareDecimals(input.requesterDaily, input.registerDaily) > 0
  )
    problems.push({ field: "requesterDaily", reason: "above_register_daily" });
  const expiry = input.expiryMinutes;
  if (expiry === "invalid" || expiry < EXPIRY_MIN_MINUTES || expiry > EXPIRY_MAX_MINUTES)
    problems.push({ field: "expiryMinutes", reason: "out_of_range" });
  if (methods.length > METHODS_MAX) problems.push({ field: "methods", reason: "too_many" });
  else if (!methods.every((code) => METHOD_CODE.test(code)))
    problems.push({ field: "methods", reason: "not_codes" });
  const requesterProblem = peopleProblem(requesters, 0);
  if (requesterProblem && requesterProblem !== "too_few")
    problems.push({ field: "requesters", reason: requesterProblem });
  problems.push(...trustedProblems(input), ...limitProblems(input.approverLimits ?? [], approvers));
  if (problems.length > 0) return { ok: false, problems };
  const draft = policyDraftSchema.safeParse({
    ...input,
    approvers,
    requesters,
    methods,
    trustedOneBelow: input.trustedOneBelow ?? undefined,
    approverLimits: limitsOf(input.approverLimits ?? []),
  });
  // Every rule of the schema is checked above; a draft it still refuses is a bug here, said as one.
  if (!draft.success) throw new Error(`policy check missed: ${draft.error.issues[0]?.message}`);
  return { ok: true, draft: draft.data };
}

function trustedProblems(input: PolicyInput): PolicyProblem[] {
  const below = input.trustedOneBelow ?? null;
  if (below === null) return [];
  if (!amountOk(below)) return [{ field: "trustedOneBelow", reason: "not_an_amount" }];
  // At or below the threshold it would change nothing: one approver suffices there anyway.
  if (amountOk(input.twoApproversFrom) && compareDecimals(below, input.twoApproversFrom) <= 0)
    return [{ field: "trustedOneBelow", reason: "not_above_two_from" }];
  return [];
}

/** Each row of limits checked: an amount for people who are approvers, each person in one row only. */
function limitProblems(rows: LimitRow[], approvers: string[]): PolicyProblem[] {
  const problems: PolicyProblem[] = [];
  const seen = new Set<string>();
  const amounts = new Set<string>();
  rows.forEach((row, index) => {
    const people = [...new Set(row.people)];
    const problem = (reason: Extract<PolicyProblem, { field: "approverLimits" }>["reason"], who?: string[]) =>
      problems.push({ field: "approverLimits", reason, row: index, ...(who ? { people: who } : {}) });
    const strangers = people.filter((person) => !approvers.includes(person));
    const twice = people.filter((person) => seen.has(person));
    for (const person of people) seen.add(person);
    if (people.length === 0) {
      if (row.upTo !== null) problem("no_people");
    } else if (!amountOk(row.upTo)) problem("not_an_amount");
    else if (strangers.length > 0) problem("not_approvers", strangers);
    else if (twice.length > 0) problem("twice", twice);
    else if (amounts.add(row.upTo).size > LIMIT_AMOUNTS_MAX) problem("too_many");
  });
  return problems;
}

/** The rows as the policy stores them: each person's limit, by user id in order; none: undefined. */
function limitsOf(rows: LimitRow[]): Record<string, string> | undefined {
  const pairs = rows.flatMap(({ people, upTo }) =>
    typeof upTo === "string" && upTo !== "invalid" ? people.map((person) => [person, upTo] as const) : [],
  );
  if (pairs.length === 0) return undefined;
  return Object.fromEntries([...pairs].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/**
 * How long a request waits, as people write it: `24h`, `90m`, `1h30m`, `2d`, `24` (hours), with
 * Russian units too (`24ч`, `30м`, `2д`). Minutes, or "invalid"; empty: the default.
 */
export function parseExpiry(text: string): number | "invalid" {
  const written = text.trim().toLowerCase().replace(/\s+/g, "");
  if (written === "") return EXPIRY_DEFAULT_MINUTES;
  if (/^\d{1,4}$/.test(written)) return Number(written) * 60;
  const parts = /^(?:(\d{1,3})(?:d|д))?(?:(\d{1,4})(?:h|ч))?(?:(\d{1,5})(?:m|min|м|мин))?$/.exec(written);
  if (!parts || (parts[1] ?? parts[2] ?? parts[3]) === undefined) return "invalid";
  const [days, hours, minutes] = [parts[1], parts[2], parts[3]].map((part) => Number(part ?? "0"));
  return (days ?? 0) * 1440 + (hours ?? 0) * 60 + (minutes ?? 0);
}

/** Whether the policy lets payouts be requested at all. */
export function payoutsOn(policy: PayoutPolicy | undefined): policy is PayoutPolicy {
  return policy?.enabled === true;
}
