/**
 * Method switches on v3 (only what changes is sent; the method read back with method/get), and a
 * switch whose answer is lost in a time-out: "not sure", then settled by the next read of the method
 * (the list's Refresh, or the methods watch's check), or given up after ten minutes without the read
 * showing it.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { sampleMethods } from "../../sandbox/payments-samples.js";
import { SANDBOX_TEAM } from "../../sandbox/slack.js";
import { Stack } from "../../sandbox/stack.js";
import { methodWatchesFor } from "../../src/method-watch/index.js";
import { DEFAULT_FAILURE_RULE, DEFAULT_SILENCE_RULE } from "../../src/method-watch/state.js";
import { openStore } from "../../src/store/keyv.js";
import { clockReading } from "../support/manual-clock.js";
import { postsIn } from "../support/method-history.js";
import { ADMIN, asked, confirmed, methodActs, said, shown } from "../support/method-switch.js";

const TEAM = SANDBOX_TEAM.id;
const WATCH = "C0WATCH";
const command = (stack: Stack, text: string) =>
  stack.command(text, { command: "/paymethods", userId: ADMIN, channelId: "C0METHODS" });

describe("switching methods (v3)", () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await Stack.start({ apiVersion: "v3", storeMemoMs: 0 });
    stack.slack.users[ADMIN] = { is_admin: true };
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it("sends only the switch, reads the method back with method/get, and shows what it shows", async () => {
    const modal = await asked(stack, () => command(stack, "off USDTTRC"));
    expect(shown(modal.view)).toContain("*USDT TRC-20* `USDTTRC` · USDT");
    expect(shown(modal.view)).toContain("surcharge 0.2 %");
    const answer = await confirmed(stack, modal);
    expect(stack.fake.methodEdits.map((edit: { fields: unknown }) => edit.fields)).toEqual([
      { method: "USDTTRC", enabled: false },
    ]);
    expect(shown(answer.view)).toContain(
      "The payment service now shows *USDT TRC-20* `USDTTRC` *off*, surcharge 0.2 %.",
    );
    const paths = stack.fake.requests.map((request: { path: string }) => request.path);
    expect(paths.filter((path: string) => path.includes("method/get"))).not.toHaveLength(0);
  });

  it("switching on a method the service itself keeps closed says payers still cannot choose it", async () => {
    const closed = stack.fake.methods.find((method) => method.code === "ETHCRYPTOBOT");
    if (closed) closed.serviceDisabled = true;
    const modal = await asked(stack, () => command(stack, "on ETHCRYPTOBOT"));
    expect(shown(modal.view)).toContain(
      "still stays closed to payers until the payment service itself opens it",
    );
  });

  it("answers a method the service does not list, and sends nothing", async () => {
    stack.fake.methodEdits.length = 0;
    const modal = await asked(stack, () => command(stack, "off NOSUCHMETHOD"));
    expect(shown(modal.view)).toContain("lists no method `NOSUCHMETHOD`");
    expect(stack.fake.methodEdits).toHaveLength(0);
  });
});

describe("a switch whose answer is lost", () => {
  let stack: Stack;
  let shift = 0;
  beforeAll(async () => {
    stack = await Stack.start({
      storeMemoMs: 0,
      env: { PAYMENTS_TIMEOUT_MS: "300" },
      fake: { slowMs: 2500 },
      clock: clockReading(() => new Date(Date.now() + shift)),
    });
    stack.slack.users[ADMIN] = { is_admin: true };
  });
  afterEach(() => {
    stack.fake.methodEditFault = null;
  });
  afterAll(async () => {
    await stack?.stop();
  });
  const refreshList = () => stack.press("paymethods_refresh", JSON.stringify({ f: "bitcoin", p: 1 }));

  it("is 'not sure' until a later read shows the change: then it is recorded as done", async () => {
    const modal = await asked(stack, () => command(stack, "off BITCOIN"));
    stack.fake.methodEditFault = "slow";
    const answer = await confirmed(stack, modal);
    expect(shown(answer.view)).toContain("Not sure: the payment service did not confirm the change");
    expect(shown(answer.view)).toContain("It shows it *on*, surcharge 0.5 %, now.");
    expect(stack.fake.methodEdits).toHaveLength(1);
    expect(said((await refreshList()).reply.body)).toContain(
      "switching off asked by <@U0ADMIN>: not confirmed by the service yet",
    );
    // The service finishes its work; the next read of the method settles the switch.
    await expect.poll(() => stack.fake.methodEdits[0]?.applied).toBe(true);
    expect(said((await refreshList()).reply.body)).toContain("_switched off by <@U0ADMIN>, <!date^");
    await expect
      .poll(async () => (await methodActs(stack)).map((entry) => [entry.action, entry.outcome]))
      .toEqual([["method.switched", "done"]]);
    expect(stack.fake.methodEdits).toHaveLength(1);
  });

  it("is given up after ten minutes when no read shows it, and audited as failed", async () => {
    stack.fake.methods = sampleMethods();
    const modal = await asked(stack, () => command(stack, "surcharge BITCOIN 3"));
    stack.fake.methodEditFault = "slow";
    stack.fake.methodEditRefusal = [];
    await confirmed(stack, modal);
    // The service never makes the change (the method table is put back before it would).
    stack.fake.methods = sampleMethods();
    shift += 10 * 60_000 + 1000;
    const list = await refreshList();
    expect(said(list.reply.body)).not.toContain("surcharge 3 %");
    await expect
      .poll(async () => (await methodActs(stack)).at(0))
      .toMatchObject({ action: "method.surcharge_set", outcome: "failed", reason: "unsure" });
  });

  it("is settled by the methods watch's next check, which does not take it for a change made elsewhere", async () => {
    stack.fake.methods = sampleMethods();
    const store = await openStore(stack.env.STORE_URL ?? "");
    try {
      const now = Date.now() + shift;
      const settings = { failure: DEFAULT_FAILURE_RULE, silence: DEFAULT_SILENCE_RULE, by: ADMIN };
      const at = new Date(now).toISOString();
      await methodWatchesFor(store, 3000).set(TEAM, { channel: WATCH, mention: [], ...settings, at }, now);
    } finally {
      await store.close();
    }
    await stack.pass("methodWatch");
    const modal = await asked(stack, () => command(stack, "off LITECOIN"));
    stack.fake.methodEditFault = "slow";
    expect(shown((await confirmed(stack, modal)).view)).toContain("Not sure");
    await expect.poll(() => stack.fake.methodEdits.at(-1)?.applied).toBe(true);
    // The watch's next check, METHOD_CHECK_MS later.
    shift += 5 * 60_000;
    await stack.pass("methodWatch");
    await expect
      .poll(async () => (await methodActs(stack)).at(0))
      .toMatchObject({ action: "method.switched", object: "method LITECOIN", outcome: "done" });
    expect(
      postsIn(stack, WATCH)
        .map((post) => post.text)
        .join(" "),
    ).not.toContain("outside Kassa");
  });
});
