/**
 * `/paymethods watch` through the real app (signed commands and form submissions): a member refused,
 * the form opened with the defaults, bad figures refused next to their fields, an admin's save
 * (stored, announced in the alert channel, audited, the form reopened with it), Kassa not in the
 * channel, `watch off`, a disconnect forgetting the watch, and the words in Russian.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SANDBOX_TEAM } from "../../sandbox/slack.js";
import { Stack } from "../../sandbox/stack.js";
import { type AuditAction, openAuditTrail } from "../../src/audit/index.js";
import { type MethodWatchState, readWatch } from "../../src/method-watch/state.js";
import { openClaimBoard } from "../../src/store/claims/index.js";
import { openStore } from "../../src/store/keyv.js";
import { expectWithinBlockKitLimits } from "../support/block-kit-limits.js";
import { englishWords } from "../support/english-words.js";
import { type OpenedView as View, viewOf } from "../support/views.js";

const TEAM = SANDBOX_TEAM.id;
const ADMIN = "U0ADMIN";
const MEMBER = "U0MEMBER";
const ASKED = "C0ASKED";
const ALERTS = "C0ALERTS";

const FORM = {
  mwatch_channel: { conversation: ALERTS },
  mwatch_mention: { users: ["U0ANNA"] },
  mwatch_share: { value: "50 %" },
  mwatch_min: { value: "10" },
  mwatch_window: { value: "30" },
  mwatch_silence: { selected: "usual" },
  mwatch_factor: { value: "3" },
  mwatch_floor: { value: "4" },
  mwatch_hours: { value: "24" },
};

const text = (value: unknown) => JSON.stringify(value);

/** What Kassa posted in `channel` with chat.postMessage, oldest first, blocks parsed. */
const postedIn = (stack: Stack, channel: string) =>
  stack.slack
    .callsOf("chat.postMessage")
    .filter((call) => call.body.channel === channel)
    .map((call) => ({
      text: call.body.text,
      blocks: typeof call.body.blocks === "string" ? JSON.parse(call.body.blocks) : call.body.blocks,
    }));

