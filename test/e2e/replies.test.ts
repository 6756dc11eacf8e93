import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SANDBOX_LOGIN } from "../../sandbox/fake-payments.js";
import { Stack } from "../../sandbox/stack.js";
import { expectWithinBlockKitLimits } from "../support/block-kit-limits.js";

// Each reply a finance person meets, in the exact situation, through the real app.

type Block = { type: string; elements?: Array<{ action_id?: string; value?: string; text?: unknown }> };
type Message = { response_type?: string; text?: string; replace_original?: boolean; blocks?: Block[] };
const message = (body: Record<string, unknown>) => body as Message;
const allText = (body: Record<string, unknown>) => JSON.stringify(body);
const buttonsOf = (body: Record<string, unknown>) =>
  (message(body).blocks ?? []).flatMap((block) => (block.type === "actions" ? (block.elements ?? []) : []));
const contextOf = (body: Record<string, unknown>) =>
  JSON.stringify((message(body).blocks ?? []).filter((block) => block.type === "context"));

const ADMIN = "U0ADMIN";
const MEMBER = "U0MEMBER";
const UNPAID = "715308958_rPwTzvsvCm";

describe("replies a finance person can act on (channel replies)", () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await Stack.start({ storeMemoMs: 0 });
    stack.slack.users[ADMIN] = { is_admin: true };
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it("not connected: tells a member an admin connects it with /invoice connect, no CLI, no button", async () => {
    const { reply } = await stack.ask(UNPAID, { teamId: "T0NOTYET", userId: MEMBER });
    const body = message(reply.body);
    expect(body.response_type).toBe("ephemeral");
    expect(body.text).toBe(
      "Kassa is not connected to this workspace's cash register yet. A workspace admin connects it with /invoice connect.",
    );
    expect(allText(reply.body)).not.toMatch(/npm|credentials set|--team|--secret/);
    expect(buttonsOf(reply.body)).toEqual([]);
    // The command line is for operators: in the log line, never in Slack.
    await expect
      .poll(() =>
        stack.logEntries().find((entry) => entry.team === "T0NOTYET" && entry.outcome === "not_connected"),
      )
      .toMatchObject({
        hint: "an admin connects it with /invoice connect; or: npm run cli -- credentials set --team T0NOTYET --login <login> --secret -",
      });
  });

  it("not connected: gives an admin a Connect button that opens the modal", async () => {
    const { reply } = await stack.ask("", { command: "/paymethods", teamId: "T0NOTYET", userId: ADMIN });
    expectWithinBlockKitLimits(reply.body);
    expect(allText(reply.body)).toContain("You can connect it now, or with `/invoice connect`.");
    const [button] = buttonsOf(reply.body);
    expect(button?.action_id).toBe("kassa_open_connect");
    const before = stack.slack.callsOf("views.open").length;
    const ack = await stack.action("kassa_open_connect", button?.value ?? "", {
      userId: ADMIN,
      teamId: "T0NOTYET",
    });
    expect(ack.status).toBe(200);
    await expect.poll(() => stack.slack.callsOf("views.open").length).toBe(before + 1);
  });

  it("a member pressing a Connect button someone else got is told why, on that message", async () => {
    const { reply } = await stack.press("kassa_open_connect", "reply", {
      userId: MEMBER,
      teamId: "T0NOTYET",
    });
    expect(message(reply.body).replace_original).toBe(false);
    expect(message(reply.body).text).toContain(
      "Only workspace admins and owners can connect the cash register",
    );
  });

  it("wrong credentials: quotes the service, says the login or secret was refused, who can reconnect", async () => {
    const team = "T0BADSECRET";
    await stack.cli(
      ["credentials", "set", "--team", team, "--login", SANDBOX_LOGIN, "--secret", "-"],
      "wrong",
    );
    const { reply } = await stack.ask(UNPAID, { teamId: team, userId: MEMBER });
    const text = allText(reply.body);
    expect(text).toContain(
      "The payment service answered “Invalid auth credentials”: it refused this workspace's cash register login or secret",
    );
    expect(text).toContain("A workspace admin can reconnect it with `/invoice connect`.");
    expect(buttonsOf(reply.body)).toEqual([]);
    const admin = await stack.ask(UNPAID, { teamId: team, userId: ADMIN });
    expect(buttonsOf(admin.reply.body).map((button) => button.action_id)).toEqual(["kassa_open_connect"]);
    await expect
      .poll(() =>
        stack.logEntries().some((entry) => entry.outcome === "credentials_refused" && entry.team === team),
      )
      .toBe(true);
  });

  it("invoice not found: quotes the id and suggests checking it or pasting the payment link", async () => {
    const { reply } = await stack.ask("000000000_NoSuchOne");
    const body = message(reply.body);
    expect(body.response_type).toBe("ephemeral");
    expect(allText(reply.body)).toContain(
      "The payment service has no invoice `000000000_NoSuchOne` for this workspace's cash register.",
    );
    expect(allText(reply.body)).toContain("paste the invoice's payment link instead");
    expect(contextOf(reply.body)).toContain("Invoice not found");
  });

  it("accepts a pasted payment link, as Slack wraps it or bare", async () => {
    for (const text of [
      `https://pay.crystalpay.io/?i=${UNPAID}`,
      `<https://pay.crystalpay.io/?i=${UNPAID}>`,
    ]) {
      const { reply } = await stack.ask(text);
      expect(message(reply.body).response_type).toBe("in_channel");
      expect(message(reply.body).text).toContain(`Invoice ${UNPAID}: Not paid`);
    }
  });

  it("service trouble: plain words first; HTTP status and reference in the context line and the log", async () => {
    stack.fake.invoiceFault = "html502";
    try {
      const { reply } = await stack.ask(UNPAID);
      expect(message(reply.body).text).toBe(
        "The payment service is not answering right now. Try again in a minute.",
      );
      const details = contextOf(reply.body);
      expect(details).toContain("HTTP 502");
      const reference = /reference `([0-9a-f]{8})`/.exec(details)?.[1];
      expect(reference).toBeDefined();
      expect(allText(reply.body)).not.toContain("Nothing was changed");
      await expect
        .poll(() => stack.logEntries().find((entry) => entry.reference === reference)?.outcome)
        .toBe("upstream_unreachable");
    } finally {
      stack.fake.invoiceFault = null;
    }
  });

  it("an unknown state: shown as such with a hint, logged once per state", async () => {
    const warned = () =>
      stack.logEntries().filter((entry) => entry.msg === "payment service reported an unknown invoice state");
    const first = await stack.ask("715308965_FutureState");
    expect(allText(first.reply.body)).toContain("Unknown state `refunded`");
    expect(allText(first.reply.body)).toContain(
      "The payment service reported a state Kassa does not know yet.",
    );
    await stack.ask("715308965_FutureState");
    await expect
      .poll(() => stack.logEntries().filter((entry) => entry.invoice === "715308965_FutureState").length)
      .toBe(2);
    expect(warned().map((entry) => entry.state)).toEqual(["refunded"]);
  });

  it("help says cards and lists are posted in the channel, and claims nothing more", async () => {
    for (const command of ["/invoice", "/paymethods"]) {
      const { reply } = await stack.ask("help", { command });
      expect(allText(reply.body)).toContain("are posted in the channel for everyone.");
      expect(allText(reply.body)).not.toMatch(/live|automatically/i);
    }
  });
});

