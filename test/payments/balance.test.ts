import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  type FakePayments,
  SANDBOX_LOGIN,
  SANDBOX_SECRET,
  sampleBalances,
  sampleRates,
  startFakePayments,
} from "../../sandbox/fake-payments.js";
import { currenciesToPrice, MAX_PLAUSIBLE_RUB, rubTotal } from "../../src/payments/balance-total.js";
import { PaymentsClient } from "../../src/payments/client.js";
import { ServiceError, UnexpectedResponseError, UnreachableError } from "../../src/payments/errors.js";
import { parseJsonExact } from "../../src/payments/json.js";
import type { Balance, PaymentsAccount } from "../../src/payments/model.js";
import { balancesFromV2, balancesFromV3, ratesFrom } from "../../src/payments/normalize.js";
import { balanceInfoV2Schema, balanceListV3Schema, tickerSchema } from "../../src/payments/schemas.js";

const V2: PaymentsAccount = { login: SANDBOX_LOGIN, secret: SANDBOX_SECRET, apiVersion: "v2" };
const V3: PaymentsAccount = { ...V2, apiVersion: "v3" };

const parse = <T>(schema: { parse: (value: unknown) => T }, text: string): T =>
  schema.parse(parseJsonExact(text));

describe("balance schemas and normalisation", () => {
  it("reads the v2 example exactly: JSON numbers keep their digits, every amount its currency", () => {
    const raw = parse(
      balanceInfoV2Schema,
      '{"error":false,"errors":[],"balances":{"LZTMARKET":{"amount":100,"currency":"RUB"},"BITCOIN":{"amount":0.00005,"currency":"BTC"},"DOGE":{"amount":1e-7,"currency":"DOGE"},"BIG":{"amount":12345678.123456789,"currency":"RUB"}}}',
    );
    expect(balancesFromV2(raw)).toEqual({
      balances: [
        { code: "LZTMARKET", name: null, amount: { value: "100", currency: "RUB" } },
        { code: "BITCOIN", name: null, amount: { value: "0.00005", currency: "BTC" } },
        { code: "DOGE", name: null, amount: { value: "0.0000001", currency: "DOGE" } },
        { code: "BIG", name: null, amount: { value: "12345678.123456789", currency: "RUB" } },
      ],
      unreadable: [],
    });
  });

  it("reads the v3 example (decimal strings, names) and `items: []` as no balances", () => {
    const raw = parse(
      balanceListV3Schema,
      '{"error":false,"errors":[],"items":{"BITCOIN":{"name":"Bitcoin","amount":"0.0005","currency":"BTC","amount_accuracy":8}}}',
    );
    expect(balancesFromV3(raw).balances).toEqual([
      { code: "BITCOIN", name: "Bitcoin", amount: { value: "0.0005", currency: "BTC" } },
    ]);
    expect(balancesFromV3(parse(balanceListV3Schema, '{"error":false,"errors":[],"items":[]}'))).toEqual({
      balances: [],
      unreadable: [],
    });
    expect(balancesFromV2(parse(balanceInfoV2Schema, '{"error":false,"balances":[]}')).balances).toEqual([]);
  });

  it("sets one unreadable entry aside and refuses a list that is not a map", () => {
    const raw = parse(
      balanceListV3Schema,
      '{"items":{"BITCOIN":{"name":"Bitcoin","amount":"0.0005","currency":"BTC"},"ODD":{"amount":"lots","currency":"BTC"}}}',
    );
    const sheet = balancesFromV3(raw);
    expect(sheet.balances.map((balance) => balance.code)).toEqual(["BITCOIN"]);
    expect(sheet.unreadable).toEqual([{ code: "ODD", reason: "amount: expected a decimal amount" }]);
    expect(balanceListV3Schema.safeParse({ items: "lots" }).success).toBe(false);
    expect(balanceListV3Schema.safeParse({ items: [1] }).success).toBe(false);
    expect(
      balanceInfoV2Schema.safeParse({ balances: { X: { amount: true, currency: "RUB" } } }).data?.balances,
    ).toMatchObject({ methods: [], unreadable: [{ code: "X" }] });
  });

  it("reads rates as `{price}` objects or bare prices, numbers or strings, in roubles only", () => {
    const rates = ratesFrom(
      parse(
        tickerSchema,
        '{"error":false,"base_currency":"RUB","currencies":{"BTC":{"price":8123456.78},"usdt":"95.2328","ETH":95}}',
      ),
    );
    expect(rates).toEqual({ BTC: "8123456.78", USDT: "95.2328", ETH: "95" });
    expect(ratesFrom(parse(tickerSchema, '{"currencies":{"BTC":{"price":"1.5"}}}'))).toEqual({ BTC: "1.5" });
    expect(() =>
      ratesFrom(parse(tickerSchema, '{"base_currency":"USD","currencies":{"BTC":{"price":1}}}')),
    ).toThrow(UnexpectedResponseError);
    // A price that is not a decimal leaves that currency unpriced, not the whole answer unreadable.
    expect(
      ratesFrom(parse(tickerSchema, '{"currencies":{"BTC":{"price":"soon"},"USDT":{"price":"90"}}}')),
    ).toEqual({
      USDT: "90",
    });
    // Nor is a price of zero or less: that currency is unpriced, and /balance leaves the total out.
    expect(
      ratesFrom(
        parse(
          tickerSchema,
          '{"currencies":{"BTC":{"price":-92.5},"ETH":"0","LTC":"0.000","USDT":{"price":"0.01"}}}',
        ),
      ),
    ).toEqual({ USDT: "0.01" });
  });
});

