import { randomBytes } from "node:crypto";
import Keyv from "keyv";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  type FakePayments,
  SANDBOX_LOGIN,
  SANDBOX_SECRET,
  sampleRates,
  startFakePayments,
} from "../../sandbox/fake-payments.js";
import { PaymentsClient } from "../../src/payments/client.js";
import { RATES_BUDGET_MS, WorkspacePayments } from "../../src/registers/workspace-payments.js";
import { Cache } from "../../src/store/cache.js";
import { CredentialsStore } from "../../src/store/credentials.js";
import { SecretBox } from "../../src/store/crypto.js";

const TEAM = "T0BALANCES";

describe("WorkspacePayments.balances", () => {
  let fake: FakePayments;
  let client: PaymentsClient;
  let cacheKeyv: Keyv;
  let credentials: CredentialsStore;
  let payments: WorkspacePayments;
  const tickerCalls = () => fake.requests.filter((request) => request.path.endsWith("/ticker/get/")).length;
  const balanceCalls = () =>
    fake.requests.filter((request) => request.path.endsWith("/balance/info/")).length;

  beforeAll(async () => {
    // Just past the budget: the reply goes without rates, the answer still comes.
    fake = await startFakePayments({ slowMs: RATES_BUDGET_MS + 100 });
    client = new PaymentsClient({
      baseUrl: fake.url,
      defaultVersion: "v2",
      timeoutMs: 5000,
      timeZone: "Europe/Moscow",
      retries: 0,
    });
  });
  afterAll(async () => {
    client.close();
    await fake.close();
  });
  beforeEach(async () => {
    cacheKeyv = new Keyv();
    credentials = new CredentialsStore(new Keyv(), new SecretBox(randomBytes(32)));
    await credentials.set(TEAM, { login: SANDBOX_LOGIN, secret: SANDBOX_SECRET });
    payments = new WorkspacePayments(credentials, client, new Cache(cacheKeyv), {
      defaultVersion: "v2",
      methodsTtlMs: 60_000,
      balanceTtlMs: 60_000,
    });
    fake.tickerFault = null;
    fake.balanceFault = null;
    fake.rates = sampleRates();
  });

  it("answers without rates when they outlast the budget, and the late answer fills the cache", async () => {
    fake.tickerFault = "slow";
    const first = await payments.balances(TEAM);
    expect(first.rates).toBeNull();
    expect(String(first.ratesError)).toContain(`longer than ${RATES_BUDGET_MS} ms`);
    expect(first.balances.length).toBeGreaterThan(0);
    fake.tickerFault = null;
    await expect
      .poll(async () => ((await cacheKeyv.get(`balance:${TEAM}`)) as { rates: unknown } | undefined)?.rates, {
        timeout: 3000,
      })
      .not.toBeNull();
    const tickers = tickerCalls();
    const second = await payments.balances(TEAM);
    expect(second.fromCache).toBe(true);
    expect(second.rates?.prices.BTC).toBe("8123456.78");
    expect(tickerCalls()).toBe(tickers);
  });

  it("does not reuse balances cached for another login", async () => {
    await payments.balances(TEAM);
    const before = balanceCalls();
    await credentials.set(TEAM, { login: "another_register", secret: "whatever" });
    await expect(payments.balances(TEAM)).rejects.toMatchObject({ messages: ["Invalid auth credentials"] });
    expect(balanceCalls()).toBe(before + 1);
  });

  it("forgets the cached balances after a disconnect or new credentials", async () => {
    await payments.balances(TEAM);
    await payments.forgetCached(TEAM);
    const before = balanceCalls();
    expect((await payments.balances(TEAM)).fromCache).toBe(false);
    expect(balanceCalls()).toBe(before + 1);
  });
});
