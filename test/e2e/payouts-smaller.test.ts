/**
 * Payout requests' smaller rules through the real app (issue 49): how an amount is read (`10,000` is
 * ten thousand; a figure readable two ways is refused, saying how to write it), and what the
 * requester is told. The payout worker is not needed here: each request posts its card at once.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PostedMessage } from "../../sandbox/slack.js";
import { SANDBOX_TEAM } from "../../sandbox/slack.js";
import { Stack } from "../../sandbox/stack.js";
import { clockReading } from "../support/manual-clock.js";
import { connectWithSecret2 } from "../support/secret2.js";
import { type OpenedView as View, viewOf } from "../support/views.js";

const TEAM = SANDBOX_TEAM.id;
const [REQUESTER, ANNA, BORIS, CARL] = ["U0REQ", "U0ANNA", "U0BORIS", "U0CARL"];
const APPROVAL = "C0PAYOUTS";
const WALLET = "2200700012345678";
const METHOD = "CARDRUBP2P";

let offsetMs = 0;
const clock = () => new Date(Date.now() + offsetMs);

describe("payout requests: the smaller rules", () => {
  let stack: Stack;
  /** The register's payout policy set by the CLI; caps in roubles. */
  async function setPolicy(personDay: string, registerDay: string, requesters = [REQUESTER]) {
    const set = await stack.cli(
      ["payouts", "policy", "--team", TEAM, "--approvers", [ANNA, BORIS, CARL].join(","), "--channel"]
        .concat([APPROVAL, "--two-from", "5000", "--person-day", personDay, "--register-day", registerDay])
        .concat(["--expire", "1h", "--requesters", requesters.join(",")]),
    );
    expect(set.code, set.stderr).toBe(0);
  }
  beforeAll(async () => {
    stack = await Stack.start({ storeMemoMs: 0, clock: clockReading(clock) });
    for (const user of [REQUESTER, ANNA, BORIS, CARL]) stack.slack.users[user] = {};
    await connectWithSecret2(stack);
    await setPolicy("100000", "200000");
    const balance = stack.fake.balances.find((one) => one.code === METHOD);
    if (balance) balance.amount = "1000000";
  });
  afterAll(async () => {
    await stack?.stop();
  });

  const cardsIn = (channel: string) =>
    [...stack.slack.messages.values()].filter((message) => message.channel === channel && !message.threadTs);
  const lastCard = () => cardsIn(APPROVAL).at(-1) as PostedMessage;
  const text = (message: PostedMessage | undefined) =>
    JSON.stringify(message?.blocks ?? []) + (message?.text ?? "");
  const ask = (line: string, userId = REQUESTER) =>
    stack.ask(line, { command: "/payout", userId, channelId: "C0ASKED" });
  const quotes = () => stack.fake.payoffs.all.size;

  /** `/payout` alone: the request form Slack was asked to open. */
  async function openForm(): Promise<View> {
    const before = stack.slack.callsOf("views.open").length;
    const ack = await stack.command("", { command: "/payout", userId: REQUESTER, channelId: "C0ASKED" });
    expect(ack.status).toBe(200);
    await expect.poll(() => stack.slack.callsOf("views.open").length).toBe(before + 1);
    return viewOf(stack.slack.callsOf("views.open").at(-1)?.body ?? {});
  }

  describe("amounts (item 1)", () => {
    it("reads 10,000 in the one-line /payout as ten thousand roubles", async () => {
      const cards = cardsIn(APPROVAL).length;
      const { reply } = await ask(`10,000 ${METHOD} ${WALLET} Rent for March`);
      expect(JSON.stringify(reply.body)).toContain("Requested");
      await stack.slack.waitForMessages(() => cardsIn(APPROVAL).length === cards + 1);
      expect(text(lastCard())).toContain("10,000.00 RUB");
      expect([...stack.fake.payoffs.all.values()].at(-1)?.amount).toBe("10000");
    });

    it("reads 10,000 in the request form as ten thousand, and 1000,25 with its kopecks", async () => {
      const values = (amount: string) => ({
        payout_method: { value: METHOD },
        payout_wallet: { value: WALLET },
        payout_amount: { value: amount },
        payout_fee_from: { selected: "balance" },
        payout_reason: { value: "Deposit" },
        payout_reference: { value: "" },
      });
      for (const [amount, shown, viewId] of [
        ["10,000", "10,000.00 RUB", "V0TENK"],
        ["1000,25", "1,000.25 RUB", "V0KOPECKS"],
      ] as const) {
        const cards = cardsIn(APPROVAL).length;
        const view = await openForm();
        const result = await stack.submitView({ view, values: values(amount), userId: REQUESTER, viewId });
        expect(result.json, JSON.stringify(result.json)).toBeNull();
        await stack.slack.waitForMessages(() => cardsIn(APPROVAL).length === cards + 1);
        expect(text(lastCard())).toContain(shown);
      }
    });

    it("refuses an amount readable two ways, saying why and how to write it; nothing is quoted", async () => {
      const [made, cards] = [quotes(), cardsIn(APPROVAL).length];
      for (const amount of ["1.000,50", "10,000.5,1", "1,234,5"]) {
        const { reply } = await ask(`${amount} ${METHOD} ${WALLET} Supplier`);
        const said = JSON.stringify(reply.body);
        expect(said).toContain(`\`${amount}\` can be read as more than one amount, so nothing was requested`);
        expect(said).toContain("10 000 or 10,000 is ten thousand");
      }
      const view = await openForm();
      const result = await stack.submitView({
        view,
        values: {
          payout_method: { value: METHOD },
          payout_wallet: { value: WALLET },
          payout_amount: { value: "1.000,50" },
          payout_reason: { value: "Deposit" },
        },
        userId: REQUESTER,
        viewId: "V0TWOWAYS",
      });
      expect(JSON.stringify(result.json)).toContain("can be read as more than one amount");
      expect(JSON.stringify(result.json)).toContain('"payout_amount"');
      expect(quotes()).toBe(made);
      expect(cardsIn(APPROVAL)).toHaveLength(cards);
    });
  });

  describe("the quote's rub_amount (item 3)", () => {
    it("refuses a quote counted as zero, negative or absurd roubles, showing the service's figures; its quote cancelled", async () => {
      const cards = cardsIn(APPROVAL).length;
      try {
        for (const [rub, shown] of [
          ["0", "60 USDT as 0.00 RUB"],
          ["-5713.97", "60 USDT as -5,713.97 RUB"],
          ["57139700000000", "60 USDT as 57,139,700,000,000.00 RUB"],
        ] as const) {
          stack.fake.payoffs.rubShown = rub;
          const { reply } = await ask(`60 USDTTRC TXYZ1 Contractor ${rub}`);
          const said = JSON.stringify(reply.body);
          expect(said).toContain(`The payment service counted ${shown}, which cannot be right`);
          expect(said).toContain("Its quote was cancelled and nothing was requested");
          expect([...stack.fake.payoffs.all.values()].at(-1)?.state).toBe("canceled");
        }
      } finally {
        stack.fake.payoffs.rubShown = null;
      }
      expect(cardsIn(APPROVAL)).toHaveLength(cards);
      // The service's own count goes through: 60 USDT at 95.2328 RUB, two approvals from 5,000 RUB.
      const { reply } = await ask(`60 USDTTRC TXYZ1 Contractor`);
      expect(JSON.stringify(reply.body)).toContain("2 approvals are needed");
    });
  });

  describe("roubles past a daily cap (item 5)", () => {
    it("refuses a RUB request past what is left of a cap before any quote, saying the cap, what is left and who can change it", async () => {
      offsetMs += 86_400_000; // a new day: nothing requested yet
      await setPolicy("5000", "8000", [REQUESTER, ANNA]);
      try {
        expect(JSON.stringify((await ask(`4000 ${METHOD} ${WALLET} Rent`)).reply.body)).toContain(
          "Requested",
        );
        const [made, cards] = [quotes(), cardsIn(APPROVAL).length];
        const mine = JSON.stringify((await ask(`1500 ${METHOD} ${WALLET} Deposit`)).reply.body);
        expect(mine).toContain("more than your daily cap (4,000.00 RUB requested of 5,000.00 RUB)");
        expect(mine).toContain(
          "1,000.00 RUB is left of your cap today; an admin can change the cap with `/payout setup`",
        );
        const register = JSON.stringify((await ask(`4500 ${METHOD} ${WALLET} Deposit`, ANNA)).reply.body);
        expect(register).toContain("above its daily cap (4,000.00 RUB requested of 8,000.00 RUB)");
        expect(register).toContain("4,000.00 RUB is left of the register's cap today");
        // No quote was asked for either.
        expect(quotes()).toBe(made);
        expect(cardsIn(APPROVAL)).toHaveLength(cards);
        // What is left still passes.
        expect(JSON.stringify((await ask(`1000 ${METHOD} ${WALLET} Deposit`)).reply.body)).toContain(
          "Requested",
        );
      } finally {
        await setPolicy("100000", "200000");
      }
    });
  });

  describe("a double Enter (item 4)", () => {
    it("makes one quote for the same one-line /payout sent twice at once; the repeat is told so", async () => {
      const [made, cards] = [quotes(), cardsIn(APPROVAL).length];
      const line = `1234 ${METHOD} ${WALLET} Courier, twice by mistake`;
      const replies = await Promise.all([ask(line), ask(line)]);
      const said = replies.map(({ reply }) => JSON.stringify(reply.body));
      expect(quotes()).toBe(made + 1);
      expect(said.filter((one) => one.includes("Requested."))).toHaveLength(1);
      expect(said.filter((one) => one.includes("You sent this same /payout a few seconds ago"))).toHaveLength(
        1,
      );
      await stack.slack.waitForMessages(() => cardsIn(APPROVAL).length === cards + 1);
    });

    it("points a repeat at the first request, and takes the same line again once the seconds have passed", async () => {
      const line = `1250 ${METHOD} ${WALLET} Courier`;
      expect(JSON.stringify((await ask(line)).reply.body)).toContain("Requested.");
      const first = [...stack.fake.payoffs.all.values()].at(-1)?.id ?? "";
      const made = quotes();
      const again = JSON.stringify((await ask(line)).reply.body);
      expect(again).toContain(
        `it was requested once, as payout \`${first}\` (its card is in <#${APPROVAL}>)`,
      );
      expect(quotes()).toBe(made);
      // Someone else's same line is their own request.
      expect(JSON.stringify((await ask(line, ANNA)).reply.body)).not.toContain("You sent this same");
      offsetMs += 11_000;
      expect(JSON.stringify((await ask(line)).reply.body)).toContain("Requested.");
      expect(quotes()).toBe(made + 1);
    });
  });
});
