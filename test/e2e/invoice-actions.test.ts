import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { Stack } from "../../sandbox/stack.js";
import { expectWithinBlockKitLimits } from "../support/block-kit-limits.js";

type Button = { action_id: string; value?: string; url?: string };
type Message = {
  response_type?: string;
  text?: string;
  replace_original?: boolean;
  delete_original?: boolean;
  blocks?: Array<{ type: string; elements?: unknown[]; text?: { text: string } }>;
};
const message = (body: Record<string, unknown>) => body as Message;
const buttons = (body: Record<string, unknown>) =>
  (message(body).blocks ?? [])
    .filter((block) => block.type === "actions")
    .flatMap((block) => block.elements as Button[]);
const buttonValueOf = (body: Record<string, unknown>, actionId: string) => {
  const value = buttons(body).find((button) => button.action_id === actionId)?.value;
  if (!value) throw new Error(`no ${actionId} button`);
  return value;
};
const contextText = (body: Record<string, unknown>) =>
  (message(body).blocks ?? [])
    .filter((block) => block.type === "context")
    .map((block) => JSON.stringify(block.elements))
    .join(" ");
const invoiceRequests = (stack: Stack) =>
  stack.fake.requests.filter((request) => request.path.endsWith("/invoice/info/")).length;

const UNPAID = "715308958_rPwTzvsvCm";

describe("invoice card buttons, channel replies", () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await Stack.start();
  });
  afterAll(async () => {
    await stack?.stop();
  });
  afterEach(() => {
    stack.fake.invoiceFault = null;
    const invoice = stack.fake.invoices.get(UNPAID);
    if (invoice) invoice.state = "notpayed";
  });

  it("posts the card in the channel with Refresh and no Share; the button carries no amounts", async () => {
    const { reply } = await stack.ask(UNPAID);
    expect(message(reply.body).response_type).toBe("in_channel");
    expect(reply.body.via).toBe("chat.postMessage");
    const ids = buttons(reply.body).map((button) => button.action_id);
    // Not paid yet: the card is live, so it has Stop updating too.
    expect(ids).toEqual(["open_payment_page", "invoice_refresh", "invoice_stop_watch"]);
    expect(contextText(reply.body)).toContain("Live: Kassa is watching this invoice");
    expect(JSON.parse(buttonValueOf(reply.body, "invoice_refresh"))).toEqual({
      t: "T0SANDBOX",
      id: UNPAID,
      s: "notpayed",
    });
    expectWithinBlockKitLimits(reply.body);
  });

  it("Refresh with the state unchanged replaces the card in place and says when it was updated", async () => {
    const { reply: card } = await stack.ask(UNPAID);
    const before = invoiceRequests(stack);
    const { reply } = await stack.press("invoice_refresh", buttonValueOf(card.body, "invoice_refresh"));
    expect(invoiceRequests(stack) - before).toBe(1);
    const body = message(reply.body);
    expect(body.replace_original).toBe(true);
    expect(body.response_type).toBe("in_channel");
    expect(contextText(reply.body)).toMatch(/Updated <!date\^\d+\^\{date_short_pretty\} \{time\}\|/);
    expect(JSON.stringify(reply.body)).not.toContain("was:");
    expectWithinBlockKitLimits(reply.body);
  });

  it("Refresh after the invoice was paid says what it was", async () => {
    const { reply: card } = await stack.ask(UNPAID);
    const invoice = stack.fake.invoices.get(UNPAID);
    if (invoice) invoice.state = "payed";
    const { reply } = await stack.press("invoice_refresh", buttonValueOf(card.body, "invoice_refresh"));
    expect(message(reply.body).text).toContain("Paid");
    expect(JSON.stringify(reply.body)).toContain(":white_check_mark: Paid _(was: Not paid)_");
    // A second refresh still compares with the state first posted.
    const again = await stack.press("invoice_refresh", buttonValueOf(reply.body, "invoice_refresh"));
    expect(JSON.stringify(again.reply.body)).toContain("(was: Not paid)");
  });

  it("Refresh while the service fails answers only the presser and leaves the card", async () => {
    const { reply: card } = await stack.ask(UNPAID);
    stack.fake.invoiceFault = "html502";
    const { reply } = await stack.press("invoice_refresh", buttonValueOf(card.body, "invoice_refresh"));
    const body = message(reply.body);
    expect(body.response_type).toBe("ephemeral");
    expect(body.replace_original).toBe(false);
    expect(body.text).toBe("The payment service is not answering right now. Try again in a minute.");
    expect(JSON.stringify(reply.body)).toContain("HTTP 502");
  });

  it("refuses a button pressed from another workspace, without calling the service", async () => {
    const { reply: card } = await stack.ask(UNPAID);
    const before = invoiceRequests(stack);
    const { reply } = await stack.press("invoice_refresh", buttonValueOf(card.body, "invoice_refresh"), {
      teamId: "T0OTHERORG",
    });
    expect(message(reply.body).response_type).toBe("ephemeral");
    expect(message(reply.body).replace_original).toBe(false);
    expect(message(reply.body).text).toContain("belongs to another workspace");
    expect(invoiceRequests(stack)).toBe(before);
  });

  it.each([
    ["not JSON", "{"],
    ["an id that is not an invoice id", JSON.stringify({ t: "T0SANDBOX", id: "../../etc", s: "notpayed" })],
    ["no workspace", JSON.stringify({ id: UNPAID, s: "notpayed" })],
  ])(
    "answers a forged value (%s) as out of date, a warn line, without calling the service",
    async (_what, value) => {
      const before = invoiceRequests(stack);
      const lines = stack.logs.length;
      const { reply } = await stack.press("invoice_refresh", value);
      expect(message(reply.body).response_type).toBe("ephemeral");
      expect(message(reply.body).replace_original).toBe(false);
      expect(message(reply.body).text).toBe("This button is out of date; nothing was done.");
      expect(invoiceRequests(stack)).toBe(before);
      // The line is written once the reply is sent.
      const written = () => stack.logEntries().slice(lines);
      await expect
        .poll(() => written().find((entry) => entry.outcome === "stale_button"))
        .toMatchObject({ level: "warn", action: "invoice_refresh" });
      expect(written().filter((entry) => entry.level === "error")).toEqual([]);
    },
  );
});

