import type { Writable } from "node:stream";
import { parseArgs } from "node:util";
import { openAuditTrail } from "../audit/index.js";
import { ConfigError, type Env, loadConfig } from "../config/index.js";
import { formatExpiry } from "../i18n/payouts.js";
import { type PayoutPolicy, type PolicyInput, type PolicyProblem, parseExpiry } from "../payouts/policy.js";
import { payoutPoliciesFor } from "../payouts/policy-store.js";
import { changedFields, type SetPolicyResult, setPolicy } from "../payouts/set-policy.js";
import { openStores } from "../store/index.js";
import { MAIN_REGISTER, registerKey } from "../store/registers.js";
import { createLogger } from "../util/logger.js";
import { parseRubAmount } from "../util/rub-amount.js";
import { registerName, requireTeam, UsageError } from "./args.js";
import {
  RULE_OPTIONS,
  RULES_HELP,
  RULES_USAGE,
  ruleInput,
  ruleLines,
  ruleProblemLine,
} from "./payout-rules.js";

export const PAYOUTS_USAGE = `  payouts policy --team <TEAM_ID> [--register <NAME>] --approvers <U1,U2,...> --channel <CHANNEL_ID>
                 --two-from <RUB> --person-day <RUB> --register-day <RUB> [--expire <24h>]
                 [--methods <CODE,...>] [--requesters <U3,...>] [--off]
${RULES_USAGE}
      Set a register's payout policy (as /payout setup does, by "cli"): at least two approvers,
      the approval channel, the amount from which two approvers are needed, the daily caps per
      requester and per register, how long a request waits (5m to 72h, 24h when left out), the
      payout methods allowed (all when left out) and who may request (workspace admins when left
      out); --off keeps it but lets nobody request. Needs the register's Secret 2 (credentials set
      --salt). Not announced in Slack: tell the approval channel yourself.
${RULES_HELP}
  payouts policy --team <TEAM_ID> [--register <NAME>]
      Print a register's payout policy and its last change.`;

type PayoutsIo = { env: Env; stdout: Writable; stderr: Writable };

const SETTING = [
  "approvers",
  "channel",
  "two-from",
  "person-day",
  "register-day",
  "expire",
  "methods",
  "trusted-one-below",
  "approver-limit",
] as const;

function parse(argv: string[]) {
  try {
    const text = { type: "string" } as const;
    return parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: {
        team: text,
        register: text,
        approvers: text,
        channel: text,
        "two-from": text,
        "person-day": text,
        "register-day": text,
        expire: text,
        methods: text,
        requesters: text,
        off: { type: "boolean" },
        ...RULE_OPTIONS,
      },
    });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}
type Values = ReturnType<typeof parse>["values"];

const list = (text: string | undefined) =>
  (text ?? "")
    .split(",")
    .map((item) => item.trim())
    .filter((item) => item !== "");

/** What the options say, as the form's values would (the same check follows). */
function inputOf(values: Values): PolicyInput {
  for (const required of ["approvers", "channel", "two-from", "person-day", "register-day"] as const)
    if (values[required] === undefined) throw new UsageError(`--${required} is required to set a policy`);
  return {
    enabled: values.off !== true,
    approvers: list(values.approvers),
    channel: values.channel?.trim(),
    twoApproversFrom: parseRubAmount(values["two-from"] ?? ""),
    requesterDaily: parseRubAmount(values["person-day"] ?? ""),
    registerDaily: parseRubAmount(values["register-day"] ?? ""),
    expiryMinutes: parseExpiry(values.expire ?? ""),
    methods: list(values.methods),
    requesters: list(values.requesters),
    ...ruleInput(values),
  };
}

const OPTION_OF: Record<Exclude<PolicyProblem["field"], "trustedOneBelow" | "approverLimits">, string> = {
  approvers: "--approvers",
  channel: "--channel",
  twoApproversFrom: "--two-from",
  requesterDaily: "--person-day",
  registerDaily: "--register-day",
  expiryMinutes: "--expire",
  methods: "--methods",
  requesters: "--requesters",
};
const REASON: Record<
  Exclude<PolicyProblem, { field: "trustedOneBelow" | "approverLimits" }>["reason"],
  string
> = {
  too_few: "needs at least two different people (Slack user ids such as U0123ABCD)",
  too_many: "lists too many",
  not_people: "must be Slack user ids such as U0123ABCD, separated by commas",
  missing: "must be a channel id such as C0123ABCD",
  not_an_amount: "must be an amount in roubles above 0, at most two decimals (50000 or 50000.50)",
  above_register_daily: "cannot be more than --register-day",
  out_of_range: "must be from 5m to 72h (such as 30m, 24h, 2d)",
  not_codes: "must be payout method codes separated by commas",
};

function problemLine(problem: PolicyProblem): string {
  if (problem.field === "trustedOneBelow" || problem.field === "approverLimits")
    return ruleProblemLine(problem);
  return `${OPTION_OF[problem.field]} ${REASON[problem.reason]}`;
}

