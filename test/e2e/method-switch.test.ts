/**
 * Switching payment methods and setting surcharges from Slack (issue 50 item 3), through the real app
 * against the sandbox service: `/paymethods off|on|surcharge` and the alert's Switch off, admins only,
 * a confirmation modal, one `method/edit` per confirmation, what the service shows reported.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { sampleMethods } from "../../sandbox/payments-samples.js";
import { Stack } from "../../sandbox/stack.js";
import { expectWithinBlockKitLimits } from "../support/block-kit-limits.js";
import {
  ADMIN,
  asked,
  confirmed,
  MEMBER,
  methodActs,
  SWITCH_OFF,
  said,
  shown,
} from "../support/method-switch.js";

describe("switching methods (v2)", () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await Stack.start({ storeMemoMs: 0 });
    stack.slack.users[ADMIN] = { is_admin: true };
    stack.slack.users[MEMBER] = {};
  });
  afterEach(() => {
    stack.fake.methodEditFault = null;
    stack.fake.methodEdits.length = 0;
    stack.fake.methods = sampleMethods();
  });
  afterAll(async () => {
    await stack?.stop();
  });
  const command = (text: string, userId = ADMIN) =>
    stack.command(text, { command: "/paymethods", userId, channelId: "C0METHODS" });
  const bitcoin = () => stack.fake.methods.find((method) => method.code === "BITCOIN");

  it("refuses a member's command and click, saying who can; nothing opened or sent", async () => {
    const { reply } = await stack.ask("off BITCOIN", { command: "/paymethods", userId: MEMBER });
    expect(said(reply.body)).toContain("Only workspace admins and owners can switch payment methods");
    const click = await stack.press(SWITCH_OFF, JSON.stringify({ r: "main", c: "BITCOIN" }), {
      userId: MEMBER,
    });
    expect(said(click.reply.body)).toContain("Only workspace admins and owners can switch payment methods");
    expect(click.reply.body.replace_original).toBe(false);
    expect(stack.slack.callsOf("views.open")).toHaveLength(0);
    expect(stack.fake.methodEdits).toHaveLength(0);
    const refused = async () => (await methodActs(stack)).filter((entry) => entry.outcome === "refused");
    // The act is written once the person was answered.
    await expect.poll(async () => (await refused()).length).toBe(2);
    expect(await refused()).toEqual([
      expect.objectContaining({ action: "method.switched", actor: MEMBER, reason: "not an admin" }),
      expect.objectContaining({ action: "method.switched", actor: MEMBER, reason: "not an admin" }),
    ]);
  });

  it("an admin's switch: the confirmation says what payers will see; one edit for two submissions; the service's state shown", async () => {
    const modal = await asked(stack, () => command("off bitcoin"));
    expectWithinBlockKitLimits({ text: "modal", blocks: modal.view.blocks });
    expect(modal.view.callback_id).toBe("kassa_method_switch");
    expect(shown(modal.view)).toContain("*Bitcoin* `BITCOIN` · BTC");
    expect(shown(modal.view)).toContain("Now: *on* · surcharge 0.5 %");
    expect(shown(modal.view)).toContain(
      "Payers can no longer choose Bitcoin; invoices already open keep their method.",
    );
    const twice = await confirmed(stack, modal, 2);
    expect(twice.acks).toEqual([
      expect.objectContaining({ response_action: "update" }),
      expect.objectContaining({ response_action: "update" }),
    ]);
    expect(stack.fake.methodEdits).toHaveLength(1);
    // v2 takes all three fields: the surcharge is sent as it was.
    expect(stack.fake.methodEdits[0]?.fields).toEqual({
      method: "BITCOIN",
      enabled: false,
      extra_commission_percent: "0.5",
    });
    expect(bitcoin()?.enabled).toBe(false);
    const answers = twice.views.map(shown).join(" ");
    expect(answers).toContain("The payment service now shows *Bitcoin* `BITCOIN` *off*, surcharge 0.5 %.");
    expect(answers).toMatch(/under way|was handled|handled already/);
    const done = (await methodActs(stack)).filter((entry) => entry.outcome === "done");
    expect(done).toEqual([
      expect.objectContaining({
        action: "method.switched",
        actor: ADMIN,
        object: "method BITCOIN",
        before: { on: true, surcharge: "0.5" },
        after: { on: false, surcharge: "0.5" },
      }),
    ]);
  });

  it("a second click on a stale alert is answered 'already off, by … at …', nothing sent; the list says who", async () => {
    const first = await asked(stack, () => command("off BITCOIN"));
    await confirmed(stack, first);
    stack.fake.methodEdits.length = 0;
    const stale = await asked(stack, () =>
      stack.action(SWITCH_OFF, JSON.stringify({ r: "main", c: "BITCOIN" }), { userId: ADMIN }),
    );
    expect(shown(stale.view)).toContain(
      "*Bitcoin* `BITCOIN` is already off. Changed in Kassa by <@U0ADMIN> at <!date^",
    );
    expect(stack.fake.methodEdits).toHaveLength(0);
    const list = await stack.ask("", { command: "/paymethods", userId: MEMBER });
    expect(said(list.reply.body)).toContain("_switched off by <@U0ADMIN>, <!date^");
  });

  it("refuses switching off the last incoming method on, before anything is sent", async () => {
    stack.fake.methods = sampleMethods().filter((method) =>
      ["BITCOIN", "DASH", "TEST"].includes(method.code),
    );
    const dash = stack.fake.methods.find((method) => method.code === "DASH");
    if (dash) dash.enabled = false;
    const modal = await asked(stack, () => command("off BITCOIN"));
    expect(shown(modal.view)).toContain("is the last incoming method on");
    expect(modal.view.private_metadata).toBeUndefined();
    expect(stack.fake.methodEdits).toHaveLength(0);
  });

  it("an edit applied but answered 502: the modal shows what the service shows", async () => {
    const modal = await asked(stack, () => command("off BITCOIN"));
    stack.fake.methodEditFault = "applied-502";
    const answer = await confirmed(stack, modal);
    expect(stack.fake.methodEdits).toHaveLength(1);
    expect(shown(answer.view)).toContain("The payment service now shows *Bitcoin* `BITCOIN` *off*");
    expect((await methodActs(stack)).at(0)).toMatchObject({ action: "method.switched", outcome: "done" });
  });

  it("a refusal is shown in the service's own words; nothing is recorded as changed", async () => {
    const modal = await asked(stack, () => command("off BITCOIN"));
    stack.fake.methodEditFault = "refuse";
    const answer = await confirmed(stack, modal);
    expect(shown(answer.view)).toContain(
      "The payment service refused: “Editing payment methods is not available for this cash register now”. Nothing was changed.",
    );
    expect(bitcoin()?.enabled).toBe(true);
    expect((await methodActs(stack)).at(0)).toMatchObject({
      action: "method.switched",
      outcome: "refused",
      reason: "Editing payment methods is not available for this cash register now",
    });
    const list = await stack.ask("bitcoin", { command: "/paymethods", userId: MEMBER });
    expect(said(list.reply.body)).not.toContain("switched off by");
  });

  it("sets a surcharge: v2 sends the switch unchanged; payers are told what they pay", async () => {
    const modal = await asked(stack, () => command("surcharge BITCOIN 10"));
    expect(shown(modal.view)).toContain("Payers pay 10 % more with Bitcoin.");
    const answer = await confirmed(stack, modal);
    expect(stack.fake.methodEdits.map((edit: { fields: unknown }) => edit.fields)).toEqual([
      { method: "BITCOIN", enabled: true, extra_commission_percent: "10" },
    ]);
    expect(shown(answer.view)).toContain("*on*, surcharge 10 %.");
    expect((await methodActs(stack)).at(0)).toMatchObject({
      action: "method.surcharge_set",
      outcome: "done",
      after: { on: true, surcharge: "10" },
    });
    const list = await stack.ask("bitcoin", { command: "/paymethods" });
    expect(said(list.reply.body)).toContain("_surcharge set to 10 % by <@U0ADMIN>, <!date^");
  });
});
