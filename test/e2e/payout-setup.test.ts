/**
 * Payouts are off until an admin sets a policy: /payout setup through the real app (signed commands
 * and form submissions), the CLI on the same store, the announcement in the approval channel.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SANDBOX_LOGIN, SANDBOX_SALT, SANDBOX_SECRET } from "../../sandbox/fake-payments.js";
import { SANDBOX_TEAM } from "../../sandbox/slack.js";
import { Stack } from "../../sandbox/stack.js";
import { expectWithinBlockKitLimits } from "../support/block-kit-limits.js";
import { type OpenedView as View, viewOf } from "../support/views.js";

const TEAM = SANDBOX_TEAM.id;
const ADMIN = "U0ADMIN";
const MEMBER = "U0MEMBER";
const APPROVAL = "C0PAYOUTS";

const FORM = {
  payout_approvers: { users: ["U0ANNA", "U0BORIS"] },
  payout_channel: { conversation: APPROVAL },
  payout_two_from: { value: "50 000" },
  payout_person_day: { value: "100000" },
  payout_register_day: { value: "300 000,50" },
  payout_expire: { value: "4h" },
  payout_requesters: { users: ["U0CARL"] },
  payout_enabled: { ticked: ["on"] },
};

describe("/payout setup", () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await Stack.start({ storeMemoMs: 0 });
    stack.slack.users[ADMIN] = { is_admin: true };
    stack.slack.users[MEMBER] = {};
  });
  afterAll(async () => {
    await stack?.stop();
  });

  const connectWithSalt = (register?: string) =>
    stack.cli(
      [
        "credentials",
        "set",
        "--team",
        TEAM,
        ...(register ? ["--register", register] : []),
        "--login",
        SANDBOX_LOGIN,
        "--secret",
        SANDBOX_SECRET,
        "--salt",
        "-",
      ],
      SANDBOX_SALT,
    );

  /** Runs `/payout TEXT` as the admin and returns the form Slack was asked to open. */
  async function openForm(text = "setup"): Promise<View> {
    const before = stack.slack.callsOf("views.open").length;
    const ack = await stack.command(text, { command: "/payout", userId: ADMIN, channelId: "C0ASKED" });
    expect(ack.status).toBe(200);
    await expect.poll(() => stack.slack.callsOf("views.open").length).toBe(before + 1);
    return viewOf(stack.slack.callsOf("views.open").at(-1)?.body ?? {});
  }

  const policyPrinted = async (register?: string) =>
    (await stack.cli(["payouts", "policy", "--team", TEAM, ...(register ? ["--register", register] : [])]))
      .stdout;

  it("refuses a register without Secret 2, saying where to add it, and opens nothing", async () => {
    const { reply } = await stack.ask("setup", { command: "/payout", userId: ADMIN });
    expect(JSON.stringify(reply.body)).toContain("has no Secret 2 stored");
    expect(JSON.stringify(reply.body)).toContain("/invoice connect");
    expect(stack.slack.callsOf("views.open")).toHaveLength(0);
    expect(await policyPrinted()).toContain("has no payout policy: payouts are off");
  });

  it("refuses a member, saying who can", async () => {
    await connectWithSalt();
    const { reply } = await stack.ask("setup", { command: "/payout", userId: MEMBER });
    expect(JSON.stringify(reply.body)).toContain("Only workspace admins and owners can set up payouts");
    expect(stack.slack.callsOf("views.open")).toHaveLength(0);
  });

  it("refuses one approver next to the field, and saves nothing", async () => {
    const view = await openForm();
    const result = await stack.submitView({
      view,
      values: { ...FORM, payout_approvers: { users: ["U0ANNA"] } },
      userId: ADMIN,
    });
    expect(result.json).toEqual({
      response_action: "errors",
      errors: { payout_approvers: "Choose at least two different people." },
    });
    expect(await policyPrinted()).toContain("has no payout policy");
  });

  it("refuses a guest, an app or a deactivated account as approver or requester, and saves nothing", async () => {
    stack.slack.users.U0GUEST = { is_restricted: true };
    stack.slack.users.U0BOT = { is_bot: true };
    stack.slack.users.U0GONE = { deleted: true };
    const view = await openForm();
    const refused = async (values: Record<string, { users: string[] }>) =>
      (await stack.submitView({ view, values: { ...FORM, ...values }, userId: ADMIN })).json;
    expect(await refused({ payout_approvers: { users: ["U0ANNA", "U0GUEST"] } })).toEqual({
      response_action: "errors",
      errors: { payout_approvers: "u0guest is a guest: choose full members of the workspace." },
    });
    expect(JSON.stringify(await refused({ payout_approvers: { users: ["U0BOT", "U0ANNA"] } }))).toContain(
      "u0bot is an app",
    );
    expect(JSON.stringify(await refused({ payout_requesters: { users: ["U0GONE"] } }))).toContain(
      '"payout_requesters":"u0gone is deactivated',
    );
    stack.slack.usersInfoError = "ratelimited";
    try {
      // Slack cannot say who the admin is either: refused before the people are asked about.
      expect(JSON.stringify(await refused({}))).toContain("Only workspace admins");
    } finally {
      stack.slack.usersInfoError = null;
    }
    expect(await policyPrinted()).toContain("has no payout policy");
  });

  it("an admin saves a policy: stored, announced in the approval channel, the admin told", async () => {
    const view = await openForm();
    expect(view.callback_id).toBe("kassa_payout_setup");
    expect(JSON.stringify(view)).toContain('"initial_value":"24h"');
    const member = await stack.submitView({ view, values: FORM, userId: MEMBER });
    expect(JSON.stringify(member.json)).toContain("Only workspace admins and owners can set up payouts");
    const saved = await stack.submitView({ view, values: FORM, userId: ADMIN });
    expect(saved.status).toBe(200);
    expect(saved.json).toBeNull();
    const printed = await policyPrinted();
    expect(printed).toContain("payouts: on; version 1, set by U0ADMIN");
    expect(printed).toContain("approvers: U0ANNA, U0BORIS");
    expect(printed).toContain("per register per day: 300000.5 RUB");
    expect(printed).toContain("a request waits: 4h");
    expect(printed).toContain("may request: U0CARL");
    await expect
      .poll(() => stack.slack.callsOf("chat.postMessage").filter((c) => c.body.channel === APPROVAL))
      .toHaveLength(1);
    const message = stack.slack.callsOf("chat.postMessage").at(-1)?.body;
    expectWithinBlockKitLimits({ text: message?.text, blocks: JSON.parse(String(message?.blocks)) });
    const announced = JSON.stringify(message);
    expect(announced).toContain("<@U0ADMIN> changed the payout policy of cash register *main* (version 1)");
    expect(announced).toContain("*Approvers*: <@U0ANNA>, <@U0BORIS>");
    expect(announced).toContain("300,000.50 RUB");
    await expect.poll(() => stack.slack.callsOf("chat.postEphemeral").length).toBeGreaterThan(0);
    const note = stack.slack.callsOf("chat.postEphemeral").at(-1)?.body;
    expect(note?.channel).toBe("C0ASKED");
    expect(JSON.stringify(note)).toContain("saved (version 1) and announced in <#C0PAYOUTS>");
    for (const call of stack.slack.callsOf("chat.postMessage"))
      expect(JSON.stringify(call)).not.toContain(SANDBOX_SALT);
  });

  it("opens prefilled; a form opened before someone else's save is told it changed meanwhile", async () => {
    const view = await openForm();
    expect(JSON.stringify(view)).toContain('"initial_users":["U0ANNA","U0BORIS"]');
    expect(JSON.stringify(view)).toContain(`"initial_conversation":"${APPROVAL}"`);
    const cli = await stack.cli([
      "payouts",
      "policy",
      "--team",
      TEAM,
      "--approvers",
      "U0ANNA,U0DINA",
      "--channel",
      APPROVAL,
      "--two-from",
      "10000",
      "--person-day",
      "20000",
      "--register-day",
      "50000",
    ]);
    expect(cli.code).toBe(0);
    const late = await stack.submitView({ view, values: FORM, userId: ADMIN });
    expect(JSON.stringify(late.json)).toContain("The policy was changed meanwhile (by cli");
    expect(await policyPrinted()).toContain("approvers: U0ANNA, U0DINA");
    const { reply } = await stack.ask("help", { command: "/payout", userId: MEMBER });
    expect(JSON.stringify(reply.body)).toContain("policy set; approvers <@U0ANNA>, <@U0DINA>");
    // Payouts are on, but a member who may not request gets no form: who may, instead.
    const asked = await stack.ask("", { command: "/payout", userId: MEMBER });
    expect(JSON.stringify(asked.reply.body)).toContain("Only the workspace's admins may request payouts");
  });

  it("saving with Kassa not in the approval channel saves, and says so to the admin", async () => {
    stack.slack.failChannel("C0PRIVATE", "not_in_channel");
    const view = await openForm();
    const saved = await stack.submitView({
      view,
      values: { ...FORM, payout_channel: { conversation: "C0PRIVATE" } },
      userId: ADMIN,
    });
    expect(saved.json).toBeNull();
    await expect
      .poll(() => JSON.stringify(stack.slack.callsOf("chat.postEphemeral").at(-1)?.body))
      .toContain("Kassa is not in <#C0PRIVATE>");
    expect(await policyPrinted()).toContain("approval channel: C0PRIVATE");
  });

  it("/payout shop2 setup works on register shop2, whose Secret 2 is its own", async () => {
    await stack.cli([
      "credentials",
      "set",
      "--team",
      TEAM,
      "--register",
      "shop2",
      "--login",
      SANDBOX_LOGIN,
      "--secret",
      SANDBOX_SECRET,
    ]);
    const { reply } = await stack.ask("shop2 setup", { command: "/payout", userId: ADMIN });
    expect(JSON.stringify(reply.body)).toContain("*shop2* has no Secret 2 stored");
    expect(JSON.stringify(reply.body)).toContain("/invoice shop2 connect");
    await connectWithSalt("shop2");
    const view = await openForm("shop2 setup");
    expect(JSON.stringify(view)).not.toContain("initial_users");
    expect((await stack.submitView({ view, values: FORM, userId: ADMIN })).json).toBeNull();
    expect(await policyPrinted("shop2")).toContain("version 1, set by U0ADMIN");
    // Main's policy is its own: still the version the previous save made.
    expect(await policyPrinted()).toContain("version 3, set by U0ADMIN");
  });

  it("answers a request it cannot read with how to write one, and pays nothing", async () => {
    const { reply } = await stack.ask("1000 CARD 4111", { command: "/payout", userId: ADMIN });
    expect(JSON.stringify(reply.body)).toContain("/payout AMOUNT METHOD WALLET REASON");
    expect(stack.fake.payoffs.submits).toHaveLength(0);
    expect(stack.fake.payoffs.all.size).toBe(0);
  });
});

