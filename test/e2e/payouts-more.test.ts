/**
 * Payouts beyond one replica's happy path, through the real app: the service's payout callback ends
 * a card at once (follow-ups set to ten minutes), and on two replicas of one Redis or PostgreSQL
 * store two approvers clicking at the same moment and an answer lost after the service carried out
 * the submit give one submit each. The replica tests run when TEST_REDIS_URL / TEST_POSTGRES_URL are set.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SANDBOX_LOGIN, SANDBOX_SALT } from "../../sandbox/fake-payments.js";
import { freePort } from "../../sandbox/ports.js";
import { SHOP2, twoRegisterService } from "../../sandbox/second-register.js";
import type { PostedMessage } from "../../sandbox/slack.js";
import { SANDBOX_TEAM } from "../../sandbox/slack.js";
import { Stack, type StackOptions } from "../../sandbox/stack.js";
import { connectWithSecret2 } from "../support/secret2.js";
import { type OpenedView as View, viewOf } from "../support/views.js";

const TEAM = SANDBOX_TEAM.id;
const [REQUESTER, ANNA, BORIS, CARL] = ["U0REQ", "U0ANNA", "U0BORIS", "U0CARL"];
const APPROVAL = "C0PAYOUTS";
const WALLET = "2200700012345678";
const METHOD = "CARDRUBP2P";

async function payoutStack(options: StackOptions): Promise<Stack> {
  const stack = await Stack.start({ storeMemoMs: 0, ...options });
  for (const user of [REQUESTER, ANNA, BORIS, CARL]) stack.slack.users[user] = {};
  await connectWithSecret2(stack);
  const set = await stack.cli(
    ["payouts", "policy", "--team", TEAM, "--approvers", [ANNA, BORIS, CARL].join(","), "--channel", APPROVAL]
      .concat(["--two-from", "5000", "--person-day", "100000", "--register-day", "100000", "--expire", "1h"])
      .concat(["--requesters", REQUESTER]),
  );
  expect(set.code, set.stderr).toBe(0);
  return stack;
}

const cardsIn = (stack: Stack) =>
  [...stack.slack.messages.values()].filter((message) => message.channel === APPROVAL && !message.threadTs);
const idOf = (card: PostedMessage | undefined) =>
  JSON.stringify(card?.blocks ?? []).match(/Payout `([^`]+)`/)?.[1] ?? "";
const shown = (stack: Stack, card: PostedMessage) =>
  JSON.stringify(stack.slack.messages.get(`${card.channel}:${card.ts}`)?.blocks ?? []);

/** A request made through `stack`, and its card once posted. */
async function requested(stack: Stack, amount: string): Promise<{ id: string; card: PostedMessage }> {
  const before = cardsIn(stack).length;
  const { reply } = await stack.ask(`${amount} ${METHOD} ${WALLET} Supplier`, {
    command: "/payout",
    userId: REQUESTER,
  });
  expect(JSON.stringify(reply.body)).toContain("Requested");
  await stack.slack.waitForMessages(() => cardsIn(stack).length === before + 1);
  const card = cardsIn(stack).at(-1) as PostedMessage;
  return { id: idOf(card), card };
}

/** Approve pressed on `via` and its modal submitted with the wallet's last four; the submission's answer. */
async function approveVia(via: Stack, id: string, user: string) {
  const before = via.slack.callsOf("views.open").length;
  const ack = await via.action("kassa_payout_approve", id, { userId: user, channelId: APPROVAL });
  expect(ack.status).toBe(200);
  await expect.poll(() => via.slack.callsOf("views.open").length).toBeGreaterThan(before);
  const opened = via.slack
    .callsOf("views.open")
    .map((call) => viewOf(call.body))
    .filter((view) => view.callback_id === "kassa_payout_approve")
    .at(-1) as View;
  return {
    view: opened,
    submit: () =>
      via.submitView({ view: opened, values: { payout_last_four: { value: "5678" } }, userId: user }),
  };
}

