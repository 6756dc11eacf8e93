/**
 * Issue 52's approval rules (src/payouts/approval-rule.ts, policy.ts, votes.ts, send-check.ts): the
 * trusted one-approver rule and approver limits, checked as a policy, decided for a request, refused
 * at a vote over the limit, and held by the re-check before a send. Against the sandbox over HTTP on
 * the in-memory board (the engines' contract is test/store/claims.test.ts's).
 */
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { approvalRule, approversFor, ruleNow, withinLimit } from "../../src/payouts/approval-rule.js";
import { checkPolicy, type PolicyInput, payoutPolicySchema } from "../../src/payouts/policy.js";
import { type PayoutRequest, readRequest } from "../../src/payouts/request-model.js";
import { type PayoutAsk, requestPayout } from "../../src/payouts/requests.js";
import { approve } from "../../src/payouts/votes.js";
import { runDuePayouts } from "../../src/payouts/worker.js";
import {
  ALICE,
  ASK,
  BOB,
  CAROL,
  ENGINES,
  later,
  NOW,
  openPayoutWorld,
  type PayoutWorld,
  POLICY,
  removeSqliteDir,
  TIMING,
} from "./payout-world.js";

afterAll(removeSqliteDir);

const INPUT: PolicyInput = { ...POLICY, twoApproversFrom: "5000", trustedOneBelow: null, approverLimits: [] };
const RECIPIENT = { id: "abcdefgh23", label: "Acme Ltd" };

describe("the policy's rules, checked field by field", () => {
  it("keeps the trusted amount and each approver's limit, by user id", () => {
    const checked = checkPolicy({
      ...INPUT,
      trustedOneBelow: "10000",
      approverLimits: [
        { people: [CAROL, ALICE], upTo: "3000" },
        { people: [], upTo: null },
      ],
    });
    expect(checked.ok && checked.draft).toMatchObject({
      trustedOneBelow: "10000",
      approverLimits: { [ALICE]: "3000", [CAROL]: "3000" },
    });
    expect(Object.keys((checked.ok && checked.draft.approverLimits) || {})).toEqual([ALICE, CAROL].sort());
  });

  it.each([
    [{ trustedOneBelow: "invalid" as const }, { field: "trustedOneBelow", reason: "not_an_amount" }],
    [{ trustedOneBelow: "5000" }, { field: "trustedOneBelow", reason: "not_above_two_from" }],
    [
      { approverLimits: [{ people: [ALICE], upTo: null }] },
      { field: "approverLimits", reason: "not_an_amount", row: 0 },
    ],
    [
      { approverLimits: [{ people: [], upTo: "100" }] },
      { field: "approverLimits", reason: "no_people", row: 0 },
    ],
    [
      { approverLimits: [{ people: [ALICE, "U0STRANGER"], upTo: "100" }] },
      { field: "approverLimits", reason: "not_approvers", row: 0, people: ["U0STRANGER"] },
    ],
    [
      {
        approverLimits: [
          { people: [ALICE], upTo: "100" },
          { people: [ALICE], upTo: "200" },
        ],
      },
      { field: "approverLimits", reason: "twice", row: 1, people: [ALICE] },
    ],
  ])("refuses %j", (change, problem) => {
    expect(checkPolicy({ ...INPUT, ...change })).toEqual({ ok: false, problems: [problem] });
  });

  it("reads a policy stored before the rules as before: neither rule", () => {
    const stored = { ...POLICY, v: 1, version: 3, changedBy: "cli", changedAt: NOW.toISOString() };
    const read = payoutPolicySchema.parse(stored);
    expect(read.trustedOneBelow).toBeUndefined();
    expect(read.approverLimits).toBeUndefined();
    expect(approvalRule(read, { rub: "4000", trusted: true })).toEqual({
      needed: 1,
      rule: "threshold",
      at: "5000",
    });
  });
});

describe("approvalRule", () => {
  const policy = { twoApproversFrom: "5000", trustedOneBelow: "10000" };
  it.each([
    ["9999.99", true, { needed: 1, rule: "trusted_one", at: "10000" }],
    ["10000", true, { needed: 2, rule: "threshold", at: "5000" }],
    ["9999.99", false, { needed: 2, rule: "threshold", at: "5000" }],
    ["4999.99", false, { needed: 1, rule: "threshold", at: "5000" }],
    [undefined, true, { needed: 2, rule: "threshold", at: "5000" }],
  ] as const)("%s RUB, trusted %s", (rub, trusted, rule) => {
    expect(approvalRule(policy, { rub, trusted })).toEqual(rule);
  });

  it("limits cover amounts up to them, exactly; an unknown amount only without a limit", () => {
    const limited = { approvers: [ALICE, BOB, CAROL], approverLimits: { [ALICE]: "3000.50" } };
    expect(withinLimit(limited, ALICE, "3000.50")).toBe(true);
    expect(withinLimit(limited, ALICE, "3000.51")).toBe(false);
    expect(withinLimit(limited, ALICE, null)).toBe(false);
    expect(withinLimit(limited, BOB, "99999999")).toBe(true);
    expect(approversFor(limited, "3000.51", [BOB])).toEqual([CAROL]);
  });
});

