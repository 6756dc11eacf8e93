/**
 * Who a payment link is for (issue 51), through the real app against the sandbox on API v3: the
 * create form, `/invoice new` and the Create invoice step take a customer (kept by Kassa, shown on
 * the card) and a payer's e-mail (sent as payer_details); every invoice carries Kassa's marker in
 * `extra` after the user's own text, and no card shows the marker.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Stack } from "../../sandbox/stack.js";
import { CREATE_FIELDS } from "../../src/blocks/invoice-create.js";
import { type OpenedView, viewOf } from "../support/views.js";

const ADMIN = "U0ADMIN";
const MARKED = /^(?:(.*) )?kassa:[a-z2-7]{10}$/;

const blocksOf = (body: Record<string, unknown>) =>
  JSON.stringify(typeof body.blocks === "string" ? JSON.parse(body.blocks) : body.blocks);

describe("who a payment link is for (v3)", () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await Stack.start({ apiVersion: "v3", storeMemoMs: 0 });
    stack.slack.users[ADMIN] = { is_admin: true };
  });
  afterAll(async () => {
    await stack?.stop();
  });

  const creates = () => stack.fake.requests.filter((request) => request.path === "/v3/invoice/create/");

  async function openModal(text: string): Promise<OpenedView> {
    const before = stack.slack.callsOf("views.open").length;
    const ack = await stack.command(text, { userId: ADMIN, channelId: "C0FINANCE" });
    expect(ack.status).toBe(200);
    await expect.poll(() => stack.slack.callsOf("views.open").length).toBe(before + 1);
    return viewOf(stack.slack.callsOf("views.open").at(-1)?.body ?? {});
  }
  const initial = (view: OpenedView, id: string) =>
    (view.blocks.find((block) => block.block_id === id)?.element as Record<string, unknown> | undefined)
      ?.initial_value;

  /** The card posted after `posts` chat.postMessage calls. */
  async function cardAfter(posts: number): Promise<Record<string, unknown>> {
    await expect.poll(() => stack.slack.callsOf("chat.postMessage").length).toBe(posts + 1);
    return stack.slack.callsOf("chat.postMessage").at(-1)?.body ?? {};
  }

  it("a form create with customer and e-mail: payer_details and the marker reach the service, the card shows the customer", async () => {
    const view = await openModal("new");
    expect(view.blocks.some((block) => block.block_id === CREATE_FIELDS.email)).toBe(true);
    const posts = stack.slack.callsOf("chat.postMessage").length;
    const sent = creates().length;
    const result = await stack.submitView({
      view,
      userId: ADMIN,
      viewId: "V0LINKWHO1",
      values: {
        [CREATE_FIELDS.amount]: { value: "2500" },
        [CREATE_FIELDS.currency]: { selected: "RUB" },
        [CREATE_FIELDS.lifetime]: { value: "120" },
        [CREATE_FIELDS.description]: { value: "Annual plan" },
        [CREATE_FIELDS.customer]: { value: "Acme <Ltd> & Co" },
        [CREATE_FIELDS.email]: { value: "pay@acme.example" },
        [CREATE_FIELDS.extra]: { value: "PO-7" },
      },
    });
    expect(result.json?.response_action).toBeUndefined();
    const card = await cardAfter(posts);
    expect(creates()).toHaveLength(sent + 1);
    const body = creates().at(-1)?.body ?? {};
    expect(body).toMatchObject({ amount: "2500", currency: "RUB", payer_details: "pay@acme.example" });
    expect(String(body.extra)).toMatch(MARKED);
    expect(MARKED.exec(String(body.extra))?.[1]).toBe("PO-7");
    // The customer is Kassa's: never sent to the service.
    expect(JSON.stringify(body)).not.toContain("Acme");
    const shown = blocksOf(card);
    expect(shown).toContain("*Customer*\\nAcme &lt;Ltd&gt; &amp; Co");
    expect(shown).toContain("PO-7");
    expect(shown).not.toContain("kassa:");
  });

  it("`/invoice new … customer … email …` opens the form filled in; the invoice then carries them", async () => {
    const view = await openModal('new 990 customer "Globex Corp" email ap@globex.example Support plan');
    expect(initial(view, CREATE_FIELDS.amount)).toBe("990");
    expect(initial(view, CREATE_FIELDS.customer)).toBe("Globex Corp");
    expect(initial(view, CREATE_FIELDS.email)).toBe("ap@globex.example");
    expect(initial(view, CREATE_FIELDS.description)).toBe("Support plan");
    const posts = stack.slack.callsOf("chat.postMessage").length;
    await stack.submitView({
      view,
      userId: ADMIN,
      viewId: "V0LINKWHO2",
      values: {
        [CREATE_FIELDS.amount]: { value: "990" },
        [CREATE_FIELDS.currency]: { selected: "RUB" },
        [CREATE_FIELDS.lifetime]: { value: "60" },
        [CREATE_FIELDS.description]: { value: "Support plan" },
        [CREATE_FIELDS.customer]: { value: "Globex Corp" },
        [CREATE_FIELDS.email]: { value: "ap@globex.example" },
      },
    });
    const card = blocksOf(await cardAfter(posts));
    expect(card).toContain("Globex Corp");
    expect(card).not.toContain("kassa:");
    expect(creates().at(-1)?.body).toMatchObject({ payer_details: "ap@globex.example" });
    expect(String(creates().at(-1)?.body?.extra)).toMatch(/^kassa:[a-z2-7]{10}$/);
  });

  it("a lost answer on v3 is found by the marker its history carries, its card posted once", async () => {
    const view = await openModal("new");
    const posts = stack.slack.callsOf("chat.postMessage").length;
    const ephemerals = stack.slack.callsOf("chat.postEphemeral").length;
    stack.fake.createFault = "lost";
    try {
      await stack.submitView({
        view,
        userId: ADMIN,
        viewId: "V0LINKWHO3",
        values: {
          [CREATE_FIELDS.amount]: { value: "4200" },
          [CREATE_FIELDS.currency]: { selected: "RUB" },
          [CREATE_FIELDS.lifetime]: { value: "60" },
          [CREATE_FIELDS.customer]: { value: "Umbrella" },
        },
      });
      await expect.poll(() => stack.slack.callsOf("chat.postEphemeral").length).toBe(ephemerals + 1);
    } finally {
      stack.fake.createFault = null;
    }
    const id = stack.fake.created.at(-1) ?? "";
    expect(blocksOf(stack.slack.callsOf("chat.postEphemeral").at(-1)?.body ?? {})).toContain("not sure");
    const sent = creates().length;
    const infos = () =>
      stack.fake.requests.filter((r) => r.path === "/v3/invoice/info/" && r.body?.id === id);
    await stack.pass("links");
    const card = blocksOf(await cardAfter(posts));
    expect(card).toContain(id);
    expect(card).toContain("Umbrella");
    // Found in the history itself (v3 items carry extra): the invoice read once, for its card.
    expect(infos()).toHaveLength(1);
    await stack.pass("links", 2);
    expect(
      stack.slack.callsOf("chat.postMessage").filter((call) => blocksOf(call.body).includes(id)),
    ).toHaveLength(1);
    expect(creates()).toHaveLength(sent);
  });

  it("the Create invoice step with a customer and an e-mail: the card names the customer", async () => {
    await allowWorkflows(stack, "v3");
    const posts = stack.slack.callsOf("chat.postMessage").length;
    const sent = await stack.runStep({
      callbackId: "create_invoice",
      inputs: {
        amount: "1500",
        currency: "RUB",
        channel_id: "C0FINANCE",
        customer: "Initech",
        email: "billing@initech.example",
      },
    });
    const [end] = await stack.slack.waitForCompletion(sent.executionId);
    expect(end?.outcome).toBe("success");
    expect(creates().at(-1)?.body).toMatchObject({ payer_details: "billing@initech.example" });
    expect(String(creates().at(-1)?.body?.extra)).toMatch(/^kassa:[a-z2-7]{10}$/);
    const card = blocksOf(await cardAfter(posts));
    expect(card).toContain("*Customer*\\nInitech");
    expect(card).not.toContain("kassa:");
    // A customer past 80 characters is refused, and nothing is sent.
    const before = creates().length;
    const long = await stack.runStep({
      callbackId: "create_invoice",
      inputs: { amount: "10", customer: "x".repeat(81) },
    });
    const [refused] = await stack.slack.waitForCompletion(long.executionId);
    expect(refused?.outcome).toBe("error");
    expect(refused?.error).toContain("80");
    expect(creates()).toHaveLength(before);
  });
});

/** The connect form as an admin saves it, with workflows allowed to create invoices. */
async function allowWorkflows(stack: Stack, apiVersion: "v2" | "v3"): Promise<void> {
  const opened = stack.slack.callsOf("views.open").length;
  await stack.command("connect", { userId: ADMIN });
  await expect.poll(() => stack.slack.callsOf("views.open").length).toBe(opened + 1);
  const view = viewOf(stack.slack.callsOf("views.open").at(-1)?.body ?? {});
  const saved = await stack.submitView({
    view,
    userId: ADMIN,
    values: {
      login: { value: "sandbox_register" },
      secret: { value: null },
      api_version: { selected: apiVersion },
      visibility: { selected: "channel" },
      workflow_creates: { selected: "on" },
    },
  });
  expect(saved.json).toMatchObject({ response_action: "update" });
}
