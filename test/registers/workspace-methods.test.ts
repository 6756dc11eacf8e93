import { randomBytes } from "node:crypto";
import Keyv from "keyv";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  type FakePayments,
  SANDBOX_LOGIN,
  SANDBOX_SECRET,
  sampleMethods,
  startFakePayments,
} from "../../sandbox/fake-payments.js";
import { PaymentsClient } from "../../src/payments/client.js";
import { NotConnectedError, ServiceError, UnreachableError } from "../../src/payments/errors.js";
import type { ApiVersion, MethodCatalog } from "../../src/payments/model.js";
import { MethodLists } from "../../src/registers/method-lists.js";
import { WorkspacePayments } from "../../src/registers/workspace-payments.js";
import { Cache } from "../../src/store/cache.js";
import { CredentialsStore } from "../../src/store/credentials.js";
import { SecretBox } from "../../src/store/crypto.js";

const TEAM = "T0METHODS";

describe.each(["v2", "v3"] as const)(
  "WorkspacePayments.editMethod and methodNow (%s)",
  (version: ApiVersion) => {
    let fake: FakePayments;
    let client: PaymentsClient;
    let payments: WorkspacePayments;
    const listCalls = () => fake.requests.filter((request) => request.path.endsWith("/method/list/")).length;
    const bitcoinIn = async () => (await payments.methods(TEAM)).methods.find((m) => m.code === "BITCOIN");

    beforeAll(async () => {
      fake = await startFakePayments({ slowMs: 1000 });
      client = new PaymentsClient({
        baseUrl: fake.url,
        defaultVersion: "v2",
        timeoutMs: 300,
        timeZone: "Europe/Moscow",
        retries: 2,
        retryDelayMs: 10,
        // The tests' calls come faster than a register's usual 5 a second.
        queue: { concurrency: 10, ratePerSecond: 1000, maxWaitMs: 10_000 },
      });
    });
    afterAll(async () => {
      client.close();
      await fake.close();
    });
    beforeEach(async () => {
      const credentials = new CredentialsStore(new Keyv(), new SecretBox(randomBytes(32)));
      await credentials.set(TEAM, { login: SANDBOX_LOGIN, secret: SANDBOX_SECRET, apiVersion: version });
      payments = new WorkspacePayments(credentials, client, new Cache(new Keyv()), {
        defaultVersion: "v2",
        methodsTtlMs: 60_000,
        balanceTtlMs: 60_000,
      });
      fake.methods = sampleMethods();
      fake.methodEditFault = null;
      fake.methodEdits = [];
      fake.requests.length = 0;
    });

    it("an edit is sent once and the cached list is forgotten: /paymethods shows the new state", async () => {
      expect(await bitcoinIn()).toMatchObject({ switchedOn: true });
      await payments.editMethod(TEAM, { code: "BITCOIN", on: false });
      expect(fake.methodEdits).toHaveLength(1);
      expect(fake.methodEdits[0]?.fields).toEqual(
        version === "v2"
          ? { method: "BITCOIN", enabled: false, extra_commission_percent: "0.5" }
          : { method: "BITCOIN", enabled: false },
      );
      const list = await payments.methods(TEAM);
      expect(list.fromCache).toBe(false);
      expect(list.methods.find((m) => m.code === "BITCOIN")).toMatchObject({
        switchedOn: false,
        enabled: false,
      });
    });

    it.each([
      ["refuse", ServiceError],
      ["applied-502", UnreachableError],
    ] as const)("after a %s the cached list is forgotten too", async (fault, type) => {
      await bitcoinIn();
      fake.methodEditFault = fault;
      await expect(
        payments.editMethod(TEAM, { code: "BITCOIN", surchargePercent: "10" }),
      ).rejects.toBeInstanceOf(type);
      expect(fake.methodEdits).toHaveLength(1);
      const list = await payments.methods(TEAM);
      expect(list.fromCache).toBe(false);
      expect(list.methods.find((m) => m.code === "BITCOIN")?.extraCommissionPercent).toBe(
        fault === "refuse" ? "0.5" : "10",
      );
    });

    it("methodNow reads afresh over a cached list and brings the list up to date", async () => {
      await bitcoinIn();
      fake.editMethodOutside("BITCOIN", { on: false, surchargePercent: "7" });
      const lists = listCalls();
      const now = await payments.methodNow(TEAM, "BITCOIN");
      expect(now).toMatchObject({ code: "BITCOIN", switchedOn: false, extraCommissionPercent: "7" });
      // v2 reads the whole list (there is no method/get); v3 reads the one method.
      expect(listCalls() - lists).toBe(version === "v2" ? 1 : 0);
      expect(fake.requests.filter((r) => r.path.endsWith("/method/get/"))).toHaveLength(
        version === "v3" ? 1 : 0,
      );
      const list = await payments.methods(TEAM);
      expect(list.fromCache).toBe(true);
      expect(list.methods.find((m) => m.code === "BITCOIN")).toEqual(now);
      expect(list.methods.map((m) => m.code)).toEqual(
        fake.methods.filter((m) => !m.payoutOnly).map((m) => m.code),
      );
    });

    it("methodNow: undefined for a method the service does not list", async () => {
      expect(await payments.methodNow(TEAM, "NOSUCHMETHOD")).toBeUndefined();
    });

    it("a slow edit is 'not sure'; methodNow then tells what the service did", async () => {
      fake.methodEditFault = "slow";
      const error = await payments.editMethod(TEAM, { code: "BITCOIN", on: false }).catch((e: unknown) => e);
      expect(error).toMatchObject({ reason: "timeout" });
      expect(await payments.methodNow(TEAM, "BITCOIN")).toMatchObject({ switchedOn: true });
      await expect.poll(() => fake.methodEdits[0]?.applied, { timeout: 3000 }).toBe(true);
      expect(await payments.methodNow(TEAM, "BITCOIN")).toMatchObject({ switchedOn: false });
      expect(fake.methodEdits).toHaveLength(1);
    });

    it("an unconnected register is not connected, nothing sent", async () => {
      await expect(payments.editMethod("T0NONE", { code: "BITCOIN", on: false })).rejects.toBeInstanceOf(
        NotConnectedError,
      );
      await expect(payments.methodNow("T0NONE", "BITCOIN")).rejects.toBeInstanceOf(NotConnectedError);
      expect(fake.requests).toEqual([]);
    });
  },
);

