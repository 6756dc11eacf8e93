/**
 * Payouts through the real app against the sandbox service (payouts signed with Secret 2): a request
 * by command and by form, its card in the approval channel and the requester's copy, approvals that
 * cannot be faked or doubled, reject, cancel, expiry, a cap, a payout changed at the service, and
 * each end told once. The worker runs every 100 ms; the clock can be moved forward.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SANDBOX_SALT } from "../../sandbox/fake-payments.js";
import type { PostedMessage } from "../../sandbox/slack.js";
import { SANDBOX_TEAM } from "../../sandbox/slack.js";
import { Stack } from "../../sandbox/stack.js";
import { type AuditEntry, openAuditTrail } from "../../src/audit/index.js";
import { openStore } from "../../src/store/keyv.js";
import { expectWithinBlockKitLimits } from "../support/block-kit-limits.js";
import { clockReading } from "../support/manual-clock.js";
import { connectWithSecret2 } from "../support/secret2.js";
import { type OpenedView as View, viewOf } from "../support/views.js";

const TEAM = SANDBOX_TEAM.id;
const [ADMIN, REQUESTER, ANNA, BORIS, CARL, MEMBER, GUEST] = [
  "U0ADMIN",
  "U0REQ",
  "U0ANNA",
  "U0BORIS",
  "U0CARL",
  "U0MEMBER",
  "U0GUEST",
];
const APPROVAL = "C0PAYOUTS";
const WALLET = "2200700012345678";
const METHOD = "CARDRUBP2P";

let offsetMs = 0;
const clock = () => new Date(Date.now() + offsetMs);

describe("payouts in Slack", () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await Stack.start({
      storeMemoMs: 0,
      clock: clockReading(clock),
      env: { PAYOUT_RUN_MS: "100" },
      payoutTiming: { followMs: 200, retryMs: 200 },
    });
    stack.slack.users[ADMIN] = { is_admin: true };
    for (const user of [REQUESTER, ANNA, BORIS, CARL, MEMBER]) stack.slack.users[user] = {};
    stack.slack.users[GUEST] = { is_restricted: true };
    await connectWithSecret2(stack);
    const policy = await stack.cli([
      "payouts",
      "policy",
      "--team",
      TEAM,
      "--approvers",
      [ANNA, BORIS, CARL, GUEST].join(","),
      "--channel",
      APPROVAL,
      "--two-from",
      "5000",
      "--person-day",
      "10000",
      "--register-day",
      "50000",
      "--expire",
      "1h",
      "--requesters",
      [REQUESTER, ANNA].join(","),
    ]);
    expect(policy.code, policy.stderr).toBe(0);
  });
  afterAll(async () => {
    await stack?.stop();
  });

  const cardsIn = (channel: string) =>
    [...stack.slack.messages.values()].filter((message) => message.channel === channel && !message.threadTs);
  const lastCard = () => cardsIn(APPROVAL).at(-1) as PostedMessage;
  /** The request's id, from the card's last line (buttons go once it ends). */
  const idOf = (card: PostedMessage) =>
    JSON.stringify(card.blocks).match(/(?:Payout|Выплата) `([^`]+)`/)?.[1] ?? "";
  const text = (message: PostedMessage | undefined) =>
    JSON.stringify(message?.blocks ?? []) + (message?.text ?? "");
  const ask = (line: string, userId = REQUESTER) =>
    stack.ask(line, { command: "/payout", userId, channelId: "C0ASKED" });

  /** Presses Approve (or Reject) on a card as `userId`; the modal Slack was asked to open, or the refusal. */
  async function press(action: "approve" | "reject", id: string, userId: string) {
    const before = stack.slack.callsOf("views.open").length;
    const ack = await stack.action(`kassa_payout_${action}`, id, { userId, channelId: APPROVAL });
    expect(ack.status).toBe(200);
    const opened = await Promise.race([
      expect
        .poll(() => stack.slack.callsOf("views.open").length, { timeout: 3000 })
        .toBe(before + 1)
        .then(() => true),
      stack.slack.waitForReply(ack.responseId, { timeoutMs: 3000 }).then(() => false),
    ]);
    if (opened)
      return { view: viewOf(stack.slack.callsOf("views.open").at(-1)?.body ?? {}), refusal: undefined };
    return {
      view: undefined,
      refusal: JSON.stringify((await stack.slack.waitForReply(ack.responseId)).body),
    };
  }

  async function approve(id: string, userId: string, lastFour = WALLET.slice(-4)) {
    const { view, refusal } = await press("approve", id, userId);
    if (!view) return { json: null, refusal };
    const result = await stack.submitView({
      view,
      values: { payout_last_four: { value: lastFour } },
      userId,
    });
    return { json: result.json, refusal: undefined };
  }

  it("requests in one line: one card for the approvers with every figure, the requester's copy, nothing sent", async () => {
    const { reply } = await ask(`1500.50 ${METHOD} ${WALLET} Supplier invoice 17 <!channel>`);
    expect(JSON.stringify(reply.body)).toContain("Requested");
    await stack.slack.waitForMessages(() => cardsIn(APPROVAL).length === 1);
    const card = lastCard();
    expectWithinBlockKitLimits({ text: card.text, blocks: card.blocks });
    const shown = text(card);
    for (const figure of [
      "1,500.50 RUB",
      `\`${WALLET}\``,
      "Supplier invoice 17 &lt;!channel&gt;",
      "Approvals: 0 of 1",
      "Waiting for approval",
    ])
      expect(shown).toContain(figure);
    expect(shown).toContain("kassa_payout_approve");
    expect(shown).not.toContain("<!channel>");
    const id = idOf(card);
    expect(stack.fake.payoffs.all.get(id)?.state).toBe("created");
    await stack.slack.waitForMessages((all) =>
      all.some((m) => m.channel.endsWith(REQUESTER.slice(1)) || m.channel === REQUESTER),
    );
    expect(stack.fake.payoffs.submits).toEqual([]);
  });

  it("refuses a non-approver, a guest and the requester themself, each saying why, and records each", async () => {
    const id = idOf(lastCard());
    expect((await press("approve", id, MEMBER)).refusal).toContain("Only the policy's approvers");
    expect((await press("approve", id, GUEST)).refusal).toContain("Guests, apps and deactivated accounts");
    const { reply } = await ask(`700 ${METHOD} ${WALLET} Courier`, ANNA);
    expect(JSON.stringify(reply.body)).toContain("Requested");
    await stack.slack.waitForMessages(() => cardsIn(APPROVAL).length === 2);
    const own = idOf(lastCard());
    expect((await press("approve", own, ANNA)).refusal).toContain("You requested this payout");
    const audit = await stack.cli(["audit", "verify", "--team", TEAM]);
    expect(audit.code).toBe(0);
    expect(stack.fake.payoffs.submits).toEqual([]);
  });

  it("asks for the wallet's last four, then sends once, follows it to Paid and tells the end once", async () => {
    const id = idOf(cardsIn(APPROVAL)[0] as PostedMessage);
    const wrong = await approve(id, BORIS, "0000");
    expect(JSON.stringify(wrong.json)).toContain("last four characters");
    expect(stack.fake.payoffs.submits).toEqual([]);
    const right = await approve(id, BORIS);
    expect(right.json).toBeNull();
    await expect.poll(() => stack.fake.payoffs.submits, { timeout: 5000 }).toEqual([id]);
    const card = () => stack.slack.messages.get(`${APPROVAL}:${(cardsIn(APPROVAL)[0] as PostedMessage).ts}`);
    await expect.poll(() => text(card()), { timeout: 5000 }).toContain("Sent: the service is paying it out");
    expect(text(card())).not.toContain("kassa_payout_approve");
    stack.fake.payoffs.finish(id, "payed");
    await expect.poll(() => text(card()), { timeout: 5000 }).toContain("Paid out");
    const thread = () => stack.slack.threadOf(APPROVAL, (card() as PostedMessage).ts);
    await expect.poll(() => thread().length, { timeout: 5000 }).toBe(1);
    expect(thread()[0]?.text).toContain("Paid out: 1,500.50 RUB");
    // Later runs tell nothing more; a stale click says who approved it.
    await stack.pass("payouts", 2);
    expect(thread()).toHaveLength(1);
    expect(stack.fake.payoffs.submits).toEqual([id]);
    expect((await press("approve", id, CARL)).refusal).toContain(`Already approved by <@${BORIS}>`);
  });

  it("needs two different approvers from the threshold; the first approval only counts", async () => {
    await ask(`6000 ${METHOD} ${WALLET} Rent December`);
    await stack.slack.waitForMessages(() => cardsIn(APPROVAL).length === 3);
    const card = lastCard();
    const id = idOf(card);
    expect(text(card)).toContain("Approvals: 0 of 2");
    expect((await approve(id, ANNA)).json).toBeNull();
    await expect
      .poll(() => text(stack.slack.messages.get(`${APPROVAL}:${card.ts}`)), { timeout: 3000 })
      .toContain("Approvals: 1 of 2");
    expect((await press("approve", id, ANNA)).refusal).toContain("You approved this payout already");
    expect(stack.fake.payoffs.submits).not.toContain(id);
    expect((await approve(id, CARL)).json).toBeNull();
    await expect
      .poll(() => stack.fake.payoffs.submits.filter((one) => one === id), { timeout: 5000 })
      .toEqual([id]);
  });

  it("rejects with a reason: cancelled at the service, the requester told why, the buttons gone", async () => {
    await ask(`800 ${METHOD} ${WALLET} Team lunch`);
    await stack.slack.waitForMessages(() => cardsIn(APPROVAL).length === 4);
    const card = lastCard();
    const id = idOf(card);
    const { view } = await press("reject", id, CARL);
    expect(view?.callback_id).toBe("kassa_payout_reject");
    const result = await stack.submitView({
      view: view as View,
      values: { payout_reject_reason: { value: "Paid by card already" } },
      userId: CARL,
    });
    expect(result.json).toBeNull();
    await expect.poll(() => stack.fake.payoffs.all.get(id)?.state, { timeout: 5000 }).toBe("canceled");
    const now = () => text(stack.slack.messages.get(`${APPROVAL}:${card.ts}`));
    await expect.poll(now, { timeout: 5000 }).toContain("Rejected by");
    expect(now()).not.toContain("kassa_payout_approve");
    await expect
      .poll(
        () =>
          [...stack.slack.messages.values()].filter((m) => m.text.includes("Paid by card already")).length,
        { timeout: 5000 },
      )
      .toBe(2);
    expect((await press("approve", id, BORIS)).refusal).toContain(`Already rejected by <@${CARL}>`);
  });

  it("lets the requester cancel until it is sent, and no one else", async () => {
    await ask(`900 ${METHOD} ${WALLET} Taxi`);
    await stack.slack.waitForMessages(() => cardsIn(APPROVAL).length === 5);
    const id = idOf(lastCard());
    const other = await stack.press("kassa_payout_cancel", id, { userId: BORIS, channelId: "D0BORIS" });
    expect(JSON.stringify(other.reply.body)).toContain("who requested it, can cancel");
    const mine = await stack.press("kassa_payout_cancel", id, { userId: REQUESTER, channelId: "D0REQ" });
    expect(JSON.stringify(mine.reply.body)).toContain("Cancelled");
    await expect.poll(() => stack.fake.payoffs.all.get(id)?.state, { timeout: 5000 }).toBe("canceled");
    await expect.poll(() => text(lastCard()), { timeout: 5000 }).toContain("Cancelled by the requester");
  });

  it("refuses past the requester's daily cap (waiting and paid ones counted) before any quote, nothing posted", async () => {
    const [quotes, cards] = [stack.fake.payoffs.all.size, cardsIn(APPROVAL).length];
    // 1,500.50 paid and 6,000 sent today: 3,000 more passes the 10,000 cap.
    const { reply } = await ask(`3000 ${METHOD} ${WALLET} Equipment`);
    expect(JSON.stringify(reply.body)).toContain(
      "more than your daily cap (7,500.50 RUB requested of 10,000.00 RUB)",
    );
    expect(stack.fake.payoffs.all.size).toBe(quotes);
    expect(cardsIn(APPROVAL)).toHaveLength(cards);
  });

  it("does not send a payout that changed at the service; the card says so", async () => {
    await ask(`1000 ${METHOD} ${WALLET} Refund order 5`);
    await stack.slack.waitForMessages(() => cardsIn(APPROVAL).length === 6);
    const card = lastCard();
    const id = idOf(card);
    stack.fake.payoffs.alter(id, { wallet: "4111111111111111" });
    expect((await approve(id, BORIS)).json).toBeNull();
    await expect
      .poll(() => text(stack.slack.messages.get(`${APPROVAL}:${card.ts}`)), { timeout: 5000 })
      .toContain("Not sent: the payout changed at the service");
    expect(stack.fake.payoffs.submits).not.toContain(id);
  });

  it("expires a request not approved in time: cancelled at the service, the card says so", async () => {
    await ask(`1200 ${METHOD} ${WALLET} Old invoice`);
    await stack.slack.waitForMessages(() => cardsIn(APPROVAL).length === 7);
    const card = lastCard();
    const id = idOf(card);
    offsetMs += 2 * 3_600_000;
    await expect.poll(() => stack.fake.payoffs.all.get(id)?.state, { timeout: 5000 }).toBe("canceled");
    await expect
      .poll(() => text(stack.slack.messages.get(`${APPROVAL}:${card.ts}`)), { timeout: 5000 })
      .toContain("Expired: not approved in time");
    expect((await press("approve", id, BORIS)).refusal).toContain("expired");
    expect(stack.fake.payoffs.submits).not.toContain(id);
  });
  it("opens the request form with the register's payout methods, fees and limits, and requests from it", async () => {
    const before = stack.slack.callsOf("views.open").length;
    const ack = await stack.command("", { command: "/payout", userId: REQUESTER, channelId: "C0ASKED" });
    expect(ack.status).toBe(200);
    await expect.poll(() => stack.slack.callsOf("views.open").length).toBe(before + 1);
    const view = viewOf(stack.slack.callsOf("views.open").at(-1)?.body ?? {});
    expect(view.callback_id).toBe("kassa_payout_request");
    // The method list with each method's fee and limits (the sandbox's v2 register lists none: a code field).
    expect(JSON.stringify(view.blocks)).toContain("payout_method");
    const cards = cardsIn(APPROVAL).length;
    const values = {
      payout_method: { value: METHOD },
      payout_wallet: { value: "2200 7000 1234 5678" },
      payout_amount: { value: "1 000,25" },
      payout_fee_from: { selected: "amount" },
      payout_reason: { value: "Bonus" },
      payout_reference: { value: "HR-7" },
    };
    const refused = await stack.submitView({
      view,
      values: { ...values, payout_method: { value: "NO_SUCH" } },
      userId: REQUESTER,
    });
    expect(JSON.stringify(refused.json)).toContain('"payout_method"');
    const result = await stack.submitView({ view, values, userId: REQUESTER, viewId: "V0REQUEST2" });
    expect(result.json, JSON.stringify(result.json)).toBeNull();
    await stack.slack.waitForMessages(() => cardsIn(APPROVAL).length === cards + 1);
    const shown = text(lastCard());
    for (const figure of ["1,000.25 RUB", "taken from the amount", "HR-7", `\`${WALLET}\``])
      expect(shown).toContain(figure);
    // The same submission again requests nothing more.
    const again = await stack.submitView({ view, values, userId: REQUESTER, viewId: "V0REQUEST2" });
    expect(JSON.stringify(again.json)).toContain("sent already");
    expect(cardsIn(APPROVAL)).toHaveLength(cards + 1);
  });

  it("shows the service's own refusal to the requester and posts nothing", async () => {
    const cards = cardsIn(APPROVAL).length;
    const { reply } = await ask(`50 ${METHOD} ${WALLET} Too small`);
    expect(JSON.stringify(reply.body)).toMatch(
      /The payment service refused this payout: .+\. Nothing was requested/,
    );
    expect(cardsIn(APPROVAL)).toHaveLength(cards);
  });

  it("answers a tampered or forgotten button as out of date, and changes nothing", async () => {
    const refusal = (await press("approve", "999999_not_a_request", BORIS)).refusal;
    expect(refusal).toContain("out of date");
    const cancel = await stack.press("kassa_payout_cancel", "<script>", {
      userId: REQUESTER,
      channelId: "D0REQ",
    });
    expect(JSON.stringify(cancel.reply.body)).toContain("out of date");
  });

  it("refuses a click from another workspace (a card in a shared channel) as out of date, naming no one", async () => {
    await ask(`250 ${METHOD} ${WALLET} Shared channel test`);
    await stack.slack.waitForMessages(() => text(lastCard()).includes("Shared channel test"));
    const id = idOf(lastCard());
    const elsewhere = { teamId: "T0OTHERORG", channelId: APPROVAL };
    const approve = await stack.press("kassa_payout_approve", id, { ...elsewhere, userId: "U0STRANGER" });
    const said = JSON.stringify(approve.reply.body);
    expect(said).toContain("out of date");
    for (const person of [ANNA, BORIS, REQUESTER]) expect(said).not.toContain(person);
    const cancel = await stack.press("kassa_payout_cancel", id, { ...elsewhere, userId: REQUESTER });
    expect(JSON.stringify(cancel.reply.body)).toContain("out of date");
    expect(text(lastCard())).toContain("Shared channel test");
    expect(stack.fake.payoffs.all.get(id)?.state).toBe("created");
  });

  it("loses no card when the approval channel refuses it: the worker posts it once the channel takes it", async () => {
    stack.slack.failChannel(APPROVAL, "not_in_channel");
    const cards = cardsIn(APPROVAL).length;
    try {
      const { reply } = await ask(`300 ${METHOD} ${WALLET} Stationery`);
      expect(JSON.stringify(reply.body)).toContain("Requested");
      await stack.pass("payouts");
      expect(cardsIn(APPROVAL)).toHaveLength(cards);
    } finally {
      stack.slack.failChannel(APPROVAL, null);
    }
    await stack.slack.waitForMessages(() => cardsIn(APPROVAL).length === cards + 1, 5000);
    await stack.pass("payouts", 2);
    expect(cardsIn(APPROVAL)).toHaveLength(cards + 1);
    expect(text(lastCard())).toContain("Stationery");
  });

  it("a service slower than the form's time: the form closes and the requester hears by direct message", async () => {
    const before = stack.slack.callsOf("views.open").length;
    await stack.command("", { command: "/payout", userId: REQUESTER, channelId: "C0ASKED" });
    await expect.poll(() => stack.slack.callsOf("views.open").length).toBe(before + 1);
    const view = viewOf(stack.slack.callsOf("views.open").at(-1)?.body ?? {});
    stack.fake.payoffs.faults.create = "slow";
    try {
      const started = performance.now();
      const values = {
        payout_method: { value: METHOD },
        payout_wallet: { value: WALLET },
        payout_amount: { value: "250" },
        payout_fee_from: { selected: "balance" },
        payout_reason: { value: "Slow service" },
      };
      const result = await stack.submitView({ view, values, userId: REQUESTER, viewId: "V0SLOW" });
      expect(result.json).toBeNull();
      expect(performance.now() - started).toBeLessThan(3000);
    } finally {
      delete stack.fake.payoffs.faults.create;
    }
    await stack.slack.waitForMessages(
      (all) => all.some((m) => m.channel === APPROVAL && JSON.stringify(m.blocks).includes("Slow service")),
      10_000,
    );
    const told = () =>
      stack.slack
        .callsOf("chat.postMessage")
        .filter(
          (call) =>
            call.body.channel === REQUESTER && String(call.body.text).startsWith(":inbox_tray: Requested"),
        );
    await expect.poll(() => told().length, { timeout: 5000 }).toBe(1);
  });

  it("writes every step down in the audit trail, once each, by Slack id", async () => {
    const store = await openStore(stack.env.STORE_URL ?? "");
    let entries: AuditEntry[];
    try {
      const trail = await openAuditTrail(store, { retentionDays: 1825 });
      const page = await trail.list(TEAM, { limit: 500 });
      entries = page.entries.flatMap((listed) => (listed.entry ? [listed.entry] : []));
    } finally {
      await store.close();
    }
    const first = idOf(cardsIn(APPROVAL)[0] as PostedMessage);
    const of = (id: string) =>
      entries
        .filter((entry) => entry.object === `payout ${id}` && entry.outcome === "done")
        .map((entry) => entry.action);
    expect(of(first).sort()).toEqual([
      "payout.approved",
      "payout.ended",
      "payout.requested",
      "payout.submitted",
    ]);
    const refusals = entries
      .filter((entry) => entry.outcome === "refused")
      .map((entry) => `${entry.action} ${entry.actor}`);
    expect(refusals).toEqual(
      expect.arrayContaining([
        `payout.approved ${MEMBER}`,
        `payout.approved ${GUEST}`,
        `payout.approved ${ANNA}`,
        `payout.requested ${REQUESTER}`,
      ]),
    );
    expect(JSON.stringify(entries)).not.toContain(SANDBOX_SALT);
  });
});

