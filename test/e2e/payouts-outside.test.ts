/**
 * Payouts made outside Kassa, through the real app: a register with payouts on has its payout
 * history read every PAYOUT_CHECK_MS; the first read only notes what is there; a payout made since
 * outside Kassa is posted once in the approval channel and written to the audit trail; a payout
 * Kassa made (requested, approved, submitted by its own worker on the same store) is never posted.
 * Two replicas share the store; English (v3) and Russian (v2).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SANDBOX_LOGIN, SANDBOX_SALT, SANDBOX_SECRET } from "../../sandbox/fake-payments.js";
import { SANDBOX_TEAM } from "../../sandbox/slack.js";
import { Stack } from "../../sandbox/stack.js";
import { openAuditTrail } from "../../src/audit/index.js";
import { PaymentsClient } from "../../src/payments/client.js";
import { payoutPoliciesFor } from "../../src/payouts/policy-store.js";
import type { PayoutDeps } from "../../src/payouts/request-deps.js";
import { requestPayout } from "../../src/payouts/requests.js";
import { approve } from "../../src/payouts/votes.js";
import { runDuePayouts } from "../../src/payouts/worker.js";
import { type RunningServer, startServer } from "../../src/server.js";
import { openClaimBoard } from "../../src/store/claims/index.js";
import { type KeyvStore, openStore } from "../../src/store/keyv.js";
import { createLogger } from "../../src/util/logger.js";
import { expectWithinBlockKitLimits } from "../support/block-kit-limits.js";
import { englishWords } from "../support/english-words.js";
import { clockReading } from "../support/manual-clock.js";
import { connectWithSecret2 } from "../support/secret2.js";

const TEAM = SANDBOX_TEAM.id;
const APPROVAL = "C0PAYOUTS";
const CHECK_MS = 150;
const [ANNA, BORIS, CARL] = ["U0ANNA", "U0BORIS", "U0CARL"] as const;
const text = (body: unknown) => JSON.stringify(body);
/** What Kassa posted in `channel`, its blocks read back from the form Slack got. */
const postedIn = (stack: Stack, channel: string) =>
  stack.slack
    .callsOf("chat.postMessage")
    .filter((call) => call.body.channel === channel)
    .map((call) => ({
      ...call,
      body: {
        ...call.body,
        blocks: typeof call.body.blocks === "string" ? JSON.parse(call.body.blocks) : call.body.blocks,
      },
    }));

/** The sandbox register connected with its Secret 2 and a payout policy on (as an operator sets it). */
async function payoutsOn(stack: Stack): Promise<void> {
  await connectWithSecret2(stack);
  const policy = await stack.cli([
    ...["payouts", "policy", "--team", TEAM, "--approvers", `${ANNA},${BORIS}`, "--channel", APPROVAL],
    ...["--two-from", "50000", "--person-day", "100000", "--register-day", "300000", "--requesters", CARL],
  ]);
  expect(policy.code, policy.stderr).toBe(0);
}

/** Kassa's own payout use cases on the app's store (the worker a replica would run). */
function kassaPayouts(stack: Stack, store: KeyvStore, version: "v2" | "v3") {
  const payments = new PaymentsClient({
    baseUrl: stack.fake.url,
    defaultVersion: version,
    timeoutMs: 2000,
    timeZone: "Europe/Moscow",
    retryDelayMs: 10,
  });
  return async (): Promise<PayoutDeps> => ({
    board: await openClaimBoard(store),
    policies: payoutPoliciesFor(store, 3000),
    payments,
    account: async () => ({
      login: SANDBOX_LOGIN,
      secret: SANDBOX_SECRET,
      salt: SANDBOX_SALT,
      apiVersion: version,
    }),
    isAdmin: async () => false,
    audit: { record: async () => undefined },
    logger: createLogger("silent"),
  });
}

/** Requests, approves and submits a payout through Kassa; its id. */
async function payoutThroughKassa(deps: PayoutDeps): Promise<string> {
  const now = new Date();
  const asked = await requestPayout(
    deps,
    {
      registerKey: TEAM,
      requester: CARL,
      amount: "1000",
      method: "CARDRUBP2P",
      wallet: "2200700012345678",
      subtractFrom: "balance",
      reason: "Supplier invoice 77",
      reference: "INV-77",
    },
    now,
  );
  if (asked.kind !== "requested") throw new Error(`not requested: ${text(asked)}`);
  const id = asked.request.id;
  expect((await approve(deps, id, ANNA, now)).kind).toBe("approved");
  await runDuePayouts(deps, new Date());
  return id;
}

