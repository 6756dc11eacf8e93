/**
 * The outside-payout watch at its edges, through the real app against the sandbox:
 * - a Kassa quote still waiting for approval, submitted at the service directly by someone holding
 *   Secret 2, is news: posted, audited, its card says it was sent without approval, and it counts
 *   against the caps;
 * - 300 fresh quotes in front of a payout made outside do not hide it (the read is carried over);
 * - a quote Kassa made and cancelled itself is never news;
 * - the watch runs where Secret 2 is stored with payouts never set up: news goes to the audit channel.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SANDBOX_LOGIN, SANDBOX_SALT, SANDBOX_SECRET } from "../../sandbox/fake-payments.js";
import { SANDBOX_TEAM } from "../../sandbox/slack.js";
import { Stack } from "../../sandbox/stack.js";
import { openAuditTrail } from "../../src/audit/index.js";
import { PaymentsClient } from "../../src/payments/client.js";
import type { PayoffAccount } from "../../src/payments/payoff-model.js";
import { todayTotals } from "../../src/payouts/day-totals.js";
import { payoutPoliciesFor } from "../../src/payouts/policy-store.js";
import type { PayoutDeps } from "../../src/payouts/request-deps.js";
import { readRequest } from "../../src/payouts/request-model.js";
import { requestPayout } from "../../src/payouts/requests.js";
import { openClaimBoard } from "../../src/store/claims/index.js";
import { type KeyvStore, openStore } from "../../src/store/keyv.js";
import { createLogger } from "../../src/util/logger.js";
import { expectWithinBlockKitLimits } from "../support/block-kit-limits.js";
import { clockReading } from "../support/manual-clock.js";
import { connectWithSecret2 } from "../support/secret2.js";

const TEAM = SANDBOX_TEAM.id;
const APPROVAL = "C0PAYOUTS";
const AUDIT = "C0AUDIT";
const CHECK_MS = 150;
const [ANNA, CARL] = ["U0ANNA", "U0CARL"] as const;
const ADMIN = "U0ADMIN";
const text = (body: unknown) => JSON.stringify(body);
const ACCOUNT: PayoffAccount = {
  login: SANDBOX_LOGIN,
  secret: SANDBOX_SECRET,
  salt: SANDBOX_SALT,
  apiVersion: "v3",
};

/** Kassa's payout use cases on the app's store, and a client anyone holding Secret 2 could use. */
async function kassaPayouts(stack: Stack, store: KeyvStore): Promise<PayoutDeps> {
  const payments = new PaymentsClient({
    baseUrl: stack.fake.url,
    defaultVersion: "v3",
    timeoutMs: 2000,
    timeZone: "Europe/Moscow",
    retryDelayMs: 10,
  });
  return {
    board: await openClaimBoard(store),
    policies: payoutPoliciesFor(store, 3000),
    payments,
    account: async () => ACCOUNT,
    isAdmin: async () => false,
    audit: { record: async () => undefined },
    logger: createLogger("silent"),
  };
}

const ask = (amount: string) => ({
  registerKey: TEAM,
  requester: CARL,
  amount,
  method: "CARDRUBP2P",
  wallet: "2200700012345678",
  subtractFrom: "balance" as const,
  reason: "Supplier invoice 78",
  reference: "INV-78",
});

