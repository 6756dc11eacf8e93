import type { LimitRow, PayoutPolicy, PolicyProblem } from "../payouts/policy.js";
import { parseRubAmount } from "../util/rub-amount.js";
import { UsageError } from "./args.js";

// Issue 52 in the CLI's `payouts policy`: the trusted one-approver amount and approver limits.

export const RULES_USAGE = `                 [--trusted-one-below <RUB>] [--approver-limit <U1=RUB>]...`;
export const RULES_HELP = `      --trusted-one-below: to a trusted recipient, below this amount one approver suffices (more
      than --two-from); --approver-limit U1=N (repeatable, U1,U2=N for several): that approver
      approves only payouts up to N RUB (the others any amount). Left out: none.`;

/** The options parseArgs reads for them. */
export const RULE_OPTIONS = {
  "trusted-one-below": { type: "string" },
  "approver-limit": { type: "string", multiple: true },
} as const;

type RuleValues = { "trusted-one-below"?: string | undefined; "approver-limit"?: string[] | undefined };

/** `U1=50000` or `U1,U2=50 000`: the people and their limit, as the form's rows are read. */
function limitRow(text: string): LimitRow {
  const at = text.lastIndexOf("=");
  if (at < 0)
    throw new UsageError(`--approver-limit must be USER=RUB, such as U0123ABCD=50000 (got "${text}")`);
  const people = text
    .slice(0, at)
    .split(",")
    .map((person) => person.trim())
    .filter((person) => person !== "");
  const upTo = parseRubAmount(text.slice(at + 1));
  return { people, upTo: upTo ?? "invalid" };
}

/** What the rule options say, as the form's values would. */
export function ruleInput(values: RuleValues): {
  trustedOneBelow: string | null | "invalid";
  approverLimits: LimitRow[];
} {
  return {
    trustedOneBelow: parseRubAmount(values["trusted-one-below"] ?? ""),
    approverLimits: (values["approver-limit"] ?? []).map(limitRow),
  };
}

const REASON: Record<Extract<PolicyProblem, { field: "approverLimits" }>["reason"], string> = {
  not_an_amount: "must give an amount in roubles above 0 after =, such as U0123ABCD=50000",
  no_people: "names nobody before =",
  not_approvers: "names someone not among --approvers",
  twice: "gives someone a second limit",
  too_many: "gives more than 10 different amounts",
};

/** A rule field's problem as a line. */
export function ruleProblemLine(
  problem: Extract<PolicyProblem, { field: "trustedOneBelow" | "approverLimits" }>,
): string {
  if (problem.field === "trustedOneBelow")
    return problem.reason === "not_an_amount"
      ? "--trusted-one-below must be an amount in roubles above 0, at most two decimals"
      : "--trusted-one-below must be more than --two-from (below it one approver suffices anyway)";
  const who = problem.people && problem.people.length > 0 ? ` (${problem.people.join(", ")})` : "";
  return `--approver-limit number ${problem.row + 1} ${REASON[problem.reason]}${who}`;
}

/** The policy's rule lines, as operators read them. */
export function ruleLines(policy: PayoutPolicy): string[] {
  const limits = Object.entries(policy.approverLimits ?? {}).map(
    ([who, limit]) => `${who} up to ${limit} RUB`,
  );
  return [
    `  one approver to a trusted recipient below: ${policy.trustedOneBelow ? `${policy.trustedOneBelow} RUB` : "not set"}`,
    `  approval limits: ${limits.length > 0 ? limits.join(", ") : "none (every approver approves any amount)"}`,
  ];
}