describe("/paymethods watch", () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await Stack.start({ storeMemoMs: 0 });
    stack.slack.users[ADMIN] = { is_admin: true };
    stack.slack.users[MEMBER] = {};
  });
  afterAll(async () => {
    await stack?.stop();
  });

  /** The register's stored watch, read from the store the app uses. */
  async function storedWatch(): Promise<MethodWatchState> {
    const store = await openStore(stack.env.STORE_URL ?? "");
    try {
      return await readWatch(await openClaimBoard(store), TEAM);
    } finally {
      await store.close();
    }
  }

  async function acts(action: AuditAction) {
    const store = await openStore(stack.env.STORE_URL ?? "");
    try {
      const trail = await openAuditTrail(store, { retentionDays: 30 });
      return (await trail.list(TEAM, { action, limit: 20 })).entries.map((one) => one.entry);
    } finally {
      await store.close();
    }
  }

  /** Runs `/paymethods watch` as the admin and returns the form Slack was asked to open. */
  async function openForm(): Promise<View> {
    const before = stack.slack.callsOf("views.open").length;
    const ack = await stack.command("watch", { command: "/paymethods", userId: ADMIN, channelId: ASKED });
    expect(ack.status).toBe(200);
    await expect.poll(() => stack.slack.callsOf("views.open").length).toBe(before + 1);
    return viewOf(stack.slack.callsOf("views.open").at(-1)?.body ?? {});
  }

  it("refuses a member, saying who can, and opens nothing", async () => {
    for (const words of ["watch", "watch off"]) {
      const { reply } = await stack.ask(words, { command: "/paymethods", userId: MEMBER });
      expect(text(reply.body)).toContain(
        "Only workspace admins and owners can set up the payment methods watch",
      );
    }
    expect(stack.slack.callsOf("views.open")).toHaveLength(0);
    await expect
      .poll(async () => (await acts("act.refused")).map((one) => one?.object))
      .toEqual(expect.arrayContaining(["/paymethods watch", "/paymethods watch off"]));
  });

  it("opens the form with the defaults and the channel it was asked in", async () => {
    const view = await openForm();
    expect(view.callback_id).toBe("kassa_method_watch");
    const shown = text(view);
    for (const initial of ['"40"', '"8"', '"60"', '"4"', '"2"'])
      expect(shown).toContain(`"initial_value":${initial}`);
    expect(shown).toContain(`"initial_conversation":"${ASKED}"`);
    expect(shown).toMatch(
      /"initial_option":\{"text":\{"type":"plain_text","text":"From the register's history/,
    );
  });

  it("refuses bad figures next to their fields, and saves nothing", async () => {
    const view = await openForm();
    const refused = await stack.submitView({
      view,
      values: {
        ...FORM,
        mwatch_share: { value: "150" },
        mwatch_min: { value: "" },
        mwatch_window: { value: "an hour" },
        mwatch_silence: { selected: "fixed" },
        mwatch_hours: { value: "2.5" },
      },
      userId: ADMIN,
    });
    expect(refused.json).toEqual({
      response_action: "errors",
      errors: {
        mwatch_share: "A whole number from 1 to 100.",
        mwatch_min: "Fill this in.",
        mwatch_window: "A whole number from 5 to 1440.",
        mwatch_hours: "A whole number from 1 to 336.",
      },
    });
    // A member's submission of an admin's form is refused all the same.
    const member = await stack.submitView({ view, values: FORM, userId: MEMBER });
    expect(text(member.json)).toContain(
      "Only workspace admins and owners can set up the payment methods watch",
    );
    expect((await storedWatch()).settings).toBeUndefined();
    expect(await acts("method.watch_set")).toEqual([]);
  });

  it("an admin saves the watch: stored, announced in the alert channel, audited, reopened with it", async () => {
    const saved = await stack.submitView({ view: await openForm(), values: FORM, userId: ADMIN });
    expect(saved.status).toBe(200);
    expect(saved.json).toBeNull();
    expect((await storedWatch()).settings).toMatchObject({
      channel: ALERTS,
      mention: ["U0ANNA"],
      failure: { sharePercent: 50, minInvoices: 10, windowMinutes: 30 },
      silence: { mode: "usual", factor: 3, floorHours: 4 },
      by: ADMIN,
    });
    await expect.poll(() => postedIn(stack, ALERTS)).toHaveLength(1);
    const announced = postedIn(stack, ALERTS)[0];
    expectWithinBlockKitLimits(announced);
    expect(text(announced)).toContain("<@U0ADMIN> turned on the payment methods watch. ");
    expect(text(announced)).toContain("Its alerts come here, mentioning <@U0ANNA>.");
    expect(text(announced)).toContain("at least 50 % of at least 10 invoices with one method failed");
    expect(text(announced)).toContain("within 30 minutes");
    expect(text(announced)).toContain("for 3 times its usual gap at that hour of day");
    expect(text(announced)).toContain("The first check comes within 5 minutes");
    await expect.poll(() => stack.slack.callsOf("chat.postEphemeral").length).toBeGreaterThan(0);
    const note = stack.slack.callsOf("chat.postEphemeral").at(-1)?.body;
    expect(note?.channel).toBe(ASKED);
    expect(text(note)).toContain(`The payment methods watch is on: alerts go to <#${ALERTS}>`);
    await expect.poll(async () => (await acts("method.watch_set")).length).toBe(1);
    expect(await acts("method.watch_set")).toEqual([
      expect.objectContaining({
        actor: ADMIN,
        object: "methods watch main",
        outcome: "done",
        after: {
          channel: ALERTS,
          mention: ["U0ANNA"],
          failure: { sharePercent: 50, minInvoices: 10, windowMinutes: 30 },
          silence: { mode: "usual", factor: 3, floorHours: 4 },
        },
      }),
    ]);

    const reopened = text(await openForm());
    expect(reopened).toContain(`"initial_conversation":"${ALERTS}"`);
    expect(reopened).toContain('"initial_users":["U0ANNA"]');
    expect(reopened).toContain('"initial_value":"50"');
  });

  it("a change is announced as a change, and audited with what changed only", async () => {
    const changed = await stack.submitView({
      view: await openForm(),
      values: { ...FORM, mwatch_silence: { selected: "fixed" }, mwatch_hours: { value: "12h" } },
      userId: ADMIN,
    });
    expect(changed.json).toBeNull();
    await expect.poll(() => postedIn(stack, ALERTS)).toHaveLength(2);
    expect(text(postedIn(stack, ALERTS)[1])).toContain("<@U0ADMIN> changed the payment methods watch.");
    expect(text(postedIn(stack, ALERTS)[1])).toContain("no paid invoice with a usually paid method for 12 h");
    // The act is written once the form is answered: after the announcement, maybe.
    await expect.poll(async () => (await acts("method.watch_set")).length).toBe(2);
    const [latest] = await acts("method.watch_set");
    expect(latest).toMatchObject({
      before: { silence: { mode: "usual", factor: 3, floorHours: 4 } },
      after: { silence: { mode: "fixed", hours: 12 } },
    });
  });

  it("saves with Kassa not in the alert channel, and warns the admin that alerts will not arrive", async () => {
    stack.slack.failChannel("C0PRIVATE", "not_in_channel");
    const saved = await stack.submitView({
      view: await openForm(),
      values: { ...FORM, mwatch_channel: { conversation: "C0PRIVATE" } },
      userId: ADMIN,
    });
    expect(saved.json).toBeNull();
    await expect
      .poll(() => text(stack.slack.callsOf("chat.postEphemeral").at(-1)?.body))
      .toContain("Kassa is not in <#C0PRIVATE>");
    expect((await storedWatch()).settings?.channel).toBe("C0PRIVATE");
    const back = await stack.submitView({ view: await openForm(), values: FORM, userId: ADMIN });
    expect(back.json).toBeNull();
    await expect.poll(() => postedIn(stack, ALERTS)).toHaveLength(3);
    expect((await storedWatch()).settings?.channel).toBe(ALERTS);
  });

  it("`watch off` turns it off, says so in the alert channel and audits it; again, it was not on", async () => {
    const before = postedIn(stack, ALERTS).length;
    const { reply } = await stack.ask("watch off", { command: "/paymethods", userId: ADMIN });
    expect(text(reply.body)).toContain(
      "The payment methods watch is off. `/paymethods watch` turns it on again.",
    );
    expect((await storedWatch()).settings).toBeUndefined();
    await expect.poll(() => postedIn(stack, ALERTS).length).toBe(before + 1);
    expect(text(postedIn(stack, ALERTS).at(-1))).toContain("<@U0ADMIN> turned off the payment methods watch");
    const again = await stack.ask("watch off", { command: "/paymethods", userId: ADMIN });
    expect(text(again.reply.body)).toContain("The payment methods watch was not on.");
    await expect.poll(async () => (await acts("method.watch_off")).length).toBe(1);
    expect(await acts("method.watch_off")).toEqual([
      expect.objectContaining({ actor: ADMIN, object: "methods watch main", before: expect.anything() }),
    ]);
  });

  it("a disconnect forgets the watch", async () => {
    expect((await stack.submitView({ view: await openForm(), values: FORM, userId: ADMIN })).json).toBeNull();
    await expect.poll(async () => (await storedWatch()).settings?.channel).toBe(ALERTS);
    const done = await stack.press("kassa_disconnect", JSON.stringify({ t: TEAM }), { userId: ADMIN });
    expect(text(done.reply.body)).toContain(`Disconnected by <@${ADMIN}>`);
    expect((await storedWatch()).settings).toBeUndefined();
    const { reply } = await stack.ask("watch", { command: "/paymethods", userId: ADMIN });
    expect(text(reply.body)).toContain("/invoice connect");
  });
});

