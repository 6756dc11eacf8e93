/**
 * Re-issue in one click (issue 51, item 3), through the real app against the sandbox on API v3: an
 * expired unpaid card made by Kassa offers Re-issue; pressed twice at once it makes one invoice with
 * the same fields and a new marker, its card in the old card's thread, the old card marked "Replaced
 * by … (by @person)", one audit entry. Before expiry, `/invoice reissue ID` warns first, and Re-issue
 * anyway makes it; both links then paid give one "paid twice" alert (the card's thread and its
 * creator). An invoice Kassa did not make is not re-issued.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { moscowTime } from "../../sandbox/payments-samples.js";
import { SANDBOX_TEAM } from "../../sandbox/slack.js";
import { Stack } from "../../sandbox/stack.js";
import { type AuditEntry, openAuditTrail } from "../../src/audit/index.js";
import { LINK_ACTIONS } from "../../src/blocks/ids.js";
import { CREATE_FIELDS } from "../../src/blocks/invoice-create.js";
import { EXAMPLE_INVOICE_ID } from "../../src/blocks/replies.js";
import { linkKey, readLink } from "../../src/links/record.js";
import { openClaimBoard } from "../../src/store/claims/index.js";
import { openStore } from "../../src/store/keyv.js";
import { systemClock } from "../../src/util/clock.js";
import { linkCardOf, linkFromForm } from "../support/links-e2e.js";

const ADMIN = "U0ADMIN";
const OTHER = "U0OTHER";
const CHANNEL = "C0FINANCE";
const MARKED = /^PO-7 kassa:([a-z2-7]{10})$/;
type Block = { elements?: Array<{ action_id?: string; value?: string }> };

const reissueValue = (blocks: unknown[]): string | undefined =>
  (blocks as Block[])
    .flatMap((block) => block.elements ?? [])
    .find((element) => element.action_id === LINK_ACTIONS.reissue)?.value;

describe("re-issue in one click (v3)", () => {
  let stack: Stack;
  let views = 0;
  // The links' pass runs when a test asks; a test moves this clock by a pass's interval.
  let shift = 0;
  beforeAll(async () => {
    stack = await Stack.start({
      apiVersion: "v3",
      storeMemoMs: 0,
      env: { LINKS_CHECK_MS: "3600000", WATCH_INTERVAL_MS: "100" },
      clock: { ...systemClock, now: () => Date.now() + shift },
    });
    stack.slack.users[ADMIN] = { is_admin: true };
    stack.slack.users[OTHER] = { is_admin: true };
  });
  afterAll(async () => {
    await stack?.stop();
  });

  const creates = () => stack.fake.requests.filter((request) => request.path === "/v3/invoice/create/");
  const cardOf = (id: string) => linkCardOf(stack, CHANNEL, id);

  /** A link made with the form, every field filled; its invoice id and its card's ts. */
  async function created(amount: string): Promise<{ id: string; ts: string }> {
    const sent = creates().length;
    views += 1;
    const made = await linkFromForm(stack, {
      channel: CHANNEL,
      userId: ADMIN,
      viewId: `V0REISSUE${views}`,
      values: {
        [CREATE_FIELDS.amount]: { value: amount },
        [CREATE_FIELDS.currency]: { selected: "RUB" },
        [CREATE_FIELDS.lifetime]: { value: "90" },
        [CREATE_FIELDS.description]: { value: "Annual plan" },
        [CREATE_FIELDS.customer]: { value: "Acme Ltd" },
        [CREATE_FIELDS.email]: { value: "pay@acme.example" },
        [CREATE_FIELDS.extra]: { value: "PO-7" },
        [CREATE_FIELDS.remind]: { selected: "60" },
      },
    });
    expect(creates()).toHaveLength(sent + 1);
    return made;
  }

  /** The cards of `id` posted in the thread of the card at `ts` (the thread also holds the expiry note). */
  const threadCards = (ts: string, id: string) =>
    stack.slack
      .threadOf(CHANNEL, ts)
      .filter((message) => JSON.stringify(message.blocks).includes(`Invoice ${id}`));

  const expire = (id: string) => {
    const invoice = stack.fake.invoices.get(id);
    if (!invoice) throw new Error(`no invoice ${id}`);
    invoice.expiredAt = moscowTime(new Date(Date.now() - 60_000));
  };

  /** The reminder a link's record keeps (minutes before expiry). */
  const remindOf = async (ref: string): Promise<number | undefined> => {
    const store = await openStore(stack.env.STORE_URL ?? "");
    try {
      const record = await readLink(await openClaimBoard(store), linkKey(SANDBOX_TEAM.id, ref));
      return record?.remind;
    } finally {
      await store.close();
    }
  };

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

  it("an expired card offers Re-issue; two clicks make one invoice with the same fields, its card in the thread, the old card marked", async () => {
    const { id, ts } = await created("1500");
    expect(reissueValue(cardOf(id)?.blocks ?? [])).toBeUndefined();
    const first = creates().at(-1)?.body ?? {};
    expire(id);
    // The live card redraws at expiry, now with Re-issue.
    await expect
      .poll(async () => {
        await stack.pass("liveCards");
        return reissueValue(cardOf(id)?.blocks ?? []);
      })
      .toBeDefined();
    const value = reissueValue(cardOf(id)?.blocks ?? []) ?? "";
    const sent = creates().length;
    const options = { userId: OTHER, channelId: CHANNEL, messageTs: ts };
    const [one, two] = await Promise.all([
      stack.press(LINK_ACTIONS.reissue, value, options),
      stack.press(LINK_ACTIONS.reissue, value, options),
    ]);
    expect(creates()).toHaveLength(sent + 1);
    const second = stack.fake.created.at(-1) ?? "";
    expect(second).not.toBe(id);
    // The same fields; the user's extra kept, Kassa's marker a new one.
    const body = creates().at(-1)?.body ?? {};
    for (const field of ["amount", "currency", "description", "lifetime", "payer_details", "type"])
      expect(body[field], field).toEqual(first[field]);
    const oldRef = MARKED.exec(String(first.extra))?.[1];
    const newRef = MARKED.exec(String(body.extra))?.[1];
    expect(oldRef).toBeDefined();
    expect(newRef).toBeDefined();
    expect(newRef).not.toBe(oldRef);
    // The new link reminds as the old one did (an hour before it expires).
    expect(await remindOf(newRef ?? "")).toBe(60);
    const replies = [one.reply.body, two.reply.body].map((reply) => JSON.stringify(reply)).join(" ");
    expect(replies).toContain(`Invoice \`${second}\` re-issues \`${id}\``);
    expect(replies).toContain("re-issued already by <@U0OTHER>");
    // The new card in the old card's thread, once; the customer on it, created by the re-issuer.
    await expect.poll(() => threadCards(ts, second).length).toBe(1);
    const reply = JSON.stringify(threadCards(ts, second)[0]?.blocks);
    expect(reply).toContain(`Invoice ${second}`);
    expect(reply).toContain("Acme Ltd");
    expect(reply).toContain("Created by <@U0OTHER>");
    // The old card says what replaced it, and offers Re-issue no more.
    const old = JSON.stringify(cardOf(id)?.blocks);
    expect(old).toContain(`*Replaced by* \`${second}\` (by <@U0OTHER>)`);
    expect(old).toContain("Acme Ltd");
    expect(reissueValue(cardOf(id)?.blocks ?? [])).toBeUndefined();
    const reissued = (await auditEntries()).filter((entry) => entry.action === "invoice.reissued");
    expect(reissued.map((entry) => [entry.actor, entry.object, entry.after])).toEqual([
      [OTHER, `invoice ${id}`, { invoice: second, amount: "1500", currency: "RUB" }],
    ]);
    // A press much later still makes nothing.
    const late = await stack.press(LINK_ACTIONS.reissue, value, options);
    expect(JSON.stringify(late.reply.body)).toContain("re-issued already");
    expect(creates()).toHaveLength(sent + 1);
  });

  it("before expiry, /invoice reissue warns that the old link still works; Re-issue anyway makes the new one; both paid: one alert", async () => {
    const { id, ts } = await created("700");
    const sent = creates().length;
    const { reply } = await stack.ask(`reissue ${id}`, { userId: ADMIN, channelId: CHANNEL });
    const warning = JSON.stringify(reply.body);
    expect(warning).toContain(`Invoice \`${id}\` still works until <!date^`);
    expect(warning).toContain("one payment may need refunding");
    expect(creates()).toHaveLength(sent);
    const anyway = reissueValue((reply.body as { blocks?: unknown[] }).blocks ?? []) ?? "";
    expect(JSON.parse(anyway)).toMatchObject({ e: 1 });
    const pressed = await stack.press(LINK_ACTIONS.reissue, anyway, { userId: ADMIN, ephemeral: true });
    expect(creates()).toHaveLength(sent + 1);
    const second = stack.fake.created.at(-1) ?? "";
    expect(JSON.stringify(pressed.reply.body)).toContain(`Invoice \`${second}\` re-issues \`${id}\``);
    await expect.poll(() => threadCards(ts, second).length).toBe(1);
    expect(JSON.stringify(cardOf(id)?.blocks)).toContain(`*Replaced by* \`${second}\` (by <@U0ADMIN>)`);
    // Russian words work too, and a second re-issue of the same one is refused.
    const again = await stack.ask(`перевыпустить ${id}`, { userId: ADMIN, channelId: CHANNEL });
    expect(JSON.stringify(again.reply.body)).toContain("re-issued already by <@U0ADMIN>");
    expect(creates()).toHaveLength(sent + 1);
    // Both links paid: one alert in the old card's thread and one to its creator, however many passes.
    const paidTwice = () =>
      stack.slack
        .callsOf("chat.postMessage")
        .filter((call) => JSON.stringify(call.body).includes("Paid twice"));
    stack.fake.pay(id);
    await stack.pass("links");
    expect(paidTwice()).toHaveLength(0);
    stack.fake.pay(second);
    shift += 3_600_000 + 1000;
    await stack.pass("links");
    await expect.poll(() => paidTwice().length).toBe(2);
    expect(paidTwice().map((call) => [call.body.channel, call.body.thread_ts])).toEqual([
      [CHANNEL, ts],
      [ADMIN, undefined],
    ]);
    expect(JSON.stringify(paidTwice()[0]?.body)).toContain(second);
    shift += 3_600_000 + 1000;
    await stack.pass("links", 2);
    expect(paidTwice()).toHaveLength(2);
  });

  it("an invoice Kassa did not make is not re-issued", async () => {
    const sent = creates().length;
    const { reply } = await stack.ask(`reissue ${EXAMPLE_INVOICE_ID}`, { userId: ADMIN, channelId: CHANNEL });
    expect(JSON.stringify(reply.body)).toContain("cannot be re-issued in one click");
    expect(creates()).toHaveLength(sent);
  });
});