describe("/payout setup on a v3 register", () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await Stack.start({ apiVersion: "v3", storeMemoMs: 0 });
    stack.slack.users[ADMIN] = { is_admin: true };
    await stack.cli(
      [
        "credentials",
        "set",
        "--team",
        TEAM,
        "--login",
        SANDBOX_LOGIN,
        "--secret",
        SANDBOX_SECRET,
        "--salt",
        "-",
      ],
      SANDBOX_SALT,
    );
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it("offers the register's payout methods by name, and saves the ones chosen", async () => {
    const ack = await stack.command("setup", { command: "/payout", userId: ADMIN, channelId: "C0ASKED" });
    expect(ack.status).toBe(200);
    await expect.poll(() => stack.slack.callsOf("views.open").length).toBe(1);
    const view = viewOf(stack.slack.callsOf("views.open")[0]?.body ?? {});
    const methods = view.blocks.find((block) => block.block_id === "payout_methods");
    expect(methods).toMatchObject({ element: { type: "multi_static_select" } });
    const codes = JSON.stringify(methods).match(/"value":"([A-Z0-9_]+)"/g) ?? [];
    expect(codes.length).toBeGreaterThan(0);
    const code = /"value":"([A-Z0-9_]+)"/.exec(codes[0] ?? "")?.[1] ?? "";
    const saved = await stack.submitView({
      view,
      values: { ...FORM, payout_methods: { ticked: [code] } },
      userId: ADMIN,
    });
    expect(saved.json).toBeNull();
    const printed = (await stack.cli(["payouts", "policy", "--team", TEAM])).stdout;
    expect(printed).toContain(`methods: ${code}`);
  });
});