describe("the rouble total", () => {
  const balance = (value: string, currency: string, code = currency): Balance => ({
    code,
    name: null,
    amount: { value, currency },
  });

  it("asks prices only for non-zero balances in other currencies than RUB", () => {
    expect(
      currenciesToPrice([
        balance("1", "RUB"),
        balance("0", "ETH"),
        balance("0.1", "btc"),
        balance("2", "BTC", "X"),
      ]),
    ).toEqual(["BTC"]);
  });

  it("is exact roubles when nothing needs converting, and approximate (to kopecks) when something does", () => {
    expect(rubTotal([balance("0.1", "RUB"), balance("0.2", "RUB")], {})).toEqual({
      kind: "total",
      value: "0.3",
      approximate: false,
    });
    expect(rubTotal([balance("100", "RUB"), balance("0.0000001", "BTC")], { BTC: "8123456.78" })).toEqual({
      kind: "total",
      value: "100.81",
      approximate: true,
    });
    expect(rubTotal([balance("0.005", "USDT")], { USDT: "1" }).kind === "total").toBe(true);
    expect(rubTotal([balance("0.005", "USDT")], { USDT: "1" })).toMatchObject({ value: "0.01" });
  });

  it("doubts a rate that makes a coin worth less than a kopeck or more than the RUB money supply", () => {
    // 1e-7 BTC at a price of 1 RUB: 0.0000001 RUB, which no real bitcoin rate gives.
    expect(rubTotal([balance("100", "RUB"), balance("0.0000001", "BTC")], { BTC: "1" })).toEqual({
      kind: "implausible",
      currencies: ["BTC"],
    });
    // 150 USDT at 1e13 RUB each: 1.5e15 RUB, more than all the roubles there are.
    expect(
      rubTotal([balance("150", "USDT"), balance("1", "BTC")], { USDT: "10000000000000", BTC: "8000000" }),
    ).toEqual({ kind: "implausible", currencies: ["USDT"] });
    // Judged per coin, all its balances together: two dust balances make 0.005 RUB, a kopeck rounded.
    expect(
      rubTotal([balance("0.0000000003", "BTC", "A"), balance("0.0000000002", "BTC", "B")], {
        BTC: "10000000",
      }),
    ).toEqual({ kind: "total", value: "0.01", approximate: true });
    // The bound itself is still believed; a negative balance is judged by its size.
    expect(rubTotal([balance("1", "USDT")], { USDT: MAX_PLAUSIBLE_RUB })).toMatchObject({ kind: "total" });
    expect(rubTotal([balance("-0.001", "BTC")], { BTC: "1" })).toMatchObject({ kind: "implausible" });
  });

  it("gives no total when a non-zero balance has no rate", () => {
    expect(rubTotal([balance("1", "BTC"), balance("1", "DOGE"), balance("0", "TRX")], { BTC: "1" })).toEqual({
      kind: "unpriced",
      currencies: ["DOGE"],
    });
  });
});

