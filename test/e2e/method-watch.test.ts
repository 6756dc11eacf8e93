/**
 * The payment methods watch through the real app, its clock moved by the test (a check every
 * METHOD_CHECK_MS, 5 minutes): 28 days of healthy history, then 9 of 14 invoices failing in an hour
 * (one alert, nothing more while it lasts), healthy again (one line in the alert's thread after
 * METHOD_CALM_MS), a method that stops being paid (one silence alert), Snooze and Methods, changes
 * made outside Kassa (posted once, audited), and failing reads (one note an hour).
 *
 * The watch is turned on through MethodWatches.set on the app's store (the `/paymethods watch` form
 * is built apart); the outside changes edit the sandbox's method table directly. Each check reads
 * 28 days of kept history: the tests with many checks are given a minute.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SANDBOX_TEAM } from "../../sandbox/slack.js";
import { Stack } from "../../sandbox/stack.js";
import { openAuditTrail } from "../../src/audit/index.js";
import { methodAlertButton } from "../../src/blocks/button-values.js";
import { METHOD_ALERT_ACTIONS } from "../../src/blocks/ids.js";
import { methodWatchesFor } from "../../src/method-watch/index.js";
import { DEFAULT_FAILURE_RULE, DEFAULT_SILENCE_RULE } from "../../src/method-watch/state.js";
import type { KeyvStore } from "../../src/store/connection.js";
import { openStore } from "../../src/store/keyv.js";
import { expectWithinBlockKitLimits } from "../support/block-kit-limits.js";
import { clockReading } from "../support/manual-clock.js";
import { healthyHistory, MIN, methodInvoice, postsIn } from "../support/method-history.js";

const ADMIN = "U0ADMIN";
const MEMBER = "U0MEMBER";
const ALERTS = "C0METHODS";
const TEAM = SANDBOX_TEAM.id;
const HOUR = 60 * MIN;
/** On the hour: the history's payments come at :00 and :30 (BITCOIN), :15 and :45 (USDTTRC). */
const T0 = Math.floor(Date.now() / HOUR) * HOUR;

