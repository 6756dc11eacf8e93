/**
 * A payment link whose create answer was lost (issue 51, item 6), through the real app against the
 * sandbox on API v2 (whose history carries no `extra`: the pass reads the invoices created around
 * the attempt with invoice/info): invoice/create is never sent again; the creator is told "not sure
 * it was made" with Create now; the links' pass finds the invoice by Kassa's marker and posts its
 * card once, however many passes; Create now, pressed twice, makes one invoice, and a late find of
 * the first is told, never posted as a second card. On v2, a payer's e-mail is refused.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SANDBOX_TEAM } from "../../sandbox/slack.js";
import { Stack } from "../../sandbox/stack.js";
import { type AuditEntry, openAuditTrail } from "../../src/audit/index.js";
import { CREATE_NOW_ACTION } from "../../src/blocks/ids.js";
import { CREATE_FIELDS } from "../../src/blocks/invoice-create.js";
import { openStore } from "../../src/store/keyv.js";
import { type OpenedView, viewOf } from "../support/views.js";

const ADMIN = "U0ADMIN";
type Body = Record<string, unknown>;

const textOf = (body: Body) =>
  JSON.stringify(typeof body.blocks === "string" ? JSON.parse(body.blocks) : body.blocks);

/** The Create now button's value in a message Kassa sent. */
function createNowValue(body: Body): string {
  const blocks = (typeof body.blocks === "string" ? JSON.parse(body.blocks) : body.blocks) as Array<{
    elements?: Array<{ action_id?: string; value?: string }>;
  }>;
  const button = blocks
    .flatMap((block) => block.elements ?? [])
    .find((e) => e.action_id === CREATE_NOW_ACTION);
  if (!button?.value) throw new Error("no Create now button");
  return button.value;
}