describe("MethodLists: a read that began before a forget is not cached after it", () => {
  const owner = { login: "shop", apiVersion: "v2" as const };
  const catalog = (code: string): MethodCatalog => ({
    methods: [
      {
        code,
        name: code,
        enabled: true,
        switchedOn: true,
        currency: "RUB",
        commissionPercent: "0",
        commission: { value: "0", currency: "RUB" },
        extraCommissionPercent: "0",
        extraCommission: null,
        minimalStatusLevel: null,
        limits: null,
      },
    ],
    payoutOnly: [],
    unreadable: [],
  });

  it("forget during a read: the read's answer is returned, not cached; the next read is", async () => {
    const lists = new MethodLists(new Cache(new Keyv()), 60_000);
    let answer: (value: MethodCatalog) => void = () => {};
    const reading = lists.read("T1", owner, () => new Promise((resolve) => (answer = resolve)), true);
    await lists.forget("T1");
    answer(catalog("OLD"));
    expect((await reading).methods[0]?.code).toBe("OLD");
    expect(await lists.cached("T1", owner)).toBeUndefined();
    await lists.read("T1", owner, async () => catalog("NEW"), false);
    expect((await lists.cached("T1", owner))?.methods[0]?.code).toBe("NEW");
    expect(await lists.cached("T1", { ...owner, login: "another" })).toBeUndefined();
  });
});
