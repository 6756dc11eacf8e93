import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SANDBOX_LOGIN, SANDBOX_SALT, SANDBOX_SECRET } from "../../sandbox/fake-payments.js";
import { freePort } from "../../sandbox/ports.js";
import { Stack } from "../../sandbox/stack.js";
import { CREATE_FIELDS } from "../../src/blocks/invoice-create.js";

// The payment service's own notifications, end to end: the sandbox service remembers each created
// invoice's callback_url and posts the signed body there when the invoice is paid. Polling is set to
// ten minutes, so a card that changes within seconds was changed by the callback.

const ADMIN = "U0ADMIN";
const TEAM = "T0SANDBOX";

type View = { blocks: unknown[]; private_metadata?: string; callback_id?: string };
const viewOf = (body: Record<string, unknown>) =>
  (typeof body.view === "string" ? JSON.parse(body.view) : body.view) as View;

describe("payment notifications (callbacks) make live cards instant", () => {
  let stack: Stack;
  let publicUrl: string;

  beforeAll(async () => {
    const port = await freePort();
    publicUrl = `http://127.0.0.1:${port}/`;
    stack = await Stack.start({
      env: {
        PORT: String(port),
        PUBLIC_URL: publicUrl,
        WATCH_INTERVAL_MS: "600000",
        FEED_INTERVAL_MS: "600000",
      },
      storeMemoMs: 0,
      refusalSummaryMs: 500,
    });
    stack.slack.users[ADMIN] = { is_admin: true };
    const cli = await stack.cli(
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
    expect(cli.stdout).toContain("The secret and Secret 2 are stored encrypted.");
  });
  afterAll(async () => {
    await stack?.stop();
  });

  const infoReads = () =>
    stack.fake.requests.filter((request) => request.path.endsWith("/invoice/info/")).length;

  async function createCard(channel: string): Promise<{ id: string; ts: string }> {
    const opened = stack.slack.callsOf("views.open").length;
    await stack.command("new 990 RUB", { userId: ADMIN, channelId: channel });
    await expect.poll(() => stack.slack.callsOf("views.open").length).toBe(opened + 1);
    const view = viewOf(stack.slack.callsOf("views.open").at(-1)?.body ?? {});
    const created = stack.fake.created.length;
    await stack.submitView({
      view: view,
      values: {
        [CREATE_FIELDS.amount]: { value: "990" },
        [CREATE_FIELDS.currency]: { selected: "RUB" },
        [CREATE_FIELDS.lifetime]: { value: "60" },
      },
      userId: ADMIN,
      // Each its own form: a repeated submission of one form creates nothing.
      viewId: `V0${channel}`,
    });
    await expect.poll(() => stack.fake.created.length).toBe(created + 1);
    const id = stack.fake.created.at(-1) ?? "";
    await expect.poll(() => [...stack.slack.messages.values()].some((m) => m.channel === channel)).toBe(true);
    const card = [...stack.slack.messages.values()].find((m) => m.channel === channel);
    return { id, ts: card?.ts ?? "" };
  }

  const cardIn = (channel: string) => [...stack.slack.messages.values()].find((m) => m.channel === channel);

  it("creates invoices with the workspace's callback address and shows it to admins in /invoice status", async () => {
    const { id } = await createCard("C0CALLBACK1");
    const address = stack.fake.invoices.get(id)?.callbackUrl ?? "";
    expect(address).toMatch(new RegExp(`^${publicUrl}crystalpay/callback/[A-Za-z0-9_-]{32}$`));
    expect(address).not.toContain(TEAM);

    const status = await stack.ask("status", { userId: ADMIN });
    const text = JSON.stringify(status.reply.body);
    expect(text).toContain("Instant notifications are on");
    expect(text).toContain(address);
    const member = JSON.stringify((await stack.ask("status", { userId: "U0MEMBER" })).reply.body);
    expect(member).toContain("Instant notifications are on");
    expect(member).not.toContain("crystalpay/callback");
  });

  it("turns a created invoice's card Paid within seconds of the callback, with one thread note", async () => {
    const { id, ts } = await createCard("C0CALLBACK2");
    stack.fake.pay(id);
    await expect.poll(() => stack.fake.callbacks.find((sent) => sent.invoiceId === id)?.status).toBe(200);
    await expect.poll(() => cardIn("C0CALLBACK2")?.updates ?? 0, { timeout: 5000 }).toBeGreaterThanOrEqual(1);
    expect(JSON.stringify(cardIn("C0CALLBACK2")?.blocks)).toContain("Paid");
    await expect.poll(() => stack.slack.threadOf("C0CALLBACK2", ts).length).toBe(1);

    // The same callback delivered again: answered, read again, nothing more told.
    const updates = cardIn("C0CALLBACK2")?.updates ?? 0;
    expect((await stack.fake.sendCallback(id)).status).toBe(200);
    await stack.pass(["liveCards", "feed"], 2);
    expect(stack.slack.threadOf("C0CALLBACK2", ts)).toHaveLength(1);
    expect(cardIn("C0CALLBACK2")?.updates).toBe(updates);
  });

  it("posts the payment in the workspace's feed within 2 seconds of the callback, once", async () => {
    const ack = await stack.command("subscribe", { userId: ADMIN, channelId: "C0CBFEED" });
    await stack.slack.waitForReply(ack.responseId, { count: 2 });
    const { id } = await createCard("C0CALLBACK6");
    const feedPosts = () =>
      [...stack.slack.messages.values()].filter((m) => m.channel === "C0CBFEED" && m.text.includes(id));
    stack.fake.pay(id);
    const paidAt = Date.now();
    await expect.poll(() => feedPosts().length, { timeout: 5000, interval: 50 }).toBe(1);
    // Polling is at 10 minutes here: only the callback can have brought it this soon.
    expect(Date.now() - paidAt).toBeLessThan(2000);
    expect(feedPosts()[0]?.text).toContain("Paid");
    expect((await stack.fake.sendCallback(id)).status).toBe(200);
    await stack.pass(["liveCards", "feed"], 2);
    expect(feedPosts()).toHaveLength(1);
  });

  it("changes nothing for a wrong signature, an unknown address, or a forged body", async () => {
    const { id, ts } = await createCard("C0CALLBACK3");
    const reads = infoReads();
    expect((await stack.fake.sendCallback(id, { signature: "0".repeat(40) })).status).toBe(403);
    expect((await stack.fake.sendCallback(id, { signature: undefined })).status).toBe(403);
    const unknown = await fetch(`${publicUrl}crystalpay/callback/${"A".repeat(32)}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ id, signature: "0".repeat(40) }),
    });
    expect(unknown.status).toBe(404);
    expect(infoReads()).toBe(reads);
    // Summed up for the operator (per workspace, once a period), never a line per refusal.
    await expect
      .poll(() =>
        stack.logEntries().some((entry) => entry.outcome === "callbacks_refused" && entry.teamId === TEAM),
      )
      .toBe(true);

    // Rightly signed (only the id is signed) but the body lies: the service still says not paid.
    const forged = await stack.fake.sendCallback(id, { state: "payed", amount: 990, rub_amount: 990 });
    expect(forged.status).toBe(200);
    await expect.poll(() => infoReads(), { timeout: 5000 }).toBeGreaterThan(reads);
    await stack.pass(["liveCards", "feed"], 2);
    expect(JSON.stringify(cardIn("C0CALLBACK3")?.blocks)).not.toContain("Paid");
    expect(stack.slack.threadOf("C0CALLBACK3", ts)).toHaveLength(0);
  });

  it("updates the card of an invoice Kassa did not create when the merchant's server forwards its callback", async () => {
    const status = JSON.stringify((await stack.ask("status", { userId: ADMIN })).reply.body);
    const address =
      /http:\/\/127\.0\.0\.1:\d+\/crystalpay\/callback\/[A-Za-z0-9_-]{32}/.exec(status)?.[0] ?? "";
    expect(address).not.toBe("");
    await stack.command("715308958_rPwTzvsvCm", { userId: ADMIN, channelId: "C0FORWARD" });
    await expect.poll(() => cardIn("C0FORWARD") !== undefined).toBe(true);
    const invoice = stack.fake.invoices.get("715308958_rPwTzvsvCm");
    if (!invoice) throw new Error("the sample invoice is missing");
    invoice.callbackUrl = address;
    stack.fake.pay(invoice.id);
    await expect.poll(() => cardIn("C0FORWARD")?.updates ?? 0, { timeout: 5000 }).toBeGreaterThanOrEqual(1);
    expect(JSON.stringify(cardIn("C0FORWARD")?.blocks)).toContain("Paid");
  });

  it("rotates the address for admins only; the old one is refused from then on", async () => {
    const before = /crystalpay\/callback\/([A-Za-z0-9_-]{32})/.exec(
      JSON.stringify((await stack.ask("status", { userId: ADMIN })).reply.body),
    )?.[1];
    const refused = JSON.stringify((await stack.ask("callback rotate", { userId: "U0MEMBER" })).reply.body);
    expect(refused).toContain("change the payment notification address");
    const rotated = JSON.stringify((await stack.ask("callback rotate", { userId: ADMIN })).reply.body);
    expect(rotated).toContain("New payment notification address");
    const after = /crystalpay\/callback\/([A-Za-z0-9_-]{32})/.exec(rotated)?.[1];
    expect(after).toBeDefined();
    expect(after).not.toBe(before);
    const old = await fetch(`${publicUrl}crystalpay/callback/${before}`, { method: "POST", body: "{}" });
    expect(old.status).toBe(404);
  });
});

describe("without Secret 2 or PUBLIC_URL nothing changes", () => {
  it("creates invoices without a callback_url and says instant notifications are off, and why", async () => {
    const stack = await Stack.start({ env: { WATCH_INTERVAL_MS: "600000" }, storeMemoMs: 0 });
    try {
      stack.slack.users[ADMIN] = { is_admin: true };
      const status = JSON.stringify((await stack.ask("status", { userId: ADMIN })).reply.body);
      expect(status).toContain("Instant notifications are off");
      expect(status).toContain("PUBLIC_URL");
      const member = JSON.stringify((await stack.ask("status", { userId: "U0MEMBER" })).reply.body);
      expect(member).not.toContain("PUBLIC_URL");
      const refused = await fetch(`${stack.url}/crystalpay/callback/${"A".repeat(32)}`, {
        method: "POST",
        body: "{}",
      });
      expect(refused.status).toBe(404);
    } finally {
      await stack.stop();
    }
  });
});