describe("payouts in Russian", () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await Stack.start({
      storeMemoMs: 0,
      env: { PAYOUT_RUN_MS: "100" },
      payoutTiming: { followMs: 200 },
    });
    stack.slack.users[ADMIN] = { is_admin: true };
    await connectWithSecret2(stack);
    await stack.cli([
      "payouts",
      "policy",
      "--team",
      TEAM,
      "--approvers",
      `${ANNA},${BORIS}`,
      "--channel",
      APPROVAL,
      "--two-from",
      "5000",
      "--person-day",
      "10000",
      "--register-day",
      "20000",
      "--expire",
      "1h",
      "--requesters",
      REQUESTER,
    ]);
    await stack.ask("language ru", { userId: ADMIN });
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it("says the card, the copy and the refusals in Russian", async () => {
    const { reply } = await stack.ask(`1500 ${METHOD} ${WALLET} Оплата поставщику`, {
      command: "/payout",
      userId: REQUESTER,
    });
    expect(JSON.stringify(reply.body)).toContain("Запрошено");
    await stack.slack.waitForMessages((all) => all.some((m) => m.channel === APPROVAL));
    const card = [...stack.slack.messages.values()].find((m) => m.channel === APPROVAL) as PostedMessage;
    const shown = JSON.stringify(card.blocks);
    for (const words of ["Запрос выплаты", "Ждёт одобрения", "Одобрить", "Отклонить", "Спишется с баланса"])
      expect(shown).toContain(words);
    expect(shown).toMatch(/1\s500,00 RUB/u);
    const id = JSON.stringify(card.blocks).match(/"kassa_payout_approve","value":"([^"]+)"/)?.[1] ?? "";
    const ack = await stack.action("kassa_payout_approve", id, { userId: REQUESTER, channelId: APPROVAL });
    const refusal = JSON.stringify((await stack.slack.waitForReply(ack.responseId)).body);
    expect(refusal).toContain("Эту выплату запросили вы: решать должен другой одобряющий.");
  });
});