/** A policy as operators read it, one fact a line. */
export function policyLines(policy: PayoutPolicy): string[] {
  const people = (ids: string[], none: string) => (ids.length === 0 ? none : ids.join(", "));
  return [
    `  payouts: ${policy.enabled ? "on" : "off (nobody may request)"}; version ${policy.version}, set by ${policy.changedBy} at ${policy.changedAt}`,
    `  approvers: ${policy.approvers.join(", ")}`,
    `  approval channel: ${policy.channel}`,
    `  two approvers from: ${policy.twoApproversFrom} RUB`,
    `  per requester per day: ${policy.requesterDaily} RUB`,
    `  per register per day: ${policy.registerDaily} RUB`,
    `  a request waits: ${formatExpiry(policy.expiryMinutes)}`,
    `  methods: ${people(policy.methods, "every payout method of the register")}`,
    `  may request: ${people(policy.requesters, "workspace admins")}`,
    ...ruleLines(policy),
  ];
}

/** `payouts policy`: sets a register's policy when given one, else prints it. Returns the exit code. */
export async function runPayoutsCli(argv: string[], io: PayoutsIo, usage: string): Promise<number> {
  const say = (line: string) => io.stdout.write(`${line}\n`);
  const complain = (line: string) => io.stderr.write(`${line}\n`);
  try {
    const { values, positionals } = parse(argv);
    if (positionals.length !== 1 || positionals[0] !== "policy")
      throw new UsageError(`unknown command: payouts ${positionals.join(" ")}`);
    const team = requireTeam(values.team);
    const register = registerName(values.register);
    const setting = SETTING.some((option) => values[option] !== undefined) || values.requesters !== undefined;
    const input = setting ? inputOf(values) : undefined;
    const config = loadConfig(io.env, { requireSlack: false });
    const logger = createLogger(config.logLevel === "info" ? "warn" : config.logLevel, {
      write: (line: string) => io.stderr.write(line),
    });
    const stores = await openStores(config, logger);
    try {
      const policies = payoutPoliciesFor(stores.store, config.store.timeoutMs);
      const key = registerKey(team, register);
      const named = register === MAIN_REGISTER ? team : `${team}'s register ${register}`;
      if (!input) return await printPolicy(policies, key, named, say);
      // Written down as a change made in Slack is (by "cli"), its entry owed with the save itself.
      const audit = await openAuditTrail(stores.store, {
        retentionDays: config.audit.retentionDays,
        timeoutMs: config.store.timeoutMs,
      });
      const result = await setPolicy({ policies, credentials: stores.credentials }, key, input, {
        by: "cli",
        now: new Date(),
        audit: { audit, logger },
      });
      if (result.kind !== "saved") return notSaved(result, { named, team, register }, complain);
      const fields = changedFields(result.before, result.policy);
      say(
        `Saved the payout policy of ${named}, version ${result.policy.version} (changed: ${fields.join(", ") || "nothing"}):`,
      );
      for (const line of policyLines(result.policy)) say(line);
      return 0;
    } finally {
      await stores.store.close();
    }
  } catch (error) {
    if (error instanceof UsageError) {
      complain(`kassa: ${error.message}\n\n${usage}`);
      return 2;
    }
    complain(`kassa: ${error instanceof ConfigError ? error.message : (error as Error).message}`);
    return 1;
  }
}

/** Why the policy was not saved, a line each; the exit code (2: the options given were wrong). */
function notSaved(
  result: Exclude<SetPolicyResult, { kind: "saved" }>,
  where: { named: string; team: string; register: string },
  complain: (line: string) => void,
): number {
  const { named, team, register } = where;
  if (result.kind === "invalid") {
    for (const problem of result.problems) complain(`kassa: ${problemLine(problem)}`);
    return 2;
  }
  if (result.kind === "not_connected")
    complain(`kassa: ${named} has no register connected (credentials set first).`);
  else if (result.kind === "no_secret2")
    complain(
      `kassa: ${named} has no Secret 2 stored; payouts are signed with it. Store it first: credentials set --team ${team}${register === MAIN_REGISTER ? "" : ` --register ${register}`} --login ... --secret - --salt ...`,
    );
  else complain(`kassa: the policy of ${named} changed while this was being saved; run it again.`);
  return 1;
}

async function printPolicy(
  policies: ReturnType<typeof payoutPoliciesFor>,
  key: string,
  named: string,
  say: (line: string) => void,
): Promise<number> {
  const read = await policies.read(key);
  if (read.kind === "none") {
    say(`${named} has no payout policy: payouts are off.`);
    return 0;
  }
  if (read.kind === "unreadable") {
    say(
      `${named} has a payout policy this Kassa cannot read (version ${read.version ?? "unknown"}): payouts are off. Set it again.`,
    );
    return 1;
  }
  const history = await policies.history(key);
  say(`Payout policy of ${named}:`);
  for (const line of policyLines(read.policy)) say(line);
  say(`  changes kept: ${history.length}`);
  return 0;
}