describe("/paymethods watch in Russian", () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await Stack.start({ storeMemoMs: 0 });
    stack.slack.users[ADMIN] = { is_admin: true };
    expect((await stack.ask("language ru", { userId: ADMIN })).ack.status).toBe(200);
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it("the form, its refusals and the announcement are in Russian", async () => {
    await stack.command("watch", { command: "/paymethods", userId: ADMIN, channelId: ASKED });
    await expect.poll(() => stack.slack.callsOf("views.open").length).toBe(1);
    const view = viewOf(stack.slack.callsOf("views.open")[0]?.body ?? {});
    expect(text(view)).toContain("Наблюдение за методами");
    expect(englishWords(view, ["main"])).toEqual([]);
    const refused = await stack.submitView({
      view,
      values: { ...FORM, mwatch_min: { value: "0" } },
      userId: ADMIN,
    });
    expect(refused.json).toEqual({
      response_action: "errors",
      errors: { mwatch_min: "Целое число от 1 до 10000." },
    });
    expect((await stack.submitView({ view, values: FORM, userId: ADMIN })).json).toBeNull();
    await expect.poll(() => postedIn(stack, ALERTS)).toHaveLength(1);
    const announced = postedIn(stack, ALERTS)[0];
    expect(text(announced)).toContain("включил(а) наблюдение за методами оплаты");
    expect(text(announced)).toContain("за 30 минут по одному методу создано не меньше 10 счетов");
    expect(text(announced)).toContain("в 3 раза дольше обычного");
    expect(text(announced)).toContain("в течение 5 минут");
    expect(englishWords(announced)).toEqual([]);
  });
});
