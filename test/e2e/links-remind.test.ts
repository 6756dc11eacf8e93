/**
 * A payment link's reminder (issue 51, item 2) through the real app against the sandbox, with a
 * clock the test moves (the pass runs only when asked): `/invoice new … remind 1h` opens the form
 * with the reminder chosen, a lifetime too short for it is said next to the field; the creator gets
 * one reminder in their messages at its time, however many passes, with Copy link (the link,
 * privately) and Stop reminding (the reminder says who stopped it); a paid link gets none, its
 * outcome written; a creator who left gets theirs in the card's channel; one whose sender was killed
 * between marking it as being sent and Slack's answer is left alone while the mark is fresh (another
 * replica may be sending it), then sent once after the grace (logged as a possible repeat), never twice.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SANDBOX_TEAM } from "../../sandbox/slack.js";
import { Stack } from "../../sandbox/stack.js";
import { LINK_ACTIONS } from "../../src/blocks/ids.js";
import { CREATE_FIELDS } from "../../src/blocks/invoice-create.js";
import { REMIND_GRACE_MS } from "../../src/links/next-look.js";
import { changeLink, linkKey } from "../../src/links/record.js";
import { openClaimBoard } from "../../src/store/claims/index.js";
import { openStore } from "../../src/store/keyv.js";
import { clockReading } from "../support/manual-clock.js";
import { type OpenedView, viewOf } from "../support/views.js";

const ADMIN = "U0ADMIN";
const CHANNEL = "C0FINANCE";
const MINUTE = 60_000;
type Body = Record<string, unknown>;
type Block = { type?: string; elements?: Array<{ action_id?: string; value?: string }> };

const blocksOf = (body: Body) =>
  (typeof body.blocks === "string" ? JSON.parse(body.blocks) : (body.blocks ?? [])) as Block[];
const buttonValue = (body: Body, actionId: string) => {
  const value = blocksOf(body)
    .flatMap((block) => block.elements ?? [])
    .find((element) => element.action_id === actionId)?.value;
  if (!value) throw new Error(`no ${actionId} button`);
  return value;
};

describe("a payment link's reminder", () => {
  let stack: Stack;
  let shift = 0;
  let views = 0;
  beforeAll(async () => {
    stack = await Stack.start({
      storeMemoMs: 0,
      env: { LINKS_CHECK_MS: "3600000" },
      clock: clockReading(() => new Date(Date.now() + shift)),
    });
    stack.slack.users[ADMIN] = { is_admin: true, tz: "Europe/Berlin" };
  });
  afterAll(async () => {
    await stack?.stop();
  });

  const reminders = (channel: string) =>
    stack.slack
      .callsOf("chat.postMessage")
      .filter(
        (call) => call.body.channel === channel && JSON.stringify(call.body).includes("is not paid yet"),
      );

  async function openModal(text: string): Promise<OpenedView> {
    const before = stack.slack.callsOf("views.open").length;
    await stack.command(text, { userId: ADMIN, channelId: CHANNEL });
    await expect.poll(() => stack.slack.callsOf("views.open").length).toBe(before + 1);
    return viewOf(stack.slack.callsOf("views.open").at(-1)?.body ?? {});
  }

  /** Submits the create form; the new invoice's id, or the form's field errors. */
  async function create(amount: string, lifetime: string, remind: string) {
    const view = await openModal(`new ${amount} RUB customer Acme remind 1h`);
    const made = stack.fake.created.length;
    views += 1;
    const result = await stack.submitView({
      view,
      userId: ADMIN,
      viewId: `V0REMIND${views}`,
      values: {
        [CREATE_FIELDS.amount]: { value: amount },
        [CREATE_FIELDS.currency]: { selected: "RUB" },
        [CREATE_FIELDS.lifetime]: { value: lifetime },
        [CREATE_FIELDS.remind]: { selected: remind },
        [CREATE_FIELDS.customer]: { value: "Acme" },
      },
    });
    const errors = (result.json?.errors ?? undefined) as Record<string, string> | undefined;
    if (errors) return { errors, view };
    await expect.poll(() => stack.fake.created.length).toBe(made + 1);
    return { id: stack.fake.created.at(-1) ?? "", view };
  }

  it("opens the form with the reminder chosen, and says next to it when the link is too short for it", async () => {
    const { errors, view } = await create("100", "60", "60");
    expect(JSON.stringify(view)).toContain(
      '"initial_option":{"text":{"type":"plain_text","text":"1 hour before it expires"},"value":"60"}',
    );
    expect(errors?.[CREATE_FIELDS.remind]).toContain("needs a lifetime of more than 60 minutes");
  });

  it("reminds the creator once at its time; Copy link gives the link, Stop reminding says who stopped it", async () => {
    const { id } = await create("1500", "70", "60");
    await stack.pass("links");
    expect(reminders(ADMIN)).toHaveLength(0);
    shift += 10 * MINUTE;
    await stack.pass("links", 3);
    expect(reminders(ADMIN)).toHaveLength(1);
    const reminder = reminders(ADMIN)[0]?.body ?? {};
    const words = JSON.stringify(reminder);
    expect(words).toContain(id);
    expect(words).toContain("1,500.00 RUB");
    expect(words).toContain("Customer: Acme");
    expect(words).toContain("Europe/Berlin");
    const value = buttonValue(reminder, LINK_ACTIONS.copy);
    expect(buttonValue(reminder, LINK_ACTIONS.reissue)).toBe(value);
    const copied = await stack.press(LINK_ACTIONS.copy, value, { userId: ADMIN, channelId: "D0ADMIN" });
    expect(JSON.stringify(copied.reply.body)).toContain(`https://pay.crystalpay.io/?i=${id}`);
    expect(copied.reply.body.replace_original).toBe(false);
    const stopped = await stack.press(LINK_ACTIONS.stopReminding, value, {
      userId: ADMIN,
      channelId: "D0ADMIN",
    });
    expect(JSON.stringify(stopped.reply.body)).toContain("Reminders stopped by <@U0ADMIN>");
    expect(JSON.stringify(stopped.reply.body)).not.toContain(LINK_ACTIONS.copy);
    expect(stopped.reply.body.replace_original).toBe(true);
  });

  it("sends no reminder for a paid link; a creator who left gets theirs in the card's channel", async () => {
    const paid = await create("2500", "70", "60");
    const other = await create("3500", "70", "60");
    stack.fake.pay(paid.id ?? "");
    const before = reminders(ADMIN).length;
    stack.slack.users[ADMIN] = { is_admin: true, deleted: true };
    shift += 10 * MINUTE;
    await stack.pass("links", 2);
    expect(reminders(ADMIN)).toHaveLength(before);
    const here = reminders(CHANNEL);
    expect(here).toHaveLength(1);
    expect(JSON.stringify(here[0]?.body)).toContain(other.id ?? "?");
    expect(JSON.stringify(here[0]?.body)).toContain("is no longer in the workspace");
    const all = [...reminders(ADMIN), ...reminders(CHANNEL)].map((call) => JSON.stringify(call.body));
    expect(all.filter((body) => body.includes(paid.id ?? "?"))).toHaveLength(0);
  });

  it("a reminder whose sender stopped mid-send: left alone while its mark is fresh, then sent once, never twice", async () => {
    stack.slack.users[ADMIN] = { is_admin: true, tz: "Europe/Berlin" };
    const { id } = await create("4500", "70", "60");
    const sent = stack.fake.requests.filter((request) => request.path.endsWith("/invoice/create/")).at(-1);
    const ref = /kassa:([a-z2-7]{10})/.exec(String(sent?.body?.extra ?? ""))?.[1] ?? "";
    const mine = () => reminders(ADMIN).filter((call) => JSON.stringify(call.body).includes(id ?? "?"));
    shift += 10 * MINUTE;
    // As a take whose process was killed before Slack answered leaves the record: marked, not sent.
    await markSending(ref, Date.now() + shift);
    await stack.pass("links", 2);
    expect(mine()).toHaveLength(0);
    shift += REMIND_GRACE_MS;
    await stack.pass("links", 3);
    expect(mine()).toHaveLength(1);
    const repeat = stack.logEntries().filter((entry) => String(entry.msg).includes("may show twice"));
    expect(repeat.map((entry) => entry.link)).toEqual([linkKey(SANDBOX_TEAM.id, ref)]);
    shift += REMIND_GRACE_MS;
    await stack.pass("links", 2);
    expect(mine()).toHaveLength(1);
  });

  /** Writes the reminder's being-sent mark straight into the link's record, as a take does. */
  async function markSending(ref: string, since: number): Promise<void> {
    const store = await openStore(stack.env.STORE_URL ?? "");
    try {
      const written = await changeLink(
        await openClaimBoard(store),
        linkKey(SANDBOX_TEAM.id, ref),
        (stored) =>
          stored.value ? { next: { ...stored.value, reminding: since }, result: true } : { result: false },
      );
      expect(written).toBe(true);
    } finally {
      await store.close();
    }
  }
});
