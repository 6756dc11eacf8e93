/** Issue 52 on the card and in replies: which rule asked the approvals, approvals set aside, limits. */
import { describe, expect, it } from "vitest";
import { payoutCardMessage, payoutEndNote } from "../../src/blocks/payout-card.js";
import { payoutPolicyMessage } from "../../src/blocks/payout-policy.js";
import { voteRefusalText } from "../../src/blocks/payout-replies.js";
import type { PayoutNotice } from "../../src/payouts/notice-model.js";
import type { PayoutPolicy } from "../../src/payouts/policy.js";
import type { PayoutRequest } from "../../src/payouts/request-model.js";
import { POLICY_FIELDS } from "../../src/payouts/set-policy.js";
import { expectWithinBlockKitLimits } from "../support/block-kit-limits.js";

const REQUEST: PayoutRequest = {
  v: 1,
  id: "810000001_abc",
  registerKey: "T0SHOP",
  team: "T0SHOP",
  requester: "U0REQ",
  amount: "6000",
  fee: "0",
  receives: "6000",
  leavesBalance: "6000",
  currency: "RUB",
  rubAmount: "6000",
  method: "CARDRUBP2P",
  wallet: "2200700012345678",
  subtractFrom: "balance",
  reason: "Rent",
  reference: "",
  createdAt: "2026-11-26T10:00:00.000Z",
  expiresAt: "2026-11-26T11:00:00.000Z",
  needed: 1,
  votes: [],
  status: "waiting",
  recipient: { id: "abcdefgh23", label: "Acme Ltd" },
  rule: "trusted_one",
  ruleAt: "10000",
};
const NOTICE: PayoutNotice = {
  v: 1,
  channel: "C0PAY",
  requester: "U0REQ",
  register: "main",
  several: false,
  lang: "en",
  balance: null,
  today: { total: "6000", cap: "100000" },
  told: [],
};
const card = (request: PayoutRequest, lang: "en" | "ru" = "en") => {
  const message = payoutCardMessage(request, { ...NOTICE, lang }, "approvers", lang);
  expectWithinBlockKitLimits(message);
  return JSON.stringify(message.blocks);
};

describe("the card's approval rule", () => {
  it("says which rule asked the approvals, in both languages", () => {
    expect(card(REQUEST)).toContain("One approver: trusted recipient under 10,000.00 RUB");
    expect(card(REQUEST, "ru")).toContain("Одно одобрение: доверенный получатель, меньше 10");
    const threshold = { ...REQUEST, needed: 2, rule: "threshold", ruleAt: "5000" } as const;
    expect(card(threshold)).toContain("Two approvers: 5,000.00 RUB and more");
    expect(card({ ...threshold, needed: 1, ruleAt: "15000" })).toContain("One approver: under 15,000.00 RUB");
    // A request made before the rules were recorded says none.
    const { rule: _rule, ruleAt: _at, ...older } = REQUEST;
    expect(card(older)).not.toContain("One approver");
  });

  it("says whose approval was set aside while it waits, and why one was stopped", () => {
    const aside = {
      ...REQUEST,
      needed: 2,
      setAside: [{ by: "U0BOB", at: REQUEST.createdAt, limit: "5500" }],
    };
    expect(card(aside)).toContain(
      "<@U0BOB>'s approval no longer counts: their approval limit is now 5,500.00 RUB, below this payout. Another approver is needed.",
    );
    const stopped: PayoutRequest = {
      ...aside,
      status: "stopped",
      stop: { why: "over_limit", at: REQUEST.createdAt, approver: "U0BOB", limit: "5500" },
    };
    expect(card(stopped)).not.toContain("no longer counts");
    expect(card(stopped)).toContain("<@U0BOB> approved it, but their approval limit is now 5,500.00 RUB");
    expect(payoutEndNote(stopped, "ru")).toContain(
      "<@U0BOB> одобрил(а) её, но его (её) лимит одобрения теперь",
    );
  });

  it("tells an approver over their limit who can approve, or that nobody can now", () => {
    const refusal = { kind: "over_limit" as const, limit: "5500", canApprove: ["U0CARL"] };
    expect(voteRefusalText(refusal, "en")).toContain("above your approval limit (5,500.00 RUB)");
    expect(voteRefusalText(refusal, "en")).toContain("Who can approve it: <@U0CARL>.");
    expect(voteRefusalText({ ...refusal, canApprove: [] }, "ru")).toContain(
      "администратор может поднять лимит",
    );
  });

  it("lists the policy in full, rules included, or says there is none", () => {
    const policy: PayoutPolicy = {
      v: 1,
      enabled: true,
      approvers: ["U0ANNA", "U0BOB"],
      channel: "C0PAY",
      twoApproversFrom: "5000",
      requesterDaily: "100000",
      registerDaily: "200000",
      expiryMinutes: 60,
      methods: [],
      requesters: [],
      version: 2,
      changedBy: "cli",
      changedAt: "2026-11-26T10:00:00.000Z",
    };
    const shown = JSON.stringify(payoutPolicyMessage("main", policy, POLICY_FIELDS, "en"));
    expect(shown).toContain("*Approval limits*: none (every approver approves any amount)");
    expect(shown).toContain("*One approver to trusted recipients below*: none");
    expect(JSON.stringify(payoutPolicyMessage("main", undefined, POLICY_FIELDS, "ru"))).toContain(
      "нет правил выплат",
    );
  });
});