describe("the payment methods watch", () => {
  let stack: Stack;
  let store: KeyvStore;
  let at = T0;
  const posts = () => postsIn(stack, ALERTS);
  const alerts = () => posts().filter((post) => post.threadTs === undefined);
  const inThread = (ts: string | undefined) => posts().filter((post) => post.threadTs === ts);
  const add = (method: string, state: string, minute: number) => {
    const invoice = methodInvoice(method, state, T0 + minute * MIN);
    stack.fake.invoices.set(invoice.id, invoice);
  };
  /** Time moves on by one check interval (the history changed first), then the watch's pass. */
  const check = async () => {
    at += 5 * MIN;
    await stack.pass("methodWatch");
  };
  /** Checks every 5 minutes until `minute`, paying `methods` a minute before each. */
  const checksUntil = async (minute: number, methods: string[]) => {
    while (at < T0 + minute * MIN) {
      const next = (at - T0) / MIN + 5;
      for (const method of methods) add(method, "payed", next - 1);
      await check();
    }
  };

  beforeAll(async () => {
    stack = await Stack.start({
      clock: clockReading(() => new Date(at)),
      env: { METHOD_CHECK_MS: "300000", METHOD_CALM_MS: "1800000" },
      fake: { invoices: healthyHistory(T0) },
    });
    stack.slack.users[ADMIN] = { is_admin: true };
    stack.slack.users[MEMBER] = {};
    store = await openStore(stack.env.STORE_URL ?? "");
    const settings = { failure: DEFAULT_FAILURE_RULE, silence: DEFAULT_SILENCE_RULE, by: ADMIN };
    await methodWatchesFor(store, 3000).set(
      TEAM,
      { channel: ALERTS, mention: [ADMIN], ...settings, at: new Date(at).toISOString() },
      at,
    );
  });
  afterAll(async () => {
    await store?.close();
    await stack?.stop();
  });

  it("first notes what is there and says nothing of a healthy register", async () => {
    await check();
    await check();
    expect(posts()).toEqual([]);
    expect(stack.logs.filter((line) => line.includes("methods watch check failed"))).toEqual([]);
  }, 60_000);

  it("says once that 9 of 14 invoices failed in an hour, and nothing more while it lasts", async () => {
    for (let i = 0; i < 14; i += 1)
      add("BITCOIN", i % 3 === 2 ? "payed" : i === 13 ? "payed" : "failed", -40 + i * 3);
    add("USDTTRC", "payed", -30);
    add("USDTTRC", "payed", 5);
    await check();
    expect(alerts()).toHaveLength(1);
    const alert = alerts()[0];
    expectWithinBlockKitLimits(alert);
    const shown = JSON.stringify(alert?.blocks);
    expect(shown).toContain(`<@${ADMIN}>`);
    expect(shown).toContain("*Bitcoin* `BITCOIN` is failing");
    expect(shown).toContain("9 of 14 invoices failed or were unavailable in the last 1 h (64 %)");
    expect(shown).toContain("Usually 5 % fail.");
    expect(shown).toContain("Last payment: <!date^");
    for (const id of Object.values(METHOD_ALERT_ACTIONS)) expect(shown).toContain(id);
    // Still failing, checked again and again: nothing more.
    await check();
    await check();
    expect(posts()).toHaveLength(1);
  }, 60_000);

  it("healthy again: one line in the alert's thread once calm for METHOD_CALM_MS", async () => {
    const alertTs = alerts()[0]?.ts;
    await checksUntil(100, ["BITCOIN", "USDTTRC"]);
    const lines = posts().filter((post) => post.threadTs !== undefined);
    expect(lines).toHaveLength(1);
    expect(lines[0]?.threadTs).toBe(alertTs);
    expect(JSON.stringify(lines[0]?.blocks)).toContain(
      "is back to normal: failures have stayed below 20 % for 30 min",
    );
    await checksUntil(110, ["BITCOIN", "USDTTRC"]);
    expect(posts()).toHaveLength(2);
  }, 60_000);

  it("says once that a method usually paid has not been paid for too long", async () => {
    // USDTTRC stops being paid; BITCOIN goes on.
    // USDTTRC's last payment came at T0 + 1 h 49 min: 2 h later the watch speaks (the floor of its rule).
    await checksUntil(225, ["BITCOIN"]);
    expect(alerts()).toHaveLength(1);
    await checksUntil(230, ["BITCOIN"]);
    expect(alerts()).toHaveLength(2);
    const silent = JSON.stringify(alerts()[1]?.blocks);
    expect(silent).toContain("`USDTTRC` has not been paid for 2 h");
    expect(silent).toContain("the watch speaks after 2 h");
    await checksUntil(250, ["BITCOIN"]);
    expect(alerts()).toHaveLength(2);
  }, 60_000);

  it("Snooze: said in the alert's thread, audited; Methods: the list privately", async () => {
    const ts = alerts()[1]?.ts ?? "";
    const value = methodAlertButton.write({ r: "main", c: "USDTTRC" });
    const where = {
      userId: MEMBER,
      channelId: ALERTS,
      messageTs: ts,
      message: { type: "message", ts, text: "", blocks: [] },
    };
    const pressed = await stack.action(METHOD_ALERT_ACTIONS.snooze, value, where);
    expect(pressed.status).toBe(200);
    await expect.poll(() => inThread(ts).length, { timeout: 5000 }).toBe(1);
    expect(JSON.stringify(inThread(ts)[0]?.blocks)).toContain(
      `<@${MEMBER}> snoozed the alerts about \`USDTTRC\` until`,
    );
    const methods = await stack.press(METHOD_ALERT_ACTIONS.methods, value, where);
    expect(methods.reply.body.response_type).toBe("ephemeral");
    expect(JSON.stringify(methods.reply.body)).toContain("USDTTRC");
    // Snoozed for 2 h: still silent, nothing said.
    await checksUntil(300, ["BITCOIN"]);
    expect(alerts()).toHaveLength(2);
    const trail = await openAuditTrail(store, { retentionDays: 30 });
    const snoozed = (await trail.list(TEAM, { action: "method.snoozed", limit: 10 })).entries;
    expect(snoozed.map((one) => one.entry)).toEqual([
      expect.objectContaining({ actor: MEMBER, object: "method USDTTRC", outcome: "done" }),
    ]);
  }, 60_000);

  it("posts a change made outside Kassa once, and audits it", async () => {
    const bitcoin = stack.fake.methods.find((method) => method.code === "BITCOIN");
    const usdt = stack.fake.methods.find((method) => method.code === "USDTTRC");
    if (!bitcoin || !usdt) throw new Error("the sandbox lists no BITCOIN or USDTTRC");
    bitcoin.extraCommissionPercent = "10";
    usdt.enabled = false;
    const before = alerts().length;
    await checksUntil(310, ["BITCOIN"]);
    expect(alerts()).toHaveLength(before + 1);
    const news = alerts().at(-1);
    expectWithinBlockKitLimits(news);
    expect(news?.text).toContain("Bitcoin BITCOIN surcharge 0.5 % → 10 %, made outside Kassa");
    expect(news?.text).toContain("USDT TRC-20 USDTTRC switched off, outside Kassa");
    await checksUntil(330, ["BITCOIN"]);
    expect(alerts()).toHaveLength(before + 1);
    const trail = await openAuditTrail(store, { retentionDays: 30 });
    const outside = (await trail.list(TEAM, { action: "method.outside", limit: 10 })).entries.map(
      (one) => one.entry,
    );
    expect(outside).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          actor: "kassa",
          object: "method BITCOIN",
          after: expect.objectContaining({ surcharge: "10" }),
        }),
        expect.objectContaining({
          actor: "kassa",
          object: "method USDTTRC",
          after: expect.objectContaining({ on: false }),
        }),
      ]),
    );
    expect(outside).toHaveLength(2);
  }, 60_000);

  it("says failing reads after an hour of them, then at most once an hour", async () => {
    stack.fake.methodsFault = "html502";
    const before = posts().length;
    const failing = () =>
      posts()
        .slice(before)
        .filter((post) => post.text.includes("has not been able to read"));
    await checksUntil(330 + 55, []);
    expect(posts()).toHaveLength(before);
    await checksUntil(330 + 65, []);
    expect(failing()).toHaveLength(1);
    await checksUntil(330 + 115, []);
    expect(failing()).toHaveLength(1);
    await checksUntil(330 + 125, []);
    expect(failing()).toHaveLength(2);
    expect(posts()).toHaveLength(before + 2);
    stack.fake.methodsFault = null;
  }, 60_000);
});