describe("replies a finance person can act on (private replies)", () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await Stack.start({ env: { REPLY_VISIBILITY: "private" } });
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it("/paymethods shows the list to the asker only, with Share in channel", async () => {
    const { reply } = await stack.ask("", { command: "/paymethods" });
    expect(message(reply.body).response_type).toBe("ephemeral");
    expect(contextOf(reply.body)).toContain("Only you can see this list.");
    const share = buttonsOf(reply.body).find((button) => button.action_id === "paymethods_share");
    expect(share).toBeDefined();

    const ack = await stack.action("paymethods_share", share?.value ?? "", { ephemeral: true });
    const shared = await stack.slack.waitForReply(ack.responseId, { count: 1 });
    const removed = await stack.slack.waitForReply(ack.responseId, { count: 2 });
    expect(message(shared.body).response_type).toBe("in_channel");
    expect(buttonsOf(shared.body).some((button) => button.action_id === "paymethods_share")).toBe(false);
    expect(removed.body).toEqual({ delete_original: true });
  });

  it("a page button on a private list keeps it private", async () => {
    const { reply } = await stack.press("paymethods_refresh", JSON.stringify({ f: "all", p: 1 }), {
      ephemeral: true,
    });
    expect(message(reply.body).response_type).toBe("ephemeral");
    expect(message(reply.body).replace_original).toBe(true);
  });

  it("help says cards and lists are shown privately with a Share button", async () => {
    for (const command of ["/invoice", "/paymethods"]) {
      const { reply } = await stack.ask("help", { command });
      expect(allText(reply.body)).toContain(
        "are shown only to whoever asks, with a *Share in channel* button",
      );
    }
  });
});
