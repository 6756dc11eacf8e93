/**
 * The request form's trusted recipient picker through the real app (issue 52, item 1): no picker
 * while the register has no trusted recipient; once one is confirmed by two approvers, `/payout`'s
 * form lists it and the method and wallet may stay empty; nothing to pay, or a wallet that is not the
 * recipient's, refused next to its field; a picked recipient paid with its method and wallet, the
 * request recording it and its card under the one-approver rule; a recipient removed while the form
 * was open refused at submit. App Home shows the rules and the trusted recipients.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PostedMessage } from "../../sandbox/slack.js";
import { SANDBOX_TEAM } from "../../sandbox/slack.js";
import { Stack } from "../../sandbox/stack.js";
import { type AuditEntry, openAuditTrail } from "../../src/audit/index.js";
import { openStore } from "../../src/store/keyv.js";
import { connectWithSecret2 } from "../support/secret2.js";
import { type OpenedView, viewOf } from "../support/views.js";

const TEAM = SANDBOX_TEAM.id;
const [ADMIN, REQUESTER, ANNA, BORIS] = ["U0ADMIN", "U0REQ", "U0ANNA", "U0BORIS"];
const APPROVAL = "C0PAYOUTS";
const WALLET = "2200700012345678";
const METHOD = "CARDRUBP2P";

describe("the request form's trusted recipient picker", () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await Stack.start({ storeMemoMs: 0, env: { PAYOUT_RUN_MS: "100" } });
    stack.slack.users[ADMIN] = { is_admin: true };
    for (const user of [REQUESTER, ANNA, BORIS]) stack.slack.users[user] = {};
    await connectWithSecret2(stack);
    const policy = await stack.cli(
      ["payouts", "policy", "--team", TEAM, "--approvers", [ANNA, BORIS].join(","), "--channel", APPROVAL]
        .concat(["--two-from", "1000", "--trusted-one-below", "9000", "--person-day", "100000"])
        .concat(["--register-day", "500000", "--expire", "1h", "--requesters", REQUESTER]),
    );
    expect(policy.code, policy.stderr).toBe(0);
    const balance = stack.fake.balances.find((one) => one.code === METHOD);
    if (balance) balance.amount = "1000000";
  });
  afterAll(async () => {
    await stack?.stop();
  });

  const cardsIn = (channel: string) =>
    [...stack.slack.messages.values()].filter((message) => message.channel === channel && !message.threadTs);
  const text = (message: PostedMessage | undefined) =>
    JSON.stringify(message?.blocks ?? []) + (message?.text ?? "");
  const lastView = () => viewOf(stack.slack.callsOf("views.open").at(-1)?.body ?? {});
  const block = (view: OpenedView, id: string) => view.blocks.find((one) => one.block_id === id);

  async function command(line: string, userId: string): Promise<OpenedView> {
    const before = stack.slack.callsOf("views.open").length;
    const ack = await stack.command(line, { command: "/payout", userId, channelId: "C0ASKED" });
    expect(ack.status).toBe(200);
    await expect.poll(() => stack.slack.callsOf("views.open").length).toBe(before + 1);
    return lastView();
  }

  /** A recipient added and confirmed by both approvers (their last four typed): its id. */
  async function trustedRecipient(label: string, wallet: string): Promise<string> {
    const form = await command("recipient add", REQUESTER);
    const values = {
      recipient_label: { value: label },
      recipient_method: { value: METHOD },
      recipient_wallet: { value: wallet },
    };
    expect((await stack.submitView({ view: form, values, userId: REQUESTER })).json).toBeNull();
    const card = () => cardsIn(APPROVAL).find((one) => text(one).includes(label));
    await stack.slack.waitForMessages(() => card() !== undefined);
    const value = JSON.stringify(card()?.blocks).match(/"value":"([a-z2-7]{10}:main)"/)?.[1] ?? "";
    for (const approver of [ANNA, BORIS]) {
      const before = stack.slack.callsOf("views.open").length;
      await stack.action("kassa_recipient_confirm", value, { userId: approver, channelId: APPROVAL });
      await expect.poll(() => stack.slack.callsOf("views.open").length).toBe(before + 1);
      const confirmed = await stack.submitView({
        view: lastView(),
        values: { recipient_last_four: { value: wallet.slice(-4) } },
        userId: approver,
      });
      expect(confirmed.json).toBeNull();
    }
    await expect.poll(() => text(card())).toContain("Trusted: confirmed by");
    return value.slice(0, 10);
  }

  const request = (view: OpenedView, values: Record<string, { value?: string; selected?: string | null }>) =>
    stack.submitView({
      view,
      values: {
        payout_amount: { value: "5000" },
        payout_fee_from: { selected: "balance" },
        payout_reason: { value: "October rent" },
        payout_method: { selected: null },
        payout_wallet: { value: "" },
        ...values,
      },
      userId: REQUESTER,
      viewId: `V0PICK${Math.random().toString(36).slice(2, 8)}`,
    });

  let acme = "";

  it("shows no picker while no recipient is trusted: the method and the wallet stay required", async () => {
    const form = await command("", REQUESTER);
    expect(form.callback_id).toBe("kassa_payout_request");
    expect(block(form, "payout_recipient")).toBeUndefined();
    expect(block(form, "payout_wallet")?.optional).toBeUndefined();
  });

  it("lists a trusted recipient once two approvers confirmed it; the method and the wallet become optional", async () => {
    acme = await trustedRecipient("Acme Ltd", WALLET);
    const form = await command("", REQUESTER);
    const picker = JSON.stringify(block(form, "payout_recipient"));
    expect(picker).toContain("Trusted recipient");
    expect(picker).toContain(`Acme Ltd · ${METHOD} · 220…5678`);
    expect(picker).toContain(`"value":"${acme}"`);
    expect(block(form, "payout_recipient")?.optional).toBe(true);
    expect(block(form, "payout_method")?.optional).toBe(true);
    expect(block(form, "payout_wallet")?.optional).toBe(true);
  });

  it("refuses a form with nothing to pay, or a wallet that is not the picked recipient's, next to the field", async () => {
    const form = lastView();
    const quotes = stack.fake.payoffs.all.size;
    const nothing = await request(form, {});
    expect(nothing.json).toEqual({
      response_action: "errors",
      errors: { payout_method: "Pick a trusted recipient, or give both the payout method and the wallet." },
    });
    const other = await request(form, {
      payout_recipient: { selected: acme },
      payout_wallet: { value: "2200700099990000" },
    });
    expect(JSON.stringify(other.json)).toContain("payout_wallet");
    expect(JSON.stringify(other.json)).toContain(`Acme Ltd is paid by ${METHOD} to 220…5678`);
    expect(stack.fake.payoffs.all.size).toBe(quotes);
  });

  it("pays the picked recipient its method and wallet, recorded on the request, under the one-approver rule", async () => {
    const before = cardsIn(APPROVAL).length;
    const sent = await request(lastView(), {
      payout_recipient: { selected: acme },
      // Its own method typed too agrees with it.
      payout_method: { selected: METHOD, value: METHOD },
    });
    expect(sent.json).toBeNull();
    await stack.slack.waitForMessages(() => cardsIn(APPROVAL).length > before);
    expect([...stack.fake.payoffs.all.values()].at(-1)).toMatchObject({ method: METHOD, wallet: WALLET });
    const card = cardsIn(APPROVAL).at(-1);
    expect(text(card)).toContain("One approver: trusted recipient under 9,000.00 RUB");
    const requested = (await entries()).filter(
      (entry) => entry.action === "payout.requested" && entry.outcome === "done",
    );
    expect((requested.at(-1)?.after as { recipient?: string } | undefined)?.recipient).toBe(acme);
  });

  it("App Home shows the payouts' rules and the trusted recipients, the wallet shortened", async () => {
    await stack.event({ type: "app_home_opened", user: REQUESTER, channel: "D0HOMEREQ", tab: "home" });
    const home = () =>
      JSON.stringify(
        viewOf(
          stack.slack
            .callsOf("views.publish")
            .filter((call) => call.body.user_id === REQUESTER)
            .at(-1)?.body ?? {},
        ),
      );
    await expect.poll(home).toContain("Trusted recipients");
    const shown = home();
    for (const part of [
      "*Payouts*",
      `*Approval channel*: <#${APPROVAL}>`,
      "*Two approvers from*: 1,000.00 RUB",
      "9,000.00 RUB",
      "*Trusted recipients* (1)",
      `*Acme Ltd*: \`${METHOD}\` \`220…5678\``,
      "not paid yet",
    ])
      expect(shown).toContain(part);
    expect(JSON.parse(home()).blocks.length).toBeLessThanOrEqual(100);
  });

  it("refuses a recipient removed while the form was open, saying so next to the picker", async () => {
    const form = await command("", REQUESTER);
    const { reply } = await stack.ask("recipient remove Acme Ltd", {
      command: "/payout",
      userId: ADMIN,
      channelId: "C0ASKED",
    });
    expect(JSON.stringify(reply.body)).toContain("kassa_recipient_remove");
    const ack = await stack.action("kassa_recipient_remove", `${acme}:main`, {
      userId: ADMIN,
      ephemeral: true,
    });
    expect(JSON.stringify((await stack.slack.waitForReply(ack.responseId)).body)).toContain("removed");
    const quotes = stack.fake.payoffs.all.size;
    const late = await request(form, { payout_recipient: { selected: acme } });
    expect(JSON.stringify(late.json)).toContain("payout_recipient");
    expect(JSON.stringify(late.json)).toContain("Acme Ltd is no longer a trusted recipient");
    expect(stack.fake.payoffs.all.size).toBe(quotes);
    // Removed, it is listed no more: the next form has no picker.
    expect(block(await command("", REQUESTER), "payout_recipient")).toBeUndefined();
  });

  async function entries(): Promise<AuditEntry[]> {
    const store = await openStore(stack.env.STORE_URL ?? "");
    try {
      const trail = await openAuditTrail(store, { retentionDays: 1825 });
      const page = await trail.list(TEAM, { limit: 500 });
      return page.entries.flatMap((listed) => (listed.entry ? [listed.entry] : [])).reverse();
    } finally {
      await store.close();
    }
  }
});
