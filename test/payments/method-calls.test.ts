import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type FakePayments, payoutOnlyMethod, startFakePayments } from "../../sandbox/fake-payments.js";
import { PaymentsClient, type PaymentsClientOptions } from "../../src/payments/client.js";
import { ServiceError, UnexpectedResponseError, UnreachableError } from "../../src/payments/errors.js";
import { MethodNotListedError } from "../../src/payments/method-calls.js";
import type { ApiVersion, PaymentsAccount } from "../../src/payments/model.js";
import { closedPort } from "../support/ports.js";

const LOGIN = "shop_register";
const SECRET = "Sekr3t-4b1e77-do-not-leak";

let fake: FakePayments;

beforeEach(async () => {
  fake = await startFakePayments({ accounts: { [LOGIN]: SECRET }, slowMs: 1000 });
  fake.methods.push(payoutOnlyMethod());
});
afterEach(async () => {
  await fake.close();
});

function client(overrides: Partial<PaymentsClientOptions> = {}): PaymentsClient {
  return new PaymentsClient({
    baseUrl: fake.url,
    defaultVersion: "v2",
    timeoutMs: 2000,
    timeZone: "Europe/Moscow",
    retryDelayMs: 10,
    ...overrides,
  });
}

const account = (apiVersion: ApiVersion): PaymentsAccount => ({ login: LOGIN, secret: SECRET, apiVersion });
const bitcoin = () => fake.methods.find((m) => m.code === "BITCOIN");
const calls = (path: string) => fake.requests.filter((request) => request.path.endsWith(path));

async function failure(promise: Promise<unknown>): Promise<unknown> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(Error);
  expect(JSON.stringify(error)).not.toContain(SECRET);
  expect(String(error)).not.toContain(SECRET);
  return error;
}

describe("PaymentsClient.editMethod v2: all three fields, the unchanged ones from a fresh list", () => {
  it("switching off sends the surcharge as the list has it now", async () => {
    await client().editMethod(account("v2"), { code: "BITCOIN", on: false });
    expect(fake.methodEdits.map((edit) => edit.fields)).toEqual([
      { method: "BITCOIN", enabled: false, extra_commission_percent: "0.5" },
    ]);
    expect(calls("/v2/method/list/")).toHaveLength(1);
    expect(bitcoin()).toMatchObject({ enabled: false, extraCommissionPercent: "0.5" });
  });

  it("a surcharge sends the switch as it is, and a change made outside meanwhile is kept", async () => {
    fake.editMethodOutside("BITCOIN", { on: false });
    await client().editMethod(account("v2"), { code: "BITCOIN", surchargePercent: "10" });
    expect(fake.methodEdits.map((edit) => edit.fields)).toEqual([
      { method: "BITCOIN", enabled: false, extra_commission_percent: "10" },
    ]);
    expect(bitcoin()).toMatchObject({ enabled: false, extraCommissionPercent: "10" });
  });

  it("reads nothing first when the edit names both fields", async () => {
    await client().editMethod(account("v2"), { code: "BITCOIN", on: true, surchargePercent: "2.25" });
    expect(calls("/method/list/")).toHaveLength(0);
    expect(fake.methodEdits.map((edit) => edit.fields)).toEqual([
      { method: "BITCOIN", enabled: true, extra_commission_percent: "2.25" },
    ]);
  });

  it("a method the list does not have is refused before anything is sent", async () => {
    for (const code of ["NOSUCHMETHOD", "CARDRUBPAYOUT"]) {
      const error = await failure(client().editMethod(account("v2"), { code, on: false }));
      expect(error).toBeInstanceOf(MethodNotListedError);
      expect(error).toBeInstanceOf(ServiceError);
    }
    expect(fake.methodEdits).toEqual([]);
  });

  it("a failed list read fails the edit, nothing sent", async () => {
    fake.methodsFault = "html502";
    expect(
      await failure(client({ retries: 0 }).editMethod(account("v2"), { code: "BITCOIN", on: false })),
    ).toBeInstanceOf(UnreachableError);
    expect(fake.methodEdits).toEqual([]);
  });
});