describe.each(ENGINES.filter((engine) => engine.name === "memory"))("rules on $name", (engine) => {
  let world: PayoutWorld;
  beforeEach(async () => {
    world = await openPayoutWorld(engine, TIMING);
  });
  afterEach(async () => {
    await world.close();
  });

  async function requested(fields: Partial<PayoutAsk> = {}): Promise<PayoutRequest> {
    const result = await requestPayout(
      world.deps,
      { ...ASK, registerKey: world.registerKey, ...fields },
      NOW,
    );
    if (result.kind !== "requested") throw new Error(`not requested: ${JSON.stringify(result)}`);
    return result.request;
  }
  const stored = async (id: string) => (await readRequest(world.deps.board, id))?.request;

  it("asks one approval of a payout to a trusted recipient below the trusted amount, two of a new wallet", async () => {
    await world.setPolicy({ trustedOneBelow: "9000" });
    const trusted = await requested({ amount: "6000", recipient: RECIPIENT });
    expect(trusted).toMatchObject({ needed: 1, rule: "trusted_one", ruleAt: "9000", recipient: RECIPIENT });
    expect(await approve(world.deps, trusted.id, ALICE, NOW)).toMatchObject({ kind: "approved" });
    const typed = await requested({ amount: "2000.5" });
    expect(typed).toMatchObject({ needed: 1, rule: "threshold", ruleAt: "5000" });
    const requestedEntry = world.audit.filter((entry) => entry.action === "payout.requested").at(0);
    expect(requestedEntry?.after).toMatchObject({ rule: "trusted_one", needed: 1 });
  });

  it("refuses an approval over the approver's limit, saying who can; two approvals are two within their limits", async () => {
    await world.setPolicy({ approverLimits: { [ALICE]: "5500" } });
    const { id } = await requested({ amount: "6000" });
    expect(await approve(world.deps, id, ALICE, NOW)).toMatchObject({
      kind: "refused",
      refusal: { kind: "over_limit", limit: "5500", canApprove: [BOB, CAROL] },
    });
    expect(await approve(world.deps, id, BOB, NOW)).toMatchObject({
      kind: "approval_noted",
      votes: 1,
      needed: 2,
    });
    expect(await approve(world.deps, id, CAROL, NOW)).toMatchObject({ kind: "approved" });
    expect(
      world.audit.filter((entry) => entry.action === "payout.approved").map((entry) => entry.outcome),
    ).toEqual(["refused", "done", "done"]);
  });

  it("refuses a request no two approvers' limits cover before it waits for nobody", async () => {
    await world.setPolicy({ approverLimits: { [BOB]: "5500", [CAROL]: "5500" } });
    const result = await requestPayout(
      world.deps,
      { ...ASK, registerKey: world.registerKey, amount: "6000" },
      NOW,
    );
    expect(result).toMatchObject({
      kind: "refused",
      refusal: { kind: "too_few_approvers", needed: 2, approvers: [ALICE] },
    });
  });

  it("sends no approval whose approver's limit was lowered since: back to waiting, the approval set aside", async () => {
    const { id } = await requested({ amount: "6000" });
    await approve(world.deps, id, ALICE, NOW);
    await approve(world.deps, id, BOB, NOW);
    await world.setPolicy({ approverLimits: { [BOB]: "5500" } });
    await runDuePayouts(world.deps, later(1000));
    expect(await stored(id)).toMatchObject({
      status: "waiting",
      needed: 2,
      votes: [{ by: ALICE }],
      setAside: [{ by: BOB, limit: "5500" }],
    });
    expect(world.fake.payoffs.submits).toEqual([]);
    expect(await approve(world.deps, id, CAROL, later(2000))).toMatchObject({ kind: "approved" });
    await runDuePayouts(world.deps, later(3000));
    expect(world.fake.payoffs.submits).toEqual([id]);
  });

  it("stops it when nobody else's limit covers it any more", async () => {
    const { id } = await requested({ amount: "6000" });
    await approve(world.deps, id, ALICE, NOW);
    await approve(world.deps, id, BOB, NOW);
    await world.setPolicy({ approverLimits: { [BOB]: "5500", [CAROL]: "5500" } });
    await runDuePayouts(world.deps, later(1000));
    expect(await stored(id)).toMatchObject({
      status: "stopped",
      stop: { why: "over_limit", approver: BOB, limit: "5500" },
    });
    expect(world.fake.payoffs.submits).toEqual([]);
  });

  it("never asks fewer approvals than a request was made with, and more once its recipient is no longer trusted", async () => {
    await world.setPolicy({ trustedOneBelow: "9000" });
    const request = await requested({ amount: "6000", recipient: RECIPIENT });
    const policy = { ...POLICY, trustedOneBelow: "9000" };
    expect(ruleNow(policy, request)).toEqual({ needed: 1, rule: "trusted_one", at: "9000" });
    expect(ruleNow(policy, request, false)).toEqual({ needed: 2, rule: "threshold", at: "5000" });
    expect(
      ruleNow({ ...policy, trustedOneBelow: "20000" }, { ...request, needed: 2, rule: "threshold" }),
    ).toMatchObject({
      needed: 2,
    });
  });
});
