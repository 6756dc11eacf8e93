/**
 * Trusted payout recipients through the real app against the sandbox service (issue 52, item 1): a
 * recipient added by a requester, its card in the approval channel, confirmed by two approvers who
 * each type the wallet's last four (a wrong four refused and counted nothing, the adder and a second
 * confirmation by the same approver refused), listed, then paid by `/payout to LABEL …` with its
 * method and wallet, the request recording the recipient; removed by an admin.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PostedMessage } from "../../sandbox/slack.js";
import { SANDBOX_TEAM } from "../../sandbox/slack.js";
import { Stack } from "../../sandbox/stack.js";
import { type AuditEntry, openAuditTrail } from "../../src/audit/index.js";
import { openStore } from "../../src/store/keyv.js";
import { expectWithinBlockKitLimits } from "../support/block-kit-limits.js";
import { connectWithSecret2 } from "../support/secret2.js";
import { type OpenedView, viewOf } from "../support/views.js";

const TEAM = SANDBOX_TEAM.id;
const [ADMIN, REQUESTER, ANNA, BORIS, CARL] = ["U0ADMIN", "U0REQ", "U0ANNA", "U0BORIS", "U0CARL"];
const APPROVAL = "C0PAYOUTS";
const WALLET = "2200700012345678";
const METHOD = "CARDRUBP2P";

describe("trusted payout recipients in Slack", () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await Stack.start({ storeMemoMs: 0, env: { PAYOUT_RUN_MS: "100" } });
    stack.slack.users[ADMIN] = { is_admin: true };
    for (const user of [REQUESTER, ANNA, BORIS, CARL]) stack.slack.users[user] = {};
    await connectWithSecret2(stack);
    const policy = await stack.cli([
      "payouts",
      "policy",
      "--team",
      TEAM,
      "--approvers",
      [ANNA, BORIS, CARL].join(","),
      "--channel",
      APPROVAL,
      "--two-from",
      "1000",
      "--person-day",
      "100000",
      "--register-day",
      "500000",
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
  const text = (message: PostedMessage | undefined) =>
    JSON.stringify(message?.blocks ?? []) + (message?.text ?? "");
  const recipientCard = () =>
    cardsIn(APPROVAL).find(
      (card) => text(card).includes("kassa_recipient_confirm") || text(card).includes("Acme Ltd"),
    );
  const ask = (line: string, userId = REQUESTER) =>
    stack.ask(line, { command: "/payout", userId, channelId: "C0ASKED" });
  const lastView = () => viewOf(stack.slack.callsOf("views.open").at(-1)?.body ?? {});
  /** `/payout recipient add`: the form Slack was asked to open. */
  async function openAdd(userId = REQUESTER): Promise<OpenedView> {
    const before = stack.slack.callsOf("views.open").length;
    const ack = await stack.command("recipient add", { command: "/payout", userId, channelId: "C0ASKED" });
    expect(ack.status).toBe(200);
    await expect.poll(() => stack.slack.callsOf("views.open").length).toBe(before + 1);
    return lastView();
  }

  /** Presses a recipient's button as `userId`: the modal opened, or the refusal said. */
  async function press(actionId: string, value: string, userId: string) {
    const before = stack.slack.callsOf("views.open").length;
    const ack = await stack.action(actionId, value, { userId, channelId: APPROVAL });
    expect(ack.status).toBe(200);
    const opened = await Promise.race([
      expect
        .poll(() => stack.slack.callsOf("views.open").length, { timeout: 3000 })
        .toBe(before + 1)
        .then(() => true),
      stack.slack.waitForReply(ack.responseId, { timeoutMs: 3000 }).then(() => false),
    ]);
    if (opened) return { view: lastView(), said: "" };
    return { view: undefined, said: JSON.stringify((await stack.slack.waitForReply(ack.responseId)).body) };
  }

  const confirmValue = () => {
    const found = JSON.stringify(recipientCard()?.blocks ?? []).match(/"value":"([a-z2-7]{10}:main)"/);
    return found?.[1] ?? "";
  };

  async function confirm(userId: string, lastFour: string) {
    const { view, said } = await press("kassa_recipient_confirm", confirmValue(), userId);
    if (!view) return { json: null, said };
    const result = await stack.submitView({
      view,
      values: { recipient_last_four: { value: lastFour } },
      userId,
    });
    return { json: result.json, said };
  }

  let recipientId = "";

  it("adds a recipient from the form: pending, its card in the approval channel with Confirm", async () => {
    const form = await openAdd();
    expect(form.callback_id).toBe("kassa_recipient_add");
    const values = {
      recipient_label: { value: "Acme Ltd" },
      recipient_method: { value: METHOD },
      recipient_wallet: { value: WALLET },
      recipient_note: { value: "Rent, monthly" },
    };
    const added = await stack.submitView({ view: form, values, userId: REQUESTER });
    expect(added.json).toBeNull();
    await stack.slack.waitForMessages(() => recipientCard() !== undefined);
    const card = recipientCard() as PostedMessage;
    expectWithinBlockKitLimits({ text: card.text, blocks: card.blocks });
    for (const shown of ["Acme Ltd", `\`${WALLET}\``, "Confirmations: 0 of 2", "kassa_recipient_confirm"])
      expect(text(card)).toContain(shown);
    recipientId = confirmValue().slice(0, 10);
    expect(recipientId).toMatch(/^[a-z2-7]{10}$/);
    // The same label again (case aside) is refused next to its field.
    const twice = await stack.submitView({
      view: await openAdd(),
      values: { ...values, recipient_label: { value: "ACME LTD" }, recipient_wallet: { value: "1111" } },
      userId: REQUESTER,
    });
    expect(JSON.stringify(twice.json)).toContain("recipient_label");
  });

  it("two approvers confirm it with the wallet's last four: the adder and a wrong four refused, nothing counted", async () => {
    expect((await press("kassa_recipient_confirm", confirmValue(), REQUESTER)).said).toContain(
      "You added this recipient",
    );
    const wrong = await confirm(ANNA, "0000");
    expect(JSON.stringify(wrong.json)).toContain("recipient_last_four");
    expect(JSON.stringify(wrong.json)).toContain("nothing was counted");
    expect(text(recipientCard())).toContain("Confirmations: 0 of 2");
    expect((await confirm(ANNA, WALLET.slice(-4))).json).toBeNull();
    await expect.poll(() => text(recipientCard())).toContain("Confirmations: 1 of 2");
    expect((await press("kassa_recipient_confirm", confirmValue(), ANNA)).said).toContain(
      "confirmed this recipient already",
    );
    // A payout to it before it is trusted pays no recipient: `/payout to` does not know it yet.
    expect(JSON.stringify((await ask("to Acme Ltd 500 Rent")).reply.body)).toContain("No trusted recipient");
    expect((await confirm(BORIS, ` ${WALLET.slice(-4)} `)).json).toBeNull();
    await expect.poll(() => text(recipientCard())).toContain("Trusted: confirmed by");
    expect(text(recipientCard())).not.toContain("kassa_recipient_confirm");
  });

  it("lists it with the wallet shortened, who added and who confirmed it", async () => {
    const { reply } = await ask("recipients", CARL);
    const listed = JSON.stringify(reply.body);
    for (const shown of [
      "Acme Ltd",
      "220…5678",
      `<@${REQUESTER}>`,
      `<@${ANNA}>`,
      `<@${BORIS}>`,
      "not paid yet",
    ])
      expect(listed).toContain(shown);
  });

  it("`/payout to LABEL AMOUNT REASON` requests with its method and wallet, recording the recipient", async () => {
    const before = cardsIn(APPROVAL).length;
    const { reply } = await ask("to acme ltd 1500 October rent");
    expect(JSON.stringify(reply.body)).toContain("Requested");
    await stack.slack.waitForMessages(() => cardsIn(APPROVAL).length > before);
    const quotes = [...stack.fake.payoffs.all.values()];
    expect(quotes.at(-1)).toMatchObject({ method: METHOD, wallet: WALLET });
    // A wallet typed that is the recipient's counts as it; another wallet pays no recipient.
    await ask(`700 ${METHOD} ${WALLET} Deposit`);
    await ask(`800 ${METHOD} 2200700099990000 Someone new`);
    const requested = (await entries()).filter(
      (entry) => entry.action === "payout.requested" && entry.outcome === "done",
    );
    expect(requested.map((entry) => (entry.after as { recipient?: string }).recipient)).toEqual([
      recipientId,
      recipientId,
      undefined,
    ]);
  });

  it("an admin removes it (Remove after a question); the steps are in the audit trail", async () => {
    expect(JSON.stringify((await ask("recipient remove Acme Ltd")).reply.body)).toContain(
      "Only a workspace admin",
    );
    const { reply } = await ask("recipient remove acme ltd", ADMIN);
    expect(JSON.stringify(reply.body)).toContain("kassa_recipient_remove");
    const ack = await stack.action("kassa_recipient_remove", `${recipientId}:main`, {
      userId: ADMIN,
      ephemeral: true,
    });
    expect(JSON.stringify((await stack.slack.waitForReply(ack.responseId)).body)).toContain("removed");
    await expect.poll(() => text(recipientCard())).toContain("Removed by");
    expect(JSON.stringify((await ask("to Acme Ltd 500 Rent")).reply.body)).toContain("No trusted recipient");
    const acts = (await entries())
      .filter((entry) => entry.action.startsWith("recipient."))
      .map((entry) => [entry.action, entry.actor, entry.outcome]);
    expect(acts).toEqual(
      expect.arrayContaining([
        ["recipient.added", REQUESTER, "done"],
        ["recipient.confirmed", ANNA, "refused"],
        ["recipient.confirmed", ANNA, "done"],
        ["recipient.confirmed", BORIS, "done"],
        ["recipient.trusted", "kassa", "done"],
        ["recipient.removed", REQUESTER, "refused"],
        ["recipient.removed", ADMIN, "done"],
      ]),
    );
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