describe("PaymentsClient.editMethod v3: only what changes", () => {
  it("sends the switch alone, or the surcharge alone, and reads nothing first", async () => {
    await client().editMethod(account("v3"), { code: "BITCOIN", on: false });
    await client().editMethod(account("v3"), { code: "BITCOIN", surchargePercent: "12.5" });
    expect(fake.methodEdits.map((edit) => [edit.version, edit.fields])).toEqual([
      ["v3", { method: "BITCOIN", enabled: false }],
      ["v3", { method: "BITCOIN", extra_commission_percent: "12.5" }],
    ]);
    expect(calls("/method/list/")).toHaveLength(0);
    expect(bitcoin()).toMatchObject({ enabled: false, extraCommissionPercent: "12.5" });
  });

  it("the service's refusal of an unknown method or a percent past 100 is a ServiceError in its words", async () => {
    const unknown = await failure(client().editMethod(account("v3"), { code: "NOSUCHMETHOD", on: true }));
    expect((unknown as ServiceError).messages).toEqual(["Method not found"]);
    const past = await failure(
      client().editMethod(account("v3"), { code: "BITCOIN", surchargePercent: "101" }),
    );
    expect((past as ServiceError).messages).toEqual(["`extra_commission_percent` must be from 0 to 100"]);
    expect(bitcoin()?.extraCommissionPercent).toBe("0.5");
  });
});

describe.each(["v2", "v3"] as const)("PaymentsClient.editMethod faults (%s): sent once", (version) => {
  it("refuse: a ServiceError with the service's words, nothing changed", async () => {
    fake.methodEditFault = "refuse";
    fake.methodEditRefusal = ["Method editing is disabled for this cash register"];
    const error = await failure(client().editMethod(account(version), { code: "BITCOIN", on: false }));
    expect(error).toBeInstanceOf(ServiceError);
    expect((error as ServiceError).messages).toEqual(["Method editing is disabled for this cash register"]);
    expect(fake.methodEdits).toHaveLength(1);
    expect(bitcoin()?.enabled).toBe(true);
  });

  it("applied-502: an UnreachableError (not sure), never sent again, though the change was made", async () => {
    fake.methodEditFault = "applied-502";
    const error = await failure(
      client({ retries: 3 }).editMethod(account(version), { code: "BITCOIN", on: false }),
    );
    expect(error).toMatchObject({ reason: "http-status", status: 502 });
    expect(error).toBeInstanceOf(UnreachableError);
    expect(fake.methodEdits).toHaveLength(1);
    expect(await client().getMethod(account(version), "BITCOIN")).toMatchObject({ switchedOn: false });
  });

  it("slow: a time-out (not sure), never sent again; the change lands once the service is done", async () => {
    fake.methodEditFault = "slow";
    const error = await failure(
      client({ retries: 3, timeoutMs: 300 }).editMethod(account(version), { code: "BITCOIN", on: false }),
    );
    expect(error).toMatchObject({ reason: "timeout" });
    expect(await client().getMethod(account(version), "BITCOIN")).toMatchObject({ switchedOn: true });
    await expect.poll(() => fake.methodEdits[0]?.applied, { timeout: 3000 }).toBe(true);
    expect(await client().getMethod(account(version), "BITCOIN")).toMatchObject({ switchedOn: false });
    expect(fake.methodEdits).toHaveLength(1);
  });

  it("a refused connection (nothing sent) fails as unreachable", async () => {
    const closed = client({ baseUrl: `http://127.0.0.1:${await closedPort()}/` });
    const error = await failure(
      closed.editMethod(account(version), { code: "BITCOIN", on: true, surchargePercent: "1" }),
    );
    expect(error).toMatchObject({ reason: "network" });
  });
});

