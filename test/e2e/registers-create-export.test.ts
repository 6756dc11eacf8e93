/**
 * `/invoice new` and `/invoice export` per cash register, end to end through the real app: the form
 * opened in a channel bound to a second register creates the invoice with that register's login and
 * its card names it; an export named for it holds only its invoices, and its file and messages say so.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SANDBOX_LOGIN, SANDBOX_SECRET, sampleInvoices } from "../../sandbox/fake-payments.js";
import { SANDBOX_TEAM } from "../../sandbox/slack.js";
import { Stack } from "../../sandbox/stack.js";
import { CREATE_FIELDS } from "../../src/blocks/invoice-create.js";

const ADMIN = "U0ADMIN";
const SHOP2_LOGIN = "shop2_register";
const SHOP2_SECRET = "shop2-secret-5d07aa";
const SHOP2_INVOICE = "902211335_ShopTwoOne";
const SHOP2_CHANNEL = "C0SHOPTWO";
const MAIN_CHANNEL = "C0MAINSHOP";

type View = { private_metadata?: string; blocks: Array<{ type: string; block_id?: string }> };
const viewOf = (body: Record<string, unknown>) =>
  (typeof body.view === "string" ? JSON.parse(body.view) : body.view) as View;
const blocksOf = (body: Record<string, unknown>) =>
  (typeof body.blocks === "string" ? JSON.parse(body.blocks) : body.blocks) as unknown[];
const text = (body: unknown) => JSON.stringify(body);
const moscow = (minutes: number) =>
  new Date(Date.now() + 3 * 3600_000 + minutes * 60_000).toISOString().slice(0, 19).replace("T", " ");

describe("/invoice new and /invoice export per cash register", () => {
  let stack: Stack;
  let mainIds: string[] = [];
  beforeAll(async () => {
    // main's own (an invoice with no login is every login's in the sandbox).
    const mains = sampleInvoices().map((invoice) => ({ ...invoice, login: SANDBOX_LOGIN }));
    mainIds = mains.map((invoice) => invoice.id);
    stack = await Stack.start({
      storeMemoMs: 0,
      fake: {
        accounts: { [SANDBOX_LOGIN]: SANDBOX_SECRET, [SHOP2_LOGIN]: SHOP2_SECRET },
        invoices: [
          ...mains,
          {
            id: SHOP2_INVOICE,
            state: "payed",
            currency: "RUB",
            amount: "4200.50",
            createdAt: moscow(-60),
            expiredAt: moscow(24 * 60),
            description: "Shop two order",
            login: SHOP2_LOGIN,
          },
        ],
      },
    });
    stack.slack.users[ADMIN] = { is_admin: true, tz: "Europe/Moscow" };
    const added = await stack.cli(
      ["credentials", "set", "--team", SANDBOX_TEAM.id, "--register", "shop2"].concat([
        "--login",
        SHOP2_LOGIN,
        "--secret",
        "-",
      ]),
      SHOP2_SECRET,
    );
    expect(added.code).toBe(0);
    const used = await stack.ask("use shop2", { userId: ADMIN, channelId: SHOP2_CHANNEL });
    expect(text(used.reply.body)).toContain("made *shop2* this channel's register");
  });
  afterAll(async () => {
    await stack?.stop();
  });

  async function openModal(channelId: string): Promise<View> {
    const before = stack.slack.callsOf("views.open").length;
    const ack = await stack.command("new 300 RUB Shop two sale", { userId: ADMIN, channelId });
    expect(ack.status).toBe(200);
    await expect.poll(() => stack.slack.callsOf("views.open").length).toBe(before + 1);
    return viewOf(stack.slack.callsOf("views.open").at(-1)?.body ?? {});
  }

  const values = {
    [CREATE_FIELDS.amount]: { value: "300" },
    [CREATE_FIELDS.currency]: { selected: "RUB" },
    [CREATE_FIELDS.lifetime]: { value: "60" },
    [CREATE_FIELDS.description]: { value: "Shop two sale" },
  };

  it("/invoice new in shop2's channel creates the invoice with shop2's login, and the card names it", async () => {
    const view = await openModal(SHOP2_CHANNEL);
    expect(JSON.parse(view.private_metadata ?? "")).toEqual({
      t: SANDBOX_TEAM.id,
      c: SHOP2_CHANNEL,
      r: "shop2",
    });
    expect(text(view.blocks[0])).toContain("Register: *shop2* (this channel's register)");
    const posts = stack.slack.callsOf("chat.postMessage").length;
    const result = await stack.submitView({
      view: view,
      values,
      userId: ADMIN,
      viewId: "V0SHOP2NEW",
    });
    expect(result.status).toBe(200);
    expect(result.json?.response_action).toBeUndefined();
    const creates = stack.fake.requests.filter((request) => request.path === "/v2/invoice/create/");
    expect(creates.map((request) => (request.body as { auth_login?: string }).auth_login)).toEqual([
      SHOP2_LOGIN,
    ]);
    const id = stack.fake.created.at(-1) ?? "";
    await expect.poll(() => stack.slack.callsOf("chat.postMessage").length).toBe(posts + 1);
    const post = stack.slack.callsOf("chat.postMessage").at(-1)?.body ?? {};
    expect(post.channel).toBe(SHOP2_CHANNEL);
    const card = text(blocksOf(post));
    expect(card).toContain(`shop2 · `);
    expect(card).toContain(id);
    expect(card).toContain("Created by <@U0ADMIN>");
    const audit = stack.logEntries().find((entry) => entry.audit === "invoice_created");
    expect(audit).toMatchObject({ team: SANDBOX_TEAM.id, register: "shop2", invoice: id });
    // Read back from shop2, where it was made.
    const info = stack.fake.requests.filter((request) => request.path.endsWith("/invoice/info/")).at(-1);
    expect((info?.body as { auth_login?: string } | undefined)?.auth_login).toBe(SHOP2_LOGIN);
  });

  it("a form naming a register that is gone says it is out of date and creates nothing", async () => {
    const view = await openModal(MAIN_CHANNEL);
    expect(JSON.parse(view.private_metadata ?? "")).toEqual({ t: SANDBOX_TEAM.id, c: MAIN_CHANNEL });
    const before = stack.fake.created.length;
    const stale = {
      ...view,
      private_metadata: JSON.stringify({ t: SANDBOX_TEAM.id, c: MAIN_CHANNEL, r: "shop9" }),
    };
    const result = await stack.submitView({
      view: stale,
      values,
      userId: ADMIN,
      viewId: "V0STALE",
    });
    expect(result.json?.response_action).toBe("errors");
    expect(text(result.json)).toContain("This form is out of date");
    expect(stack.fake.created).toHaveLength(before);
  });

  it("/invoice shop2 export 7d sends a file of shop2's invoices only, named and titled for shop2", async () => {
    const before = stack.fake.requests.length;
    const { reply } = await stack.ask("shop2 export 7d", { userId: ADMIN, channelId: MAIN_CHANNEL });
    expect(text(reply.body)).toContain("Exporting invoices in the last 7 days, register shop2 as CSV");
    const [file] = await stack.slack.files.waitFor(1);
    expect(file?.channel).toBe("D0ADMIN");
    expect(file?.filename).toMatch(/^kassa-invoices-\d{4}-\d{2}-\d{2}_\d{4}-\d{2}-\d{2}-shop2\.csv$/);
    const csv = (file?.bytes ?? Buffer.alloc(0)).toString("utf8");
    expect(csv).toContain(SHOP2_INVOICE);
    expect(csv).toContain(stack.fake.created.at(-1) ?? "(the invoice created above)");
    for (const id of mainIds) expect(csv).not.toContain(id);
    const history = stack.fake.requests
      .slice(before)
      .filter((request) => request.path.endsWith("/history/payments/"));
    expect(history.length).toBeGreaterThan(0);
    for (const request of history)
      expect((request.body as { auth_login?: string }).auth_login).toBe(SHOP2_LOGIN);

    // main's export of the same days, once shop2's is done (one per workspace at a time): main's only.
    await expect
      .poll(async () => text((await stack.ask("main export 7d", { userId: ADMIN })).reply.body), {
        timeout: 10_000,
      })
      .toContain("Exporting invoices in the last 7 days, register main as CSV");
    const files = await stack.slack.files.waitFor(2);
    expect(files[1]?.filename).toMatch(/-main\.csv$/);
    const mainCsv = (files[1]?.bytes ?? Buffer.alloc(0)).toString("utf8");
    for (const id of mainIds) expect(mainCsv).toContain(id);
    expect(mainCsv).not.toContain(SHOP2_INVOICE);
  });
});