describe("a create whose answer was lost (v2)", () => {
  let stack: Stack;
  let views = 0;
  beforeAll(async () => {
    // The pass runs when a test asks for it (a minute apart on its own).
    stack = await Stack.start({ storeMemoMs: 0, env: { LINKS_CHECK_MS: "3600000" } });
    stack.slack.users[ADMIN] = { is_admin: true };
  });
  afterAll(async () => {
    await stack?.stop();
  });

  const creates = () => stack.fake.requests.filter((request) => request.path === "/v2/invoice/create/");
  const cardsPosted = (id: string) =>
    stack.slack
      .callsOf("chat.postMessage")
      .filter((call) => call.body.channel === "C0FINANCE" && textOf(call.body).includes(`Invoice ${id}`));
  const toldAdmin = () =>
    [...stack.slack.callsOf("chat.postEphemeral"), ...stack.slack.callsOf("chat.postMessage")].filter(
      (call) => call.body.user === ADMIN || call.body.channel === ADMIN,
    );

  async function openModal(text: string): Promise<OpenedView> {
    const before = stack.slack.callsOf("views.open").length;
    await stack.command(text, { userId: ADMIN, channelId: "C0FINANCE" });
    await expect.poll(() => stack.slack.callsOf("views.open").length).toBe(before + 1);
    return viewOf(stack.slack.callsOf("views.open").at(-1)?.body ?? {});
  }

  /** Submits the form with the answer lost; resolves with the "not sure" note and the fake's new invoice. */
  async function lostCreate(amount: string): Promise<{ note: Body; id: string }> {
    const view = await openModal("new");
    const told = toldAdmin().length;
    const sent = creates().length;
    stack.fake.createFault = "lost";
    try {
      views += 1;
      const result = await stack.submitView({
        view,
        userId: ADMIN,
        viewId: `V0LOST${views}`,
        values: {
          [CREATE_FIELDS.amount]: { value: amount },
          [CREATE_FIELDS.currency]: { selected: "RUB" },
          [CREATE_FIELDS.lifetime]: { value: "60" },
          [CREATE_FIELDS.customer]: { value: "Acme Ltd" },
          [CREATE_FIELDS.extra]: { value: "crm:77" },
        },
      });
      expect(result.json?.response_action).toBeUndefined();
      await expect.poll(() => toldAdmin().length).toBe(told + 1);
    } finally {
      stack.fake.createFault = null;
    }
    expect(creates()).toHaveLength(sent + 1);
    return { note: toldAdmin().at(-1)?.body ?? {}, id: stack.fake.created.at(-1) ?? "" };
  }

  const auditEntries = async (): Promise<AuditEntry[]> => {
    const store = await openStore(stack.env.STORE_URL ?? "");
    try {
      const trail = await openAuditTrail(store, { retentionDays: 1825 });
      const page = await trail.list(SANDBOX_TEAM.id, { limit: 100 });
      return page.entries.flatMap((listed) => (listed.entry ? [listed.entry] : []));
    } finally {
      await store.close();
    }
  };

  it("never sends the create again; the creator is told 'not sure'; the pass finds it by its marker and posts its card once", async () => {
    const { note, id } = await lostCreate("777");
    expect(textOf(note)).toContain("not sure the invoice for `777 RUB` was made");
    expect(textOf(note)).toContain("Create now");
    // The invoice exists at the service; no card yet, and nothing sent again.
    expect(stack.fake.invoices.get(id)?.extra).toMatch(/^crm:77 kassa:[a-z2-7]{10}$/);
    expect(cardsPosted(id)).toHaveLength(0);
    const sent = creates().length;
    const told = toldAdmin().length;
    await stack.pass("links");
    await expect.poll(() => cardsPosted(id).length).toBe(1);
    const card = textOf(cardsPosted(id)[0]?.body ?? {});
    expect(card).toContain("Acme Ltd");
    expect(card).toContain("Created by <@U0ADMIN>");
    expect(card).not.toContain("kassa:");
    await expect.poll(() => toldAdmin().length).toBe(told + 1);
    expect(textOf(toldAdmin().at(-1)?.body ?? {})).toContain(
      "Found: the invoice for `777 RUB` was made after all",
    );
    // Two passes more: still one card, one note, and never a second create.
    await stack.pass("links", 2);
    expect(cardsPosted(id)).toHaveLength(1);
    expect(toldAdmin()).toHaveLength(told + 1);
    expect(creates()).toHaveLength(sent);
    const found = (await auditEntries()).filter((entry) => entry.action === "invoice.found");
    expect(found.map((entry) => [entry.actor, entry.object])).toEqual([["kassa", `invoice ${id}`]]);
  });

  it("Create now, pressed twice, makes one invoice; the first, found later, is told and never posted", async () => {
    const { note, id: first } = await lostCreate("555");
    const value = createNowValue(note);
    const sent = creates().length;
    const [pressed, again] = await Promise.all([
      stack.press(CREATE_NOW_ACTION, value, { userId: ADMIN, ephemeral: true }),
      stack.press(CREATE_NOW_ACTION, value, { userId: ADMIN, ephemeral: true }),
    ]);
    expect(creates()).toHaveLength(sent + 1);
    const second = stack.fake.created.at(-1) ?? "";
    expect(second).not.toBe(first);
    expect(String(creates().at(-1)?.body?.extra)).toMatch(/^crm:77 kassa:[a-z2-7]{10}$/);
    expect(creates().at(-1)?.body?.extra).not.toBe(stack.fake.invoices.get(first)?.extra);
    const replies = [pressed.reply.body, again.reply.body].map((body) => textOf(body as Body)).join(" ");
    expect(replies).toContain(`Invoice \`${second}\` was created`);
    expect(replies).toContain("Create now was pressed already");
    await expect.poll(() => cardsPosted(second).length).toBe(1);
    // The first turns up: told, with both ids; no card for it.
    const told = toldAdmin().length;
    await stack.pass("links", 2);
    await expect.poll(() => toldAdmin().length).toBe(told + 1);
    const late = textOf(toldAdmin().at(-1)?.body ?? {});
    expect(late).toContain(first);
    expect(late).toContain(second);
    expect(late).toContain("two payment links work");
    expect(cardsPosted(first)).toHaveLength(0);
    // A press after that finds the first one made.
    const after = await stack.press(CREATE_NOW_ACTION, value, { userId: ADMIN, ephemeral: true });
    expect(textOf(after.reply.body as Body)).toContain("pressed already");
    expect(creates()).toHaveLength(sent + 1);
  });

  it("Create now is its creator's only", async () => {
    const { note } = await lostCreate("333");
    const sent = creates().length;
    const other = await stack.press(CREATE_NOW_ACTION, createNowValue(note), { userId: "U0MEMBER" });
    expect(textOf(other.reply.body as Body)).toContain("Only <@U0ADMIN>");
    expect(creates()).toHaveLength(sent);
  });

  it("on v2, `/invoice new … email …` is refused with a clear line, and the form offers no e-mail", async () => {
    const { reply } = await stack.ask("new 100 customer Acme email pay@acme.example", { userId: ADMIN });
    expect(JSON.stringify(reply.body)).toContain("API v2, which takes no payer's e-mail");
    const view = await openModal("new 100 customer Acme");
    expect(view.blocks.some((block) => block.block_id === CREATE_FIELDS.email)).toBe(false);
    const customer = view.blocks.find((block) => block.block_id === CREATE_FIELDS.customer);
    expect((customer?.element as Record<string, unknown> | undefined)?.initial_value).toBe("Acme");
  });
});