describe("invoice card buttons, private replies (REPLY_VISIBILITY=private)", () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await Stack.start({ env: { REPLY_VISIBILITY: "private" } });
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it("answers privately with Refresh and Share", async () => {
    const { reply } = await stack.ask(UNPAID);
    expect(message(reply.body).response_type).toBe("ephemeral");
    expect(buttons(reply.body).map((button) => button.action_id)).toEqual([
      "open_payment_page",
      "invoice_refresh",
      "invoice_share",
      "invoice_stop_watch",
    ]);
    expect(contextText(reply.body)).toContain("Only you can see this card.");
    expect(contextText(reply.body)).toContain("will send you a direct message when its state changes");
    expectWithinBlockKitLimits(reply.body);
  });

  it("Refresh keeps a private card private", async () => {
    const { reply: card } = await stack.ask(UNPAID);
    const { reply } = await stack.press("invoice_refresh", buttonValueOf(card.body, "invoice_refresh"), {
      ephemeral: true,
    });
    expect(message(reply.body).response_type).toBe("ephemeral");
    expect(message(reply.body).replace_original).toBe(true);
    expect(buttons(reply.body).map((button) => button.action_id)).toContain("invoice_share");
  });

  it("Share posts the card in the channel, shared by the presser, and removes the private copy", async () => {
    const { reply: card } = await stack.ask(UNPAID);
    const ack = await stack.action("invoice_share", buttonValueOf(card.body, "invoice_share"), {
      ephemeral: true,
      userId: "U0SHARER",
    });
    expect(ack.status).toBe(200);
    const shared = await stack.slack.waitForReply(ack.responseId, { count: 1 });
    const removed = await stack.slack.waitForReply(ack.responseId, { count: 2 });
    const body = message(shared.body);
    expect(body.response_type).toBe("in_channel");
    expect(body.replace_original).toBe(false);
    expect(contextText(shared.body)).toContain("Shared by <@U0SHARER>.");
    expect(contextText(shared.body)).not.toContain("Only you can see");
    expect(buttons(shared.body).map((button) => button.action_id)).toEqual([
      "open_payment_page",
      "invoice_refresh",
    ]);
    expect(JSON.parse(buttonValueOf(shared.body, "invoice_refresh"))).toMatchObject({ by: "U0SHARER" });
    expectWithinBlockKitLimits(shared.body);
    expect(removed.body).toEqual({ delete_original: true });

    // Refreshing the shared card keeps who shared it.
    const refreshed = await stack.press("invoice_refresh", buttonValueOf(shared.body, "invoice_refresh"));
    expect(contextText(refreshed.reply.body)).toContain("Shared by <@U0SHARER>.");
    expect(message(refreshed.reply.body).response_type).toBe("in_channel");
  });
});