describe.each([
  { version: "v3" as const, lang: "en" as const },
  { version: "v2" as const, lang: "ru" as const },
])("payouts made outside Kassa ($version, $lang)", ({ version, lang }) => {
  let stack: Stack;
  let second: RunningServer | undefined;
  let store: KeyvStore;
  let deps: PayoutDeps;
  // Both replicas' clock: moved on past the check interval before a pass is asked of each.
  let shift = 0;
  const clock = clockReading(() => new Date(Date.now() + shift));
  const checksOnBoth = async (rounds = 2) => {
    for (let round = 0; round < rounds; round += 1) {
      shift += CHECK_MS;
      await stack.pass("moneyAlerts");
      await second?.passes.moneyAlerts();
    }
  };

  beforeAll(async () => {
    stack = await Stack.start({
      apiVersion: version,
      storeMemoMs: 0,
      clock,
      env: { PAYOUT_CHECK_MS: String(CHECK_MS), BALANCE_CHECK_MS: "3600000" },
    });
    stack.slack.users.U0ADMIN = { is_admin: true };
    if (lang === "ru") expect((await stack.ask("language ru", { userId: "U0ADMIN" })).ack.status).toBe(200);
    second = await startServer(stack.env, { logDestination: { write: () => {} }, storeMemoMs: 0, clock });
    store = await openStore(stack.env.STORE_URL ?? "");
    deps = await kassaPayouts(stack, store, version)();
  });
  afterAll(async () => {
    await store?.close();
    await second?.stop();
    await stack?.stop();
  });

  it("notes what is there on the first read, then posts a payout made outside once, with an audit entry", async () => {
    const before = stack.fake.payoffs.makeOutside({
      login: SANDBOX_LOGIN,
      method: "BITCOIN",
      wallet: "bc1qbefore",
      amount: "0.001",
      version,
    });
    await payoutsOn(stack);
    await expect
      .poll(() => stack.logEntries().some((line) => line.msg === "payout watch started: history noted"), {
        timeout: 5000,
      })
      .toBe(true);
    await checksOnBoth();
    expect(postedIn(stack, APPROVAL)).toHaveLength(0);

    const outside = stack.fake.payoffs.makeOutside({
      login: SANDBOX_LOGIN,
      method: "BITCOIN",
      wallet: "bc1qthief",
      amount: "0.5",
      version,
    });
    await expect.poll(() => postedIn(stack, APPROVAL).length, { timeout: 5000 }).toBe(1);
    const posted = postedIn(stack, APPROVAL)[0]?.body ?? {};
    expectWithinBlockKitLimits(posted);
    expect(text(posted)).toContain(outside.id);
    expect(text(posted)).not.toContain(before.id);
    expect(text(posted)).toContain("BITCOIN");
    expect(text(posted)).toContain("payed");
    if (lang === "en") {
      expect(text(posted)).toContain("0.5");
      expect(text(posted)).toContain("did not go through Kassa's approval");
      expect(text(posted)).toContain("bc1qthief");
    } else {
      expect(text(posted)).toContain("0,5");
      expect(text(posted)).toContain("не проходила одобрение в Кассе");
      expect(englishWords(posted, ["bc1qthief", outside.id])).toEqual([]);
    }
    // Checked again and again on both replicas: still once.
    await checksOnBoth();
    expect(postedIn(stack, APPROVAL)).toHaveLength(1);

    const trail = await openAuditTrail(store, { retentionDays: 30 });
    const entries = (await trail.list(TEAM, { action: "payout.outside", limit: 10 })).entries;
    expect(entries).toHaveLength(1);
    expect(text(entries[0])).toContain(outside.id);
  });

  it("audits a payout at once and posts it once the approval channel takes it", async () => {
    const delivered = () => [...stack.slack.messages.values()].filter((one) => one.channel === APPROVAL);
    const before = delivered().length;
    const trail = await openAuditTrail(store, { retentionDays: 30 });
    const audited = async () =>
      (await trail.list(TEAM, { action: "payout.outside", limit: 10 })).entries.length;
    const auditedBefore = await audited();
    stack.slack.failChannel(APPROVAL, "not_in_channel");
    let outside: { id: string };
    try {
      const attempts = postedIn(stack, APPROVAL).length;
      outside = stack.fake.payoffs.makeOutside({
        login: SANDBOX_LOGIN,
        method: "CARDRUBP2P",
        wallet: "2200700099990000",
        amount: "2500",
        version,
      });
      await expect
        .poll(() => postedIn(stack, APPROVAL).length - attempts, { timeout: 5000 })
        .toBeGreaterThan(1);
      expect(await audited()).toBe(auditedBefore + 1);
    } finally {
      stack.slack.failChannel(APPROVAL, null);
    }
    await expect.poll(() => delivered().length, { timeout: 5000 }).toBe(before + 1);
    expect(delivered().at(-1)?.text).toContain(outside.id);
    await checksOnBoth();
    expect(delivered()).toHaveLength(before + 1);
    expect(await audited()).toBe(auditedBefore + 1);
  });

  it("never posts a payout Kassa made", async () => {
    const before = postedIn(stack, APPROVAL).length;
    const id = await payoutThroughKassa(deps);
    await expect.poll(() => stack.fake.payoffs.submits.includes(id), { timeout: 5000 }).toBe(true);
    await checksOnBoth();
    expect(text(postedIn(stack, APPROVAL))).not.toContain(id);
    expect(postedIn(stack, APPROVAL)).toHaveLength(before);
  });
});
