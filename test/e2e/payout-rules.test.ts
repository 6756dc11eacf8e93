/**
 * Issue 52's approval rules through the real app: approval limits and the trusted one-approver amount
 * set in /payout setup and by the CLI, shown by /payout policy; an approver pressing Approve on a
 * payout above their limit refused at the click, told who can approve it; the card saying which rule
 * asked its approvals. (The trusted rule on a request with a recipient: test/payouts/approval-rules.)
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PostedMessage } from "../../sandbox/slack.js";
import { SANDBOX_TEAM } from "../../sandbox/slack.js";
import { Stack } from "../../sandbox/stack.js";
import { connectWithSecret2 } from "../support/secret2.js";
import { type OpenedView as View, viewOf } from "../support/views.js";

const TEAM = SANDBOX_TEAM.id;
const [ADMIN, REQUESTER, ANNA, BORIS, CARL] = ["U0ADMIN", "U0REQ", "U0ANNA", "U0BORIS", "U0CARL"];
const APPROVAL = "C0PAYOUTS";
const WALLET = "2200700012345678";
const METHOD = "CARDRUBP2P";

const FORM = {
  payout_approvers: { users: [ANNA, BORIS, CARL] },
  payout_channel: { conversation: APPROVAL },
  payout_two_from: { value: "5000" },
  payout_trusted_below: { value: "9 000" },
  payout_limit_people_0: { users: [ANNA] },
  payout_limit_upto_0: { value: "5 500" },
  payout_person_day: { value: "100000" },
  payout_register_day: { value: "200000" },
  payout_expire: { value: "1h" },
  payout_requesters: { users: [REQUESTER] },
  payout_enabled: { ticked: ["on"] },
};

describe("payout approval rules", () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await Stack.start({ storeMemoMs: 0 });
    stack.slack.users[ADMIN] = { is_admin: true };
    for (const user of [REQUESTER, ANNA, BORIS, CARL]) stack.slack.users[user] = {};
    await connectWithSecret2(stack);
    const balance = stack.fake.balances.find((one) => one.code === METHOD);
    if (balance) balance.amount = "1000000";
  });
  afterAll(async () => {
    await stack?.stop();
  });

  const printed = async () => (await stack.cli(["payouts", "policy", "--team", TEAM])).stdout;
  const cardsIn = (channel: string) =>
    [...stack.slack.messages.values()].filter((message) => message.channel === channel && !message.threadTs);

  async function openForm(): Promise<View> {
    const before = stack.slack.callsOf("views.open").length;
    await stack.command("setup", { command: "/payout", userId: ADMIN, channelId: "C0ASKED" });
    await expect.poll(() => stack.slack.callsOf("views.open").length).toBe(before + 1);
    return viewOf(stack.slack.callsOf("views.open").at(-1)?.body ?? {});
  }

  it("sets limits in /payout setup: a row naming someone not an approver refused next to it, then saved and announced", async () => {
    const view = await openForm();
    const refused = await stack.submitView({
      view,
      values: {
        ...FORM,
        payout_limit_people_0: { users: [ANNA, "U0DINA"] },
        payout_trusted_below: { value: "4000" },
      },
      userId: ADMIN,
    });
    expect(refused.json).toEqual({
      response_action: "errors",
      errors: {
        payout_trusted_below:
          "Must be more than the two-approver amount: below that one approver suffices anyway.",
        payout_limit_people_0:
          "@U0DINA: not among the approvers. Add them as approvers, or take them out here.",
      },
    });
    expect(await printed()).toContain("has no payout policy");
    const saved = await stack.submitView({ view, values: FORM, userId: ADMIN });
    expect(saved.json).toBeNull();
    const policy = await printed();
    expect(policy).toContain("one approver to a trusted recipient below: 9000 RUB");
    expect(policy).toContain(`approval limits: ${ANNA} up to 5500 RUB`);
    await expect
      .poll(() =>
        JSON.stringify(stack.slack.callsOf("chat.postMessage").filter((c) => c.body.channel === APPROVAL)),
      )
      .toContain(`*Approval limits*: <@${ANNA}> up to 5,500.00 RUB`);
    const again = JSON.stringify(await openForm());
    expect(again).toContain(`"block_id":"payout_limit_people_0"`);
    expect(again).toContain(`"initial_users":["${ANNA}"]`);
    expect(again).toContain(`"initial_value":"5500"`);
    expect(again).toContain(`"initial_value":"9000"`);
  });

  it("sets limits with the CLI, repeatable, each checked", async () => {
    const base = ["payouts", "policy", "--team", TEAM, "--approvers", [ANNA, BORIS, CARL].join(",")]
      .concat([
        "--channel",
        APPROVAL,
        "--two-from",
        "5000",
        "--person-day",
        "100000",
        "--register-day",
        "200000",
      ])
      .concat(["--expire", "1h", "--requesters", REQUESTER, "--trusted-one-below", "9000"]);
    const wrong = await stack.cli([
      ...base,
      "--approver-limit",
      `${ANNA}=5500`,
      "--approver-limit",
      "U0ZED=100",
    ]);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain("--approver-limit number 2 names someone not among --approvers (U0ZED)");
    const set = await stack.cli([
      ...base,
      "--approver-limit",
      `${ANNA}=5500`,
      "--approver-limit",
      `${CARL}=1000000`,
    ]);
    expect(set.code, set.stderr).toBe(0);
    expect(set.stdout).toContain("changed: approverLimits");
    expect(set.stdout).toContain(`approval limits: ${ANNA} up to 5500 RUB, ${CARL} up to 1000000 RUB`);
    const { reply } = await stack.ask("policy", { command: "/payout", userId: REQUESTER });
    const said = JSON.stringify(reply.body);
    expect(said).toContain(
      `*Approval limits*: <@${ANNA}> up to 5,500.00 RUB; <@${CARL}> up to 1,000,000.00 RUB`,
    );
    expect(said).toContain("*One approver to trusted recipients below*: 9,000.00 RUB");
  });

  it("refuses Approve above the approver's limit at the click, saying who can; two approvers within their limits approve it", async () => {
    const before = cardsIn(APPROVAL).length;
    const { reply } = await stack.ask(`6000 ${METHOD} ${WALLET} Supplier`, {
      command: "/payout",
      userId: REQUESTER,
    });
    expect(JSON.stringify(reply.body)).toContain("Requested");
    await stack.slack.waitForMessages(() => cardsIn(APPROVAL).length === before + 1);
    const card = cardsIn(APPROVAL).at(-1) as PostedMessage;
    expect(JSON.stringify(card.blocks)).toContain("Two approvers: 5,000.00 RUB and more");
    const id = JSON.stringify(card.blocks).match(/Payout `([^`]+)`/)?.[1] ?? "";
    const opened = stack.slack.callsOf("views.open").length;
    const refused = await stack.press(`kassa_payout_approve`, id, { userId: ANNA, channelId: APPROVAL });
    const said = JSON.stringify(refused.reply.body);
    expect(said).toContain("above your approval limit (5,500.00 RUB), so your approval was not counted");
    expect(said).toContain(`Who can approve it: <@${BORIS}>, <@${CARL}>`);
    expect(stack.slack.callsOf("views.open")).toHaveLength(opened);
    for (const user of [BORIS, CARL]) {
      const count = stack.slack.callsOf("views.open").length;
      await stack.action("kassa_payout_approve", id, { userId: user, channelId: APPROVAL });
      await expect.poll(() => stack.slack.callsOf("views.open").length).toBe(count + 1);
      const view = viewOf(stack.slack.callsOf("views.open").at(-1)?.body ?? {});
      const result = await stack.submitView({
        view,
        values: { payout_last_four: { value: WALLET.slice(-4) } },
        userId: user,
      });
      expect(result.json).toBeNull();
    }
    await expect
      .poll(() => JSON.stringify(stack.slack.messages.get(`${card.channel}:${card.ts}`)?.blocks))
      .toContain(`Approvals: 2 of 2 (<@${BORIS}>, <@${CARL}>)`);
  });
});