describe("PaymentsClient balances and rates, against the fake service", () => {
  let fake: FakePayments;
  let client: PaymentsClient;
  beforeAll(async () => {
    fake = await startFakePayments({ slowMs: 600 });
    client = new PaymentsClient({
      baseUrl: fake.url,
      defaultVersion: "v2",
      timeoutMs: 300,
      timeZone: "Europe/Moscow",
      retries: 1,
      retryDelayMs: 5,
    });
  });
  afterAll(async () => {
    client.close();
    await fake.close();
  });
  beforeEach(() => {
    fake.balances = sampleBalances();
    fake.rates = sampleRates();
    fake.balanceFault = null;
    fake.tickerFault = null;
  });

  it("reads v2 balance/info and v3 balance/list, zero balances included", async () => {
    const v2 = await client.getBalances(V2);
    const v3 = await client.getBalances(V3);
    expect(fake.requests.at(-2)?.path).toBe("/v2/balance/info/");
    expect(fake.requests.at(-1)?.path).toBe("/v3/balance/list/");
    expect(fake.requests.at(-1)?.body).toEqual({ auth_login: SANDBOX_LOGIN, auth_secret: SANDBOX_SECRET });
    for (const sheet of [v2, v3]) {
      expect(sheet.balances).toHaveLength(8);
      expect(sheet.balances.find((b) => b.code === "BTCCRYPTOBOT")?.amount).toEqual({
        value: "0.0000001",
        currency: "BTC",
      });
    }
    expect(v3.balances[0]?.name).toBe("Card RUB P2P");
    expect(v2.balances[0]?.name).toBeNull();
  });

  it("reads `items: []` (every balance 0) as an empty sheet", async () => {
    fake.balances = sampleBalances().map((b) => ({ ...b, amount: "0" }));
    expect(await client.getBalances(V3)).toEqual({ balances: [], unreadable: [] });
  });

  it("sends the currencies as a `tickers` list and reads their rouble prices", async () => {
    expect(await client.getRubRates(V2, ["BTC", "USDT", "XYZ"])).toEqual({
      BTC: "8123456.78",
      USDT: "95.2328",
    });
    expect(fake.requests.at(-1)).toMatchObject({
      path: "/v2/ticker/get/",
      body: { tickers: ["BTC", "USDT", "XYZ"] },
    });
    expect(await client.getRubRates(V3, ["BTC"])).toEqual({ BTC: "8123456.78" });
  });

  it("turns each fault into its error kind", async () => {
    fake.balanceFault = "invalidAuth";
    await expect(client.getBalances(V2)).rejects.toEqual(new ServiceError(["Invalid auth credentials"]));
    fake.balanceFault = "html502";
    await expect(client.getBalances(V3)).rejects.toMatchObject({ reason: "http-status", status: 502 });
    fake.balanceFault = "wrongTypes";
    await expect(client.getBalances(V2)).rejects.toMatchObject({ reason: "wrong-shape" });
    fake.balanceFault = "brokenJson";
    await expect(client.getBalances(V3)).rejects.toMatchObject({ reason: "not-json" });
    fake.balanceFault = "slow";
    await expect(client.getBalances(V2)).rejects.toBeInstanceOf(UnreachableError);
    fake.tickerFault = "html502";
    await expect(client.getRubRates(V2, ["BTC"])).rejects.toMatchObject({ status: 502 });
    fake.tickerFault = "wrongTypes";
    await expect(client.getRubRates(V3, ["BTC"])).rejects.toBeInstanceOf(UnexpectedResponseError);
  });

  it("is refused with wrong credentials, and no error names the secret", async () => {
    const error = await client.getBalances({ ...V2, secret: "Wr0ng-do-not-leak" }).catch((e: unknown) => e);
    expect(error).toEqual(new ServiceError(["Invalid auth credentials"]));
    expect(JSON.stringify(error) + String(error)).not.toContain("Wr0ng");
  });
});
