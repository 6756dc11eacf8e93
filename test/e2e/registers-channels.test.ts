/**
 * A register kept to chosen channels (its connect form): its balance, reports and invoices are shown
 * there only; elsewhere a command naming it is told where it is used, and lookups leave it out.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SANDBOX_LOGIN, SANDBOX_SECRET, sampleInvoices } from "../../sandbox/fake-payments.js";
import { SANDBOX_TEAM } from "../../sandbox/slack.js";
import { Stack } from "../../sandbox/stack.js";

const ADMIN = "U0ADMIN";
const SHOP2_LOGIN = "shop2_register";
const SHOP2_SECRET = "shop2-secret-77aa10";
const SHOP2_INVOICE = "902211500_KeptToShop";
const SHOP2_CHANNEL = "C0SHOPTWO";
const OTHER_CHANNEL = "C0ELSEWHERE";
const text = (body: unknown) => JSON.stringify(body);

describe("a register kept to chosen channels", () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await Stack.start({
      storeMemoMs: 0,
      fake: {
        accounts: { [SANDBOX_LOGIN]: SANDBOX_SECRET, [SHOP2_LOGIN]: SHOP2_SECRET },
        invoices: [
          ...sampleInvoices(),
          {
            id: SHOP2_INVOICE,
            state: "payed",
            currency: "RUB",
            amount: "990",
            createdAt: "2026-11-26 10:00:00",
            expiredAt: "2026-11-27 10:00:00",
            login: SHOP2_LOGIN,
          },
        ],
      },
    });
    stack.slack.users[ADMIN] = { is_admin: true };
    // An admin adds shop2 in the connect form, kept to #shop-two.
    const submitted = await stack.submitView({
      view: {
        callback_id: "kassa_connect",
        private_metadata: JSON.stringify({ from: "command", t: SANDBOX_TEAM.id }),
      },
      values: {
        register: { value: "shop2" },
        register_channels: { conversations: [] },
        login: { value: SHOP2_LOGIN },
        secret: { value: SHOP2_SECRET },
        api_version: { selected: "v2" },
        visibility: { selected: "channel" },
      },
      userId: ADMIN,
    });
    expect(submitted.status).toBe(200);
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it("the connect form keeps it to the channels chosen, and opens again with them", async () => {
    const submitted = await stack.submitView({
      view: {
        callback_id: "kassa_connect",
        private_metadata: JSON.stringify({ from: "command", t: SANDBOX_TEAM.id, r: "shop2" }),
      },
      values: {
        register: { value: "shop2" },
        register_channels: { conversations: [SHOP2_CHANNEL] },
        login: { value: SHOP2_LOGIN },
        secret: { value: null },
        api_version: { selected: "v2" },
        visibility: { selected: "channel" },
      },
      userId: ADMIN,
    });
    expect(submitted.status).toBe(200);
    expect(submitted.json?.response_action).toBe("update");
    const before = stack.slack.callsOf("views.open").length;
    await stack.command("shop2 connect", { userId: ADMIN, channelId: SHOP2_CHANNEL });
    const opened = (await stack.slack.waitForCalls("views.open", { count: before + 1 })).at(-1);
    expect(String(opened?.body.view)).toContain(`"initial_conversations":["${SHOP2_CHANNEL}"]`);
  });

  it("a register name that is a command word is refused next to the field, and nothing is saved", async () => {
    const submitted = await stack.submitView({
      view: {
        callback_id: "kassa_connect",
        private_metadata: JSON.stringify({ from: "command", t: SANDBOX_TEAM.id }),
      },
      values: {
        register: { value: "list" },
        login: { value: SHOP2_LOGIN },
        secret: { value: SHOP2_SECRET },
        api_version: { selected: "v2" },
        visibility: { selected: "channel" },
      },
      userId: ADMIN,
    });
    expect(submitted.json).toMatchObject({
      response_action: "errors",
      errors: { register: expect.stringContaining("not one of Kassa's command words") },
    });
    const status = await stack.ask("status", { userId: ADMIN, channelId: SHOP2_CHANNEL });
    expect(JSON.stringify(status.reply.body)).not.toContain("*list*");
  });

  it("elsewhere, a command naming it says where it is used and reads nothing", async () => {
    const before = stack.fake.requests.length;
    const { reply } = await stack.ask("shop2", {
      command: "/balance",
      userId: ADMIN,
      channelId: OTHER_CHANNEL,
    });
    expect(text(reply.body)).toContain(`The register *shop2* is used only in <#${SHOP2_CHANNEL}>`);
    const list = await stack.ask("shop2 list", { userId: ADMIN, channelId: OTHER_CHANNEL });
    expect(text(list.reply.body)).toContain("is used only in");
    expect(stack.fake.requests.length).toBe(before);
  });

  it("elsewhere, its invoices are not looked up; in its channel they are", async () => {
    const elsewhere = await stack.ask(SHOP2_INVOICE, { userId: ADMIN, channelId: OTHER_CHANNEL });
    expect(text(elsewhere.reply.body)).not.toContain("990");
    const logins = stack.fake.requests
      .filter((request) => request.path.endsWith("/invoice/info/"))
      .map((request) => (request.body as { auth_login?: string }).auth_login);
    expect(logins).not.toContain(SHOP2_LOGIN);
    const there = await stack.ask(`shop2 list`, { userId: ADMIN, channelId: SHOP2_CHANNEL });
    expect(text(there.reply.body)).toContain("Register: *shop2*");
    const balance = await stack.ask("shop2", {
      command: "/balance",
      userId: ADMIN,
      channelId: SHOP2_CHANNEL,
    });
    expect(text(balance.reply.body)).toContain("Register: *shop2*");
  });
});
