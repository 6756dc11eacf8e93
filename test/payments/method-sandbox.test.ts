import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  type FakePayments,
  SANDBOX_LOGIN,
  SANDBOX_SECRET,
  startFakePayments,
} from "../../sandbox/fake-payments.js";

/** The fake's method/edit and method/get as the service's raw HTTP answers (the client is tested apart). */

let fake: FakePayments;

beforeEach(async () => {
  fake = await startFakePayments({ slowMs: 300 });
});
afterEach(async () => {
  await fake.close();
});

async function post(path: string, fields: Record<string, unknown>) {
  const response = await fetch(`${fake.url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ auth_login: SANDBOX_LOGIN, auth_secret: SANDBOX_SECRET, ...fields }),
  });
  const text = await response.text();
  return { status: response.status, text, json: (): Record<string, unknown> => JSON.parse(text) };
}

const bitcoin = () => fake.methods.find((m) => m.code === "BITCOIN");

describe("sandbox method/edit v2", () => {
  it("takes all three fields, changes the method and answers only the envelope", async () => {
    const answer = await post("v2/method/edit/", {
      method: "BITCOIN",
      enabled: false,
      extra_commission_percent: 10,
    });
    expect(answer.json()).toEqual({ error: false, errors: [] });
    expect(bitcoin()).toMatchObject({ enabled: false, extraCommissionPercent: "10" });
    expect(fake.methodEdits).toEqual([
      expect.objectContaining({
        version: "v2",
        login: SANDBOX_LOGIN,
        applied: true,
        fields: { method: "BITCOIN", enabled: false, extra_commission_percent: 10 },
      }),
    ]);
    const list = (await post("v2/method/list/", {})).json() as { methods: Record<string, unknown> };
    expect(list.methods.BITCOIN).toMatchObject({ enabled: false, extra_commission_percent: 10 });
  });

  it.each([
    [{ method: "BITCOIN", enabled: true }, "`extra_commission_percent` field is required"],
    [{ method: "BITCOIN", extra_commission_percent: "1" }, "`enabled` field is required"],
    [{ enabled: true, extra_commission_percent: "1" }, "`method` field is required"],
  ])("refuses a missing field in the service's form (%o)", async (fields, message) => {
    const answer = await post("v2/method/edit/", fields);
    expect(answer.json()).toEqual({ error: true, errors: [message] });
    expect(bitcoin()).toMatchObject({ enabled: true, extraCommissionPercent: "0.5" });
    expect(fake.methodEdits).toHaveLength(1);
    expect(fake.methodEdits[0]?.applied).toBe(false);
  });

  it.each([
    [1, true],
    [0, false],
    ["1", true],
    ["0", false],
    [true, true],
    [false, false],
  ])("reads enabled %o as the service would", async (enabled, on) => {
    await post("v2/method/edit/", { method: "BITCOIN", enabled: !on, extra_commission_percent: "0.5" });
    await post("v2/method/edit/", { method: "BITCOIN", enabled, extra_commission_percent: "0.5" });
    expect(bitcoin()?.enabled).toBe(on);
  });

  it("refuses an enabled that is not a boolean, an unknown method, a percent outside 0..100", async () => {
    const edit = (fields: Record<string, unknown>) =>
      post("v2/method/edit/", { method: "BITCOIN", enabled: true, extra_commission_percent: "1", ...fields });
    expect((await edit({ enabled: "yes" })).json().errors).toEqual(["`enabled` field must be true or false"]);
    expect((await edit({ method: "NOSUCHMETHOD" })).json().errors).toEqual(["Method not found"]);
    expect((await edit({ method: "CARDRUBPAYOUT" })).json().errors).toEqual(["Method not found"]);
    for (const percent of ["100.01", -1, "-0.5"])
      expect((await edit({ extra_commission_percent: percent })).json().errors).toEqual([
        "`extra_commission_percent` must be from 0 to 100",
      ]);
    expect((await edit({ extra_commission_percent: "lots" })).json().errors).toEqual([
      "`extra_commission_percent` field is invalid",
    ]);
    expect(bitcoin()).toMatchObject({ enabled: true, extraCommissionPercent: "0.5" });
    expect((await edit({ extra_commission_percent: "100" })).json().error).toBe(false);
    expect(bitcoin()?.extraCommissionPercent).toBe("100");
  });

  it("checks the login and secret like every call", async () => {
    const response = await fetch(`${fake.url}v2/method/edit/`, {
      method: "POST",
      body: JSON.stringify({ auth_login: SANDBOX_LOGIN, auth_secret: "wrong", method: "BITCOIN" }),
    });
    expect(await response.json()).toEqual({ error: true, errors: ["Invalid auth credentials"] });
    expect(fake.methodEdits).toEqual([]);
  });
});

describe("sandbox method/edit v3 and method/get", () => {
  it("changes only what is sent, in settings.in, and method/get shows it as a list entry", async () => {
    expect((await post("v3/method/edit/", { method: "BITCOIN", enabled: false })).json()).toEqual({
      error: false,
      errors: [],
    });
    expect(bitcoin()).toMatchObject({ enabled: false, extraCommissionPercent: "0.5" });
    await post("v3/method/edit/", { method: "BITCOIN", extra_commission_percent: "12.5" });
    expect(bitcoin()).toMatchObject({ enabled: false, extraCommissionPercent: "12.5" });
    const got = (await post("v3/method/get/", { method: "BITCOIN" })).json();
    const listed = (await post("v3/method/list/", {})).json() as { items: Record<string, object> };
    expect(got).toEqual({ error: false, errors: [], method: "BITCOIN", ...listed.items.BITCOIN });
    expect(got.settings).toMatchObject({
      in: { enabled: false, extra_commissions: { percent: "12.5", amount: "0" } },
    });
  });

  it("refuses an unknown method and a missing one; method/get is v3 only", async () => {
    expect((await post("v3/method/edit/", { enabled: true })).json().errors).toEqual([
      "`method` field is required",
    ]);
    expect((await post("v3/method/get/", { method: "NOSUCHMETHOD" })).json().errors).toEqual([
      "Method not found",
    ]);
    expect((await post("v2/method/get/", { method: "BITCOIN" })).status).toBe(404);
  });
});

describe("sandbox method/edit faults and outside changes", () => {
  it("refuse: error:true with the set message, nothing changed", async () => {
    fake.methodEditFault = "refuse";
    const answer = await post("v3/method/edit/", { method: "BITCOIN", enabled: false });
    expect(answer.json()).toEqual({ error: true, errors: fake.methodEditRefusal });
    expect(bitcoin()?.enabled).toBe(true);
  });

  it("applied-502: the change is made, the answer is a proxy's 502", async () => {
    fake.methodEditFault = "applied-502";
    const answer = await post("v3/method/edit/", { method: "BITCOIN", enabled: false });
    expect(answer.status).toBe(502);
    expect(answer.text).toContain("502 Bad Gateway");
    expect(bitcoin()?.enabled).toBe(false);
  });

  it("slow: answers after slowMs and changes the method only then", async () => {
    fake.methodEditFault = "slow";
    const answer = post("v3/method/edit/", { method: "BITCOIN", enabled: false });
    await expect.poll(() => fake.methodEdits.length).toBe(1);
    expect(bitcoin()?.enabled).toBe(true);
    expect((await answer).json()).toEqual({ error: false, errors: [] });
    expect(bitcoin()?.enabled).toBe(false);
    expect(fake.methodEdits[0]?.applied).toBe(true);
  });

  it("editMethodOutside changes the table without an edit request", async () => {
    fake.editMethodOutside("BITCOIN", { surchargePercent: "10" });
    expect(bitcoin()).toMatchObject({ enabled: true, extraCommissionPercent: "10" });
    fake.editMethodOutside("BITCOIN", { on: false });
    expect(bitcoin()).toMatchObject({ enabled: false, extraCommissionPercent: "10" });
    expect(fake.methodEdits).toEqual([]);
    expect(() => fake.editMethodOutside("NOSUCHMETHOD", { on: false })).toThrow(/no payment method/);
    expect(() => fake.editMethodOutside("BITCOIN", { surchargePercent: "101" })).toThrow(/0 to 100/);
  });
});