describe("a payout's callback ends its card at once", () => {
  let stack: Stack;
  beforeAll(async () => {
    const port = await freePort();
    stack = await payoutStack({
      env: { PORT: String(port), PUBLIC_URL: `http://127.0.0.1:${port}/`, PAYOUT_RUN_MS: "100" },
      payoutTiming: { followMs: 600_000 },
    });
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it("sends the register's address with the quote; the signed callback makes the worker read it now", async () => {
    const { id, card } = await requested(stack, "1200");
    expect(stack.fake.payoffs.all.get(id)?.callbackUrl).toMatch(
      /\/crystalpay\/callback\/[A-Za-z0-9_-]+\?kind=payout$/,
    );
    expect((await (await approveVia(stack, id, ANNA)).submit()).json).toBeNull();
    await expect.poll(() => stack.fake.payoffs.submits, { timeout: 5000 }).toEqual([id]);
    await expect
      .poll(() => shown(stack, card), { timeout: 5000 })
      .toContain("Sent: the service is paying it out");
    stack.fake.payoffs.finish(id, "failed", "Card blocked by the bank");
    await expect.poll(() => shown(stack, card), { timeout: 3000 }).toContain("Failed at the service");
    expect(stack.fake.payoffs.callbacks.at(-1)).toMatchObject({ payoffId: id, status: 200 });
    await expect.poll(() => stack.slack.threadOf(APPROVAL, card.ts).length, { timeout: 3000 }).toBe(1);
    expect(stack.slack.threadOf(APPROVAL, card.ts)[0]?.text).toContain("Card blocked by the bank");
  });
});

describe("payouts per register", () => {
  const SHOP2_SALT = "shop2-salt-9a7c";
  let stack: Stack;
  beforeAll(async () => {
    stack = await payoutStack({
      fake: {
        ...twoRegisterService([]),
        salts: { [SANDBOX_LOGIN]: SANDBOX_SALT, [SHOP2.login]: SHOP2_SALT },
      },
      env: { PAYOUT_RUN_MS: "100" },
      payoutTiming: { followMs: 200 },
    });
    const added = await stack.cli(
      ["credentials", "set", "--team", TEAM, "--register", SHOP2.name, "--login", SHOP2.login].concat([
        "--secret",
        SHOP2.secret,
        "--salt",
        "-",
      ]),
      SHOP2_SALT,
    );
    expect(added.code, added.stderr).toBe(0);
    const set = await stack.cli(
      ["payouts", "policy", "--team", TEAM, "--register", SHOP2.name, "--approvers", [ANNA, BORIS].join(",")]
        .concat([
          "--channel",
          "C0SHOP2PAY",
          "--two-from",
          "5000",
          "--person-day",
          "100000",
          "--register-day",
          "100000",
        ])
        .concat(["--expire", "1h", "--requesters", REQUESTER]),
    );
    expect(set.code, set.stderr).toBe(0);
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it("asks shop2's service with shop2's Secret 2, posts in shop2's approval channel, names the register, sends it from shop2", async () => {
    const { reply } = await stack.ask(`shop2 900 ${METHOD} ${WALLET} Shop two supplier`, {
      command: "/payout",
      userId: REQUESTER,
    });
    expect(JSON.stringify(reply.body)).toContain("Requested");
    await stack.slack.waitForMessages((all) => all.some((m) => m.channel === "C0SHOP2PAY"));
    const card = [...stack.slack.messages.values()].find((m) => m.channel === "C0SHOP2PAY") as PostedMessage;
    expect(JSON.stringify(card.blocks)).toContain("Payout request · shop2");
    expect(cardsIn(stack)).toHaveLength(0);
    const id = idOf(card);
    expect(stack.fake.payoffs.all.get(id)?.login).toBe(SHOP2.login);
    const before = stack.slack.callsOf("views.open").length;
    await stack.action("kassa_payout_approve", id, { userId: ANNA, channelId: "C0SHOP2PAY" });
    await expect.poll(() => stack.slack.callsOf("views.open").length).toBe(before + 1);
    const view = viewOf(stack.slack.callsOf("views.open").at(-1)?.body ?? {});
    const done = await stack.submitView({
      view,
      values: { payout_last_four: { value: "5678" } },
      userId: ANNA,
    });
    expect(done.json).toBeNull();
    await expect.poll(() => stack.fake.payoffs.submits, { timeout: 5000 }).toEqual([id]);
  });
});

const ENGINES = [
  { name: "redis", url: process.env.TEST_REDIS_URL?.trim() || undefined, variable: "TEST_REDIS_URL" },
  {
    name: "postgres",
    url: process.env.TEST_POSTGRES_URL?.trim() || undefined,
    variable: "TEST_POSTGRES_URL",
  },
];
for (const engine of ENGINES)
  if (!engine.url)
    console.log(`payouts on two replicas: skipping ${engine.name} (${engine.variable} not set)`);

for (const engine of ENGINES) {
  describe.skipIf(!engine.url)(`payouts on two replicas of one ${engine.name} store`, () => {
    let first: Stack;
    let second: Stack;
    beforeAll(async () => {
      first = await payoutStack({
        env: { STORE_URL: engine.url ?? "", PAYOUT_RUN_MS: "100" },
        payoutTiming: { followMs: 200, retryMs: 200, leaseMs: 1000, graceMs: 1500 },
      });
      second = await first.replica();
    });
    afterAll(async () => {
      await second?.stopApp();
      await first?.stop();
    });

    it("two approvers clicking at the same moment on two replicas: one approval closes it, one submit", async () => {
      const { id, card } = await requested(first, "6000");
      expect((await (await approveVia(first, id, ANNA)).submit()).json).toBeNull();
      const [boris, carl] = await Promise.all([approveVia(first, id, BORIS), approveVia(second, id, CARL)]);
      const answers = await Promise.all([boris.submit(), carl.submit()]);
      const refused = answers.filter((answer) => answer.json !== null);
      expect(refused).toHaveLength(1);
      expect(JSON.stringify(refused[0]?.json)).toContain("Already approved by");
      await expect
        .poll(() => first.fake.payoffs.submits.filter((one) => one === id), { timeout: 5000 })
        .toEqual([id]);
      await expect
        .poll(() => shown(first, card), { timeout: 5000 })
        .toContain("Sent: the service is paying it out");
      await first.pass("payouts", 2);
      await second.pass("payouts", 2);
      expect(first.fake.payoffs.submits.filter((one) => one === id)).toEqual([id]);
    });

    it("a submit whose answer was lost after the service carried it out is read back, never sent again", async () => {
      const { id, card } = await requested(second, "700");
      first.fake.payoffs.faults.submit = "lostAnswer";
      try {
        expect((await (await approveVia(second, id, BORIS)).submit()).json).toBeNull();
        await expect
          .poll(() => first.fake.payoffs.submits.filter((one) => one === id), { timeout: 5000 })
          .toEqual([id]);
      } finally {
        delete first.fake.payoffs.faults.submit;
      }
      await expect
        .poll(() => shown(first, card), { timeout: 8000 })
        .toContain("Sent: the service is paying it out");
      first.fake.payoffs.finish(id, "payed");
      await expect.poll(() => shown(first, card), { timeout: 5000 }).toContain("Paid out");
      await expect.poll(() => first.slack.threadOf(APPROVAL, card.ts).length, { timeout: 3000 }).toBe(1);
      await first.pass("payouts", 2);
      await second.pass("payouts", 2);
      expect(first.slack.threadOf(APPROVAL, card.ts)).toHaveLength(1);
      expect(first.fake.payoffs.submits.filter((one) => one === id)).toEqual([id]);
    });
  });
}
