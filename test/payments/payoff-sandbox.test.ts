import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type FakePayments, startFakePayments } from "../../sandbox/fake-payments.js";
import { phpNumber } from "../../sandbox/payoffs-render.js";
import { signatureMatches } from "../../src/callbacks/signature.js";
import { PaymentsClient } from "../../src/payments/client.js";
import type { ApiVersion } from "../../src/payments/model.js";
import { classifyPayoffRefusal } from "../../src/payments/payoff-errors.js";
import { isFinalPayoffState, type PayoffAccount } from "../../src/payments/payoff-model.js";

const LOGIN = "shop_register";
const SECRET = "Sekr3t-5e1f";
const SALT = "Salt2-0c9d";

let fake: FakePayments;
let receiver: { url: string; bodies: Record<string, unknown>[]; close(): Promise<void> };

/** Kassa's callback address stood in for: records what the service posts. */
async function startReceiver() {
  const bodies: Record<string, unknown>[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      bodies.push(JSON.parse(Buffer.concat(chunks).toString("utf8")));
      res.writeHead(200).end("ok");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/payments/callback/abc`,
    bodies,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

beforeEach(async () => {
  fake = await startFakePayments({ accounts: { [LOGIN]: SECRET }, salts: { [LOGIN]: SALT } });
  receiver = await startReceiver();
});

afterEach(async () => {
  await fake.close();
  await receiver.close();
});

const account = (version: ApiVersion): PayoffAccount => ({
  login: LOGIN,
  secret: SECRET,
  salt: SALT,
  apiVersion: version,
});
const client = (version: ApiVersion) =>
  new PaymentsClient({
    baseUrl: fake.url,
    defaultVersion: version,
    timeoutMs: 2000,
    timeZone: "Europe/Moscow",
  });

async function submitted(version: ApiVersion, amount = "250.5") {
  const payments = client(version);
  const quote = await payments.createPayoff(account(version), {
    amount,
    method: "CARDRUBP2P",
    wallet: "2200700012345678",
    subtractFrom: "amount",
    callbackUrl: receiver.url,
  });
  await payments.submitPayoff(account(version), quote.id);
  return quote.id;
}

describe("the sandbox's payout callback", () => {
  it.each(["v2", "v3"] as const)(
    "posts the ended payout, signed sha1(id:Secret 2), in %s's shape",
    async (version) => {
      const id = await submitted(version);
      expect(receiver.bodies).toEqual([]);
      fake.payoffs.finish(id, "payed", "https://explorer.example/tx/1");
      await expect
        .poll(() => fake.payoffs.callbacks)
        .toEqual([{ payoffId: id, url: receiver.url, status: 200 }]);
      const body = receiver.bodies[0] ?? {};
      expect(signatureMatches(id, String(body.signature), SALT)).toBe(true);
      expect(signatureMatches(id, String(body.signature), "another salt")).toBe(false);
      expect(body).toMatchObject({
        id,
        state: "payed",
        message: "https://explorer.example/tx/1",
        wallet: "2200700012345678",
      });
      if (version === "v2") {
        expect(body.amount).toBe(250.5);
        expect(body.currency).toBe("RUB");
        expect(body.extra).toBe("");
      } else {
        expect(body.amount).toBe("250.50");
        expect(body.amount_currency).toBe("RUB");
        expect(body.extra).toBeNull();
        expect(body.final_at).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
      }
    },
  );

  it("ends a submitted payout by itself when told to, failed with the service's reason", async () => {
    fake.payoffs.settle = { state: "failed", afterMs: 50, message: "Card is blocked" };
    const id = await submitted("v3");
    await expect.poll(() => receiver.bodies.length).toBe(1);
    expect(receiver.bodies[0]).toMatchObject({ id, state: "failed", message: "Card is blocked" });
    const info = await client("v3").payoffInfo(account("v3"), id);
    expect(info.state).toBe("failed");
    expect(isFinalPayoffState(info.state)).toBe(true);
  });

  it("can post a forged callback for the receiving end's tests", async () => {
    const id = await submitted("v2");
    fake.payoffs.finish(id, "payed");
    await expect.poll(() => receiver.bodies.length).toBe(1);
    await fake.payoffs.sendCallback(id, { amount: 999999, signature: "0".repeat(40) });
    expect(receiver.bodies[1]).toMatchObject({ id, amount: 999999, signature: "0".repeat(40) });
  });
});

describe("the sandbox's payout paths", () => {
  it("answers each history path in its own version only", async () => {
    const post = (path: string) =>
      fetch(`${fake.url}${path}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ auth_login: LOGIN, auth_secret: SECRET, page: 1, items: 10 }),
      });
    expect((await post("v3/history/payoffs/")).status).toBe(404);
    expect((await post("v2/report/payoff/history/")).status).toBe(404);
    expect(await (await post("v2/history/payoffs/")).json()).toEqual({
      error: false,
      errors: [],
      payoffs: [],
    });
  });

  it("refuses a payout call without the register's credentials", async () => {
    const response = await fetch(`${fake.url}v3/payoff/info/`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ auth_login: LOGIN, auth_secret: "nope", id: "1" }),
    });
    expect(await response.json()).toEqual({ error: true, errors: ["Invalid auth credentials"] });
  });

  it("writes v2 numbers as PHP does", () => {
    expect(phpNumber("0.00000001")).toBe("1.0e-8");
    expect(phpNumber("0.000015")).toBe("1.5e-5");
    expect(phpNumber("1500.10")).toBe("1500.1");
    expect(phpNumber("0")).toBe("0");
  });
});

describe("classifyPayoffRefusal", () => {
  it.each([
    [["Method not found"], "unknown-method"],
    [["Payoffs are not available for method CARDTRYP2P"], "unknown-method"],
    [["Amount is less than the minimum payout of 100 RUB for this method"], "limits"],
    [["Amount exceeds the maximum payout of 150000 RUB for this method"], "limits"],
    [["Insufficient funds on the balance"], "insufficient-funds"],
    [["Недостаточно средств на балансе"], "insufficient-funds"],
    [["Invalid signature"], "bad-signature"],
    [["Неверная подпись"], "bad-signature"],
    [["Payoff not found"], "not-found"],
    [["Payoff state is processing, expected created"], "wrong-state"],
    [["Invalid auth credentials"], "invalid-auth"],
    [["`wallet` field is required"], "missing-field"],
    [["Something else went wrong"], "other"],
  ] as const)("%j is %s", (messages, reason) => {
    expect(classifyPayoffRefusal(messages)).toBe(reason);
  });
});