describe("PaymentsClient.editMethod: edits Kassa could never mean are refused before any call", () => {
  it.each([
    [{ code: "BIT COIN", on: false }, /not a method code/],
    [{ code: "BITCOIN" }, /nothing to change/],
    [{ code: "BITCOIN", surchargePercent: "1e2" }, /not a plain decimal/],
    [{ code: "BITCOIN", surchargePercent: "-1" }, /not a plain decimal/],
  ])("%o", async (edit, message) => {
    await expect(client().editMethod(account("v3"), edit)).rejects.toThrow(message);
    expect(fake.requests).toEqual([]);
  });
});

describe("PaymentsClient.getMethod", () => {
  it("v3 reads method/get: the merchant's switch apart from what payers get", async () => {
    const btc = bitcoin();
    if (btc) btc.serviceDisabled = true;
    const method = await client().getMethod(account("v3"), "BITCOIN");
    expect(method).toMatchObject({
      code: "BITCOIN",
      name: "Bitcoin",
      currency: "BTC",
      enabled: false,
      switchedOn: true,
      extraCommissionPercent: "0.5",
    });
    expect(calls("/v3/method/get/")).toHaveLength(1);
    expect(calls("/method/list/")).toHaveLength(0);
    const listed = (await client().listMethods(account("v3"))).methods.find((m) => m.code === "BITCOIN");
    expect(method).toEqual(listed);
  });

  it("v2 has no method/get: one fresh method list", async () => {
    fake.editMethodOutside("BITCOIN", { surchargePercent: "3" });
    expect(await client().getMethod(account("v2"), "BITCOIN")).toMatchObject({
      switchedOn: true,
      extraCommissionPercent: "3",
    });
    expect(calls("/v2/method/list/")).toHaveLength(1);
  });

  it.each(["v2", "v3"] as const)("%s: undefined for a method not listed, or payout-only", async (version) => {
    expect(await client().getMethod(account(version), "NOSUCHMETHOD")).toBeUndefined();
    expect(await client().getMethod(account(version), "CARDRUBPAYOUT")).toBeUndefined();
  });
});

describe("PaymentsClient.getMethod v3: answers that are not the method asked for", () => {
  let server: Server;
  let answers: Record<string, string>;
  beforeEach(async () => {
    server = createServer((req, res) => {
      req.resume();
      req.on("end", () => res.end(answers[new URL(req.url ?? "/", "http://x").pathname] ?? "{}"));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  });
  afterEach(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const local = () => client({ baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/` });
  const entry = {
    name: "Bitcoin",
    currency: "BTC",
    in: { enabled: true, commissions: { percent: "1", amount: "0" } },
    settings: { in: { enabled: true, extra_commissions: { percent: "0", amount: "0" } } },
  };
  const list = JSON.stringify({ error: false, errors: [], items: { BITCOIN: entry } });
  const got = (method: string) => JSON.stringify({ error: false, errors: [], method, ...entry });

  it("another method's answer is unexpected; the one asked for is read", async () => {
    answers = { "/v3/method/get/": got("DOGECOIN") };
    const error = await failure(local().getMethod(account("v3"), "BITCOIN"));
    expect(error).toBeInstanceOf(UnexpectedResponseError);
    expect(error).toMatchObject({ reason: "wrong-shape", detail: "asked for method BITCOIN, got DOGECOIN" });
    answers = { "/v3/method/get/": got("BITCOIN") };
    expect(await local().getMethod(account("v3"), "BITCOIN")).toMatchObject({
      code: "BITCOIN",
      switchedOn: true,
    });
  });

  it("a refusal of a method the list has is passed on, not taken for 'not listed'", async () => {
    answers = {
      "/v3/method/get/": JSON.stringify({ error: true, errors: ["Temporarily unavailable"] }),
      "/v3/method/list/": list,
    };
    const error = await failure(local().getMethod(account("v3"), "BITCOIN"));
    expect((error as ServiceError).messages).toEqual(["Temporarily unavailable"]);
  });
});