describe("the outside-payout watch at its edges (v3)", () => {
  let stack: Stack;
  let store: KeyvStore;
  let deps: PayoutDeps;
  let shift = 0;
  const clock = clockReading(() => new Date(Date.now() + shift));
  /** Moves the clock past the check interval and asks for a pass of the money alerts and the payouts. */
  const checks = async (rounds = 1) => {
    for (let round = 0; round < rounds; round += 1) {
      shift += CHECK_MS;
      await stack.pass("moneyAlerts");
      await stack.pass("payouts");
    }
  };
  const postedIn = (channel: string) =>
    stack.slack.callsOf("chat.postMessage").filter((call) => call.body.channel === channel);
  const outsideEntries = async () => {
    const trail = await openAuditTrail(store, { retentionDays: 30 });
    return (await trail.list(TEAM, { action: "payout.outside", limit: 50 })).entries;
  };

  beforeAll(async () => {
    stack = await Stack.start({
      apiVersion: "v3",
      storeMemoMs: 0,
      clock,
      env: { PAYOUT_CHECK_MS: String(CHECK_MS), BALANCE_CHECK_MS: "3600000" },
    });
    stack.slack.users[ADMIN] = { is_admin: true };
    store = await openStore(stack.env.STORE_URL ?? "");
    deps = await kassaPayouts(stack, store);
  });
  afterAll(async () => {
    await store?.close();
    await stack?.stop();
  });

  it("watches a register whose Secret 2 is stored with payouts never set up; news goes to the audit channel", async () => {
    expect((await stack.ask("audit channel", { userId: ADMIN, channelId: AUDIT })).ack.status).toBe(200);
    await connectWithSecret2(stack);
    await expect
      .poll(async () => {
        await checks();
        return stack.logEntries().some((line) => line.msg === "payout watch started: history noted");
      })
      .toBe(true);
    const outside = stack.fake.payoffs.makeOutside({
      login: SANDBOX_LOGIN,
      method: "CARDRUBP2P",
      wallet: "2200700011112222",
      amount: "700",
    });
    await expect
      .poll(async () => {
        await checks();
        return text(postedIn(AUDIT));
      })
      .toContain(outside.id);
    expect((await outsideEntries()).map((entry) => entry.entry?.object)).toContain(`payout ${outside.id}`);
  });

  it("finds a payout made outside behind 300 fresh quotes, carrying the read over to the next checks", async () => {
    const before = postedIn(AUDIT).length;
    const hidden = stack.fake.payoffs.makeOutside({
      login: SANDBOX_LOGIN,
      method: "CARDRUBP2P",
      wallet: "2200700033334444",
      amount: "900",
    });
    for (let one = 0; one < 300; one += 1)
      stack.fake.payoffs.makeOutside({
        login: SANDBOX_LOGIN,
        method: "CARDRUBP2P",
        wallet: `22007000${String(one).padStart(8, "0")}`,
        amount: "100",
        state: "created",
      });
    // One check reads 300 entries: all quotes. The next goes on from there and meets the payout.
    await checks(3);
    expect(postedIn(AUDIT).length).toBe(before + 1);
    expect(text(postedIn(AUDIT).at(-1))).toContain(hidden.id);
    expect(
      (await outsideEntries()).filter((entry) => entry.entry?.object === `payout ${hidden.id}`),
    ).toHaveLength(1);
    // The quotes stay followed: one submitted now (below newer payouts) is news, once.
    const quote = [...stack.fake.payoffs.all.values()].find(
      (one) => one.state === "created" && one.wallet === "2200700000000007",
    );
    if (!quote) throw new Error("the sandbox lost a quote");
    stack.fake.payoffs.makeOutside({
      login: SANDBOX_LOGIN,
      method: "CARDRUBP2P",
      wallet: "22007000x",
      amount: "150",
    });
    await checks(3);
    await new PaymentsClient({
      baseUrl: stack.fake.url,
      defaultVersion: "v3",
      timeoutMs: 2000,
      timeZone: "UTC",
    }).submitPayoff(ACCOUNT, quote.id);
    await checks(4);
    expect(postedIn(AUDIT).filter((call) => text(call).includes(quote.id))).toHaveLength(1);
    await checks(2);
    expect(postedIn(AUDIT).filter((call) => text(call).includes(quote.id))).toHaveLength(1);
  });

  it("never reports a quote Kassa made and cancelled itself", async () => {
    // One approver besides the requester (Carl approves, but not his own): a payout from 1,000 RUB
    // (two approvers) is refused after its quote, which Kassa cancels at the service.
    const policy = await stack.cli([
      ...["payouts", "policy", "--team", TEAM, "--approvers", `${ANNA},${CARL}`, "--channel", APPROVAL],
      ...["--two-from", "1000", "--person-day", "100000", "--register-day", "300000", "--requesters", CARL],
    ]);
    expect(policy.code, policy.stderr).toBe(0);
    await checks(2);
    const quotesBefore = new Set(stack.fake.payoffs.all.keys());
    const refused = await requestPayout(deps, ask("1500"), new Date());
    expect(refused.kind === "refused" && refused.refusal, text(refused)).toMatchObject({
      kind: "too_few_approvers",
    });
    const made = [...stack.fake.payoffs.all.values()].filter((one) => !quotesBefore.has(one.id));
    expect(made.map((one) => one.state)).toEqual(["canceled"]);
    const posted = postedIn(APPROVAL).length + postedIn(AUDIT).length;
    await checks(3);
    expect(postedIn(APPROVAL).length + postedIn(AUDIT).length).toBe(posted);
    expect(text(await outsideEntries())).not.toContain(made[0]?.id);
  });

  it("posts a Kassa quote submitted at the service while it waits for approval; its card says so; it counts", async () => {
    const policy = await stack.cli([
      ...["payouts", "policy", "--team", TEAM, "--approvers", `${ANNA},${CARL}`, "--channel", APPROVAL],
      ...["--two-from", "50000", "--person-day", "100000", "--register-day", "300000", "--requesters", CARL],
    ]);
    expect(policy.code, policy.stderr).toBe(0);
    const before = new Set(stack.fake.payoffs.all.keys());
    const { reply } = await stack.ask("1200 CARDRUBP2P 2200700012345678 Supplier invoice 78", {
      command: "/payout",
      userId: CARL,
      channelId: "C0ASKED",
    });
    expect(text(reply.body)).toContain("Requested");
    const id = [...stack.fake.payoffs.all.keys()].find((one) => !before.has(one)) ?? "";
    await expect.poll(() => text(postedIn(APPROVAL))).toContain(id);
    await checks(2);
    // Someone holding Secret 2 submits Kassa's quote at the service, no approval given.
    await new PaymentsClient({
      baseUrl: stack.fake.url,
      defaultVersion: "v3",
      timeoutMs: 2000,
      timeZone: "UTC",
    }).submitPayoff(ACCOUNT, id);
    await expect
      .poll(async () => {
        await checks();
        return (await readRequest(deps.board, id))?.request.status;
      })
      .toBe("outside");
    await expect
      .poll(async () => {
        await checks();
        return postedIn(APPROVAL).filter(
          (call) => text(call).includes(id) && text(call).includes("outside Kassa"),
        ).length;
      })
      .toBe(1);
    const alarm = postedIn(APPROVAL).find((call) => text(call).includes("outside Kassa"));
    expect(text(alarm)).toContain(`<@${CARL}>`);
    expect(text(alarm)).toContain("still waiting for approval");
    // The card (updated in place) and its thread say it was sent at the service without approval.
    await expect
      .poll(() => text(stack.slack.callsOf("chat.update").filter((call) => text(call).includes(id))))
      .toContain("Sent at the service without approval");
    const card = [...stack.slack.messages.values()].find(
      (message) =>
        message.channel === APPROVAL && !message.threadTs && text(message.blocks).includes(`\`${id}\``),
    );
    expectWithinBlockKitLimits({ text: card?.text, blocks: card?.blocks });
    expect(text(card)).not.toContain("Expired");
    expect(text(postedIn(APPROVAL).filter((call) => call.body.thread_ts))).toContain(
      "without Kassa's approval",
    );
    // Audited once, and it counts against the caps.
    expect((await outsideEntries()).filter((entry) => entry.entry?.object === `payout ${id}`)).toHaveLength(
      1,
    );
    const totals = await todayTotals(deps.board, TEAM, CARL, new Date());
    expect(Number(totals?.requester)).toBeGreaterThanOrEqual(1200);
    await checks(3);
    expect(
      postedIn(APPROVAL).filter((call) => text(call).includes(id) && text(call).includes("outside Kassa")),
    ).toHaveLength(1);
  });
});
