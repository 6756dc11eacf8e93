/**
 * A live card of another register's invoice: read with that register's credentials (never main's),
 * updated in place when paid, its header naming the register throughout, told once in its thread.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { moscowTime, SANDBOX_LOGIN } from "../../sandbox/fake-payments.js";
import { connectShopTwo, SHOP2, shopTwoInvoice, twoRegisterService } from "../../sandbox/second-register.js";
import type { PostedMessage } from "../../sandbox/slack.js";
import { Stack } from "../../sandbox/stack.js";

const SHOP2_LOGIN = SHOP2.login;
const hours = (h: number) => moscowTime(new Date(Date.now() + h * 3_600_000));
const text = (message: PostedMessage | undefined) => JSON.stringify(message?.blocks ?? []);
const loginsReading = (stack: Stack, id: string) =>
  stack.fake.requests
    .filter((request) => request.path.endsWith("/invoice/info/") && request.body?.id === id)
    .map((request) => (request.body as { auth_login?: string }).auth_login);

describe("live cards of a second register", () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await Stack.start({
      env: { WATCH_INTERVAL_MS: "100" },
      storeMemoMs: 0,
      fake: twoRegisterService([
        shopTwoInvoice("902211700_LiveShopTwo", {
          state: "notpayed",
          amount: "2500",
          createdAt: hours(-1),
          expiredAt: hours(5),
        }),
      ]),
    });
    await connectShopTwo(stack);
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it("is watched with its register's login, turns Paid in place, and keeps naming the register", async () => {
    const id = "902211700_LiveShopTwo";
    const { reply } = await stack.ask(id, { channelId: "C0LIVESHOP" });
    expect(reply.body.via).toBe("chat.postMessage");
    const card = stack.slack.messages.get(`C0LIVESHOP:${String(reply.body.ts)}`);
    expect(text(card)).toContain("shop2 · ");
    expect(text(card)).toContain("Live: Kassa is watching this invoice");
    await expect.poll(() => loginsReading(stack, id).length, { timeout: 10_000 }).toBeGreaterThanOrEqual(3);
    stack.fake.pay(id);
    await stack.slack.waitForMessages(() => stack.slack.threadOf("C0LIVESHOP", card?.ts ?? "").length === 1);
    expect(card?.text).toContain("Paid");
    expect(text(card)).toContain("shop2 · ");
    expect(text(card)).toContain(":white_check_mark: Paid");
    // The first read found it in shop2 after main said "not found"; every watch read used shop2's login.
    const logins = loginsReading(stack, id);
    expect(logins.slice(2)).toEqual(logins.slice(2).map(() => SHOP2_LOGIN));
    expect(logins.slice(0, 2)).toEqual([SANDBOX_LOGIN, SHOP2_LOGIN]);
  });
});
