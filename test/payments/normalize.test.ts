import { describe, expect, it } from "vitest";
import {
  renderInvoiceV2,
  renderInvoiceV3,
  type SampleInvoice,
  sampleInvoices,
} from "../../sandbox/fake-payments.js";
import type { Invoice } from "../../src/payments/model.js";
import { invoiceFromV2, invoiceFromV3 } from "../../src/payments/normalize.js";
import { invoiceV2Schema, invoiceV3Schema } from "../../src/payments/schemas.js";

const ZONE = "Europe/Moscow";
const NOW = new Date("2024-05-01T12:00:00Z");
const SAMPLES = sampleInvoices(NOW);

const CREATED = { text: "2024-05-01 13:00:00", zone: ZONE, epochSeconds: 1714557600 };
const EXPIRES = { text: "2024-05-02 13:00:00", zone: ZONE, epochSeconds: 1714644000 };

function sample(id: string): SampleInvoice {
  const found = SAMPLES.find((invoice) => invoice.id === id);
  if (!found) throw new Error(`no sample ${id}`);
  return found;
}

const rawV2 = (invoice: SampleInvoice, patch: Record<string, unknown> = {}): Record<string, unknown> => ({
  ...(JSON.parse(renderInvoiceV2(invoice)) as Record<string, unknown>),
  ...patch,
});
const rawV3 = (invoice: SampleInvoice, patch: Record<string, unknown> = {}): Record<string, unknown> => ({
  ...(JSON.parse(renderInvoiceV3(invoice)) as Record<string, unknown>),
  ...patch,
});
const fromV2 = (raw: Record<string, unknown>, zone = ZONE): Invoice =>
  invoiceFromV2(invoiceV2Schema.parse(raw), zone);
const fromV3 = (raw: Record<string, unknown>, zone = ZONE): Invoice =>
  invoiceFromV3(invoiceV3Schema.parse(raw), zone);

const money = (value: string, currency: string | null) => ({ value, currency });

describe("invoiceFromV2", () => {
  it("reads an unpaid invoice: every amount in the one currency, '' as null", () => {
    const raw = rawV2(sample("715308958_rPwTzvsvCm"));
    expect(raw.required_method).toBe("");
    expect(raw.callback_url).toBe("");
    expect(raw.extra).toBe("");
    expect(fromV2(raw)).toEqual({
      id: "715308958_rPwTzvsvCm",
      url: "https://pay.crystalpay.io/?i=715308958_rPwTzvsvCm",
      state: "notpayed",
      type: "purchase",
      method: null,
      requiredMethod: null,
      currency: "RUB",
      currencyConflict: null,
      amounts: {
        amount: money("1500", "RUB"),
        payAmount: money("1500", "RUB"),
        remainingAmount: money("1500", "RUB"),
        balanceAmount: money("1500", "RUB"),
      },
      commissions: {
        serviceCommission: money("0", "RUB"),
        extraCommission: money("0", "RUB"),
      },
      subtractFrom: null,
      description: "Order #1042",
      extra: null,
      redirectUrl: "https://shop.example/thanks",
      callbackUrl: null,
      createdAt: CREATED,
      expiredAt: EXPIRES,
      finalAt: null,
      apiVersion: "v2",
    } satisfies Invoice);
  });

  it("after a crypto pick: pay/remaining/balance/commissions in BTC, the amount still in RUB", () => {
    const invoice = fromV2(rawV2(sample("715308959_ProcessingBtc")));
    expect(invoice.currency).toBe("BTC");
    expect(invoice.method).toBe("BITCOIN");
    expect(invoice.amounts).toEqual({
      amount: money("1500", "RUB"),
      payAmount: money("0.00017384", "BTC"),
      remainingAmount: money("0.00017384", "BTC"),
      balanceAmount: money("0.00016863", "BTC"),
    });
    // The PHP backend writes 4.0e-6: kept as the exact decimal.
    expect(invoice.commissions).toEqual({
      serviceCommission: money("0.00000521", "BTC"),
      extraCommission: money("0.000004", "BTC"),
    });
  });

  it("shows `amount` in RUB whether or not a method is chosen (v2 converts every invoice to RUB)", () => {
    const base = rawV2(sample("715308958_rPwTzvsvCm"));
    expect(fromV2({ ...base, method: null }).amounts.amount).toEqual(money("1500", "RUB"));
    expect(fromV2({ ...base, method: "" }).amounts.amount).toEqual(money("1500", "RUB"));
    expect(fromV2({ ...base, method: "CARDTRYP2P", currency: "TRY" }).amounts).toEqual({
      amount: money("1500", "RUB"),
      payAmount: money("1500", "TRY"),
      remainingAmount: money("1500", "TRY"),
      balanceAmount: money("1500", "TRY"),
    });
  });

  it("reads the paid sample (text fields kept verbatim, no final time in v2)", () => {
    const invoice = fromV2(rawV2(sample("715308962_PaidInFull")));
    expect(invoice.state).toBe("payed");
    expect(invoice.description).toBe("Annual plan <!channel> & *bold* <https://evil.example|click>");
    expect(invoice.extra).toBe("crm:42");
    expect(invoice.finalAt).toBeNull();
    expect(invoice.amounts.balanceAmount).toEqual(money("12098765.32", "RUB"));
    expect(invoice.commissions.serviceCommission).toEqual(money("246913.58", "RUB"));
  });

  it("turns every empty text into null", () => {
    const invoice = fromV2(
      rawV2(sample("715308958_rPwTzvsvCm"), {
        url: "",
        method: "",
        required_method: "",
        description: "",
        redirect_url: "",
        callback_url: "",
        extra: "",
      }),
    );
    expect(invoice).toMatchObject({
      url: null,
      method: null,
      requiredMethod: null,
      description: null,
      redirectUrl: null,
      callbackUrl: null,
      extra: null,
    });
  });

  it("keeps unknown states and types verbatim and accepts unknown fields", () => {
    const invoice = fromV2(rawV2(sample("715308965_FutureState"), { new_field: { nested: true } }));
    expect(invoice.state).toBe("refunded");
    expect(invoice.type).toBe("subscription");
    expect(invoice).not.toHaveProperty("new_field");
  });

  it("accepts amounts written as decimal strings too", () => {
    const invoice = fromV2(rawV2(sample("715308958_rPwTzvsvCm"), { amount: "1500.50", pay_amount: 1e-7 }));
    expect(invoice.amounts.amount).toEqual(money("1500.5", "RUB"));
    expect(invoice.amounts.payAmount).toEqual(money("0.0000001", "RUB"));
  });

  it("reads times in the zone it is given", () => {
    const raw = rawV2(sample("715308958_rPwTzvsvCm"));
    expect(fromV2(raw, "UTC").createdAt).toEqual({
      text: "2024-05-01 13:00:00",
      zone: "UTC",
      epochSeconds: 1714568400,
    });
    expect(fromV2(raw, "Europe/Berlin").createdAt.epochSeconds).toBe(1714561200);
  });
});

describe("invoiceFromV3", () => {
  it("reads an unpaid RUB invoice (newer revision): each figure once, null as null", () => {
    const raw = rawV3(sample("715308958_rPwTzvsvCm"));
    expect(raw.required_method).toBeNull();
    expect(raw.extra).toBeNull();
    expect(raw).toMatchObject({
      amount_currency: "RUB",
      currency: "RUB",
      amount: "1500",
      initial_amount: "1500",
    });
    expect(fromV3(raw)).toEqual({
      id: "715308958_rPwTzvsvCm",
      url: "https://pay.crystalpay.io/?i=715308958_rPwTzvsvCm",
      state: "notpayed",
      type: "purchase",
      method: null,
      requiredMethod: null,
      currency: "RUB",
      currencyConflict: null,
      // initial_amount and rub_amount equal the amount in RUB: not repeated under other labels.
      amounts: {
        amount: money("1500", "RUB"),
        remainingAmount: money("1500", "RUB"),
        balanceAmount: money("1500", "RUB"),
      },
      commissions: { commissionAmount: money("0", "RUB") },
      subtractFrom: "balance",
      description: "Order #1042",
      extra: null,
      redirectUrl: null,
      callbackUrl: null,
      createdAt: CREATED,
      expiredAt: EXPIRES,
      finalAt: null,
      apiVersion: "v3",
    } satisfies Invoice);
  });

  it("keeps initial_amount under its own name when it differs from the amount", () => {
    const invoice = fromV3(
      rawV3(sample("715308960_WrongAmount"), { amount: "2600", initial_amount: "2500.5" }),
    );
    expect(invoice.amounts.amount).toEqual(money("2600", "RUB"));
    expect(invoice.amounts.initialAmount).toEqual(money("2500.5", "RUB"));
    expect(invoice.amounts.rubAmount).toEqual(money("2500.5", "RUB"));
  });

  it("older revisions without `currency` or `amount` use amount_currency and initial_amount", () => {
    const raw = rawV3(sample("715308960_WrongAmount"), { amount_currency: "USDT" });
    delete raw.currency;
    delete raw.amount;
    const invoice = fromV3(raw);
    expect(invoice.currency).toBe("USDT");
    expect(invoice.amounts).toEqual({
      amount: money("2500.5", "USDT"),
      rubAmount: money("2500.5", "RUB"),
      remainingAmount: money("500.25", "USDT"),
      balanceAmount: money("1950.13", "USDT"),
    });
    expect(invoice.commissions).toEqual({ commissionAmount: money("50.12", "USDT") });
  });

  it("leaves out amounts sent as null", () => {
    const invoice = fromV3(
      rawV3(sample("715308958_rPwTzvsvCm"), {
        currency: null,
        amount: null,
        rub_amount: null,
        remaining_amount: null,
        balance_amount: null,
        commission_amount: null,
      }),
    );
    expect(invoice.amounts).toEqual({ amount: money("1500", "RUB") });
    expect(invoice.commissions).toEqual({});
  });

  it("reads the final time and the commission's source", () => {
    const invoice = fromV3(rawV3(sample("715308962_PaidInFull")));
    expect(invoice.finalAt).toEqual({ text: "2024-05-01 14:00:00", zone: ZONE, epochSeconds: 1714561200 });
    expect(invoice.subtractFrom).toBe("balance");
    expect(fromV3(rawV3(sample("715308962_PaidInFull"), { subtract_from: "amount" })).subtractFrom).toBe(
      "amount",
    );
    expect(fromV3(rawV3(sample("715308962_PaidInFull"), { subtract_from: null })).subtractFrom).toBeNull();
  });

  it("v3 null and v2 '' both become null; absent optional fields too", () => {
    const v3 = rawV3(sample("715308958_rPwTzvsvCm"), {
      url: null,
      description: null,
      redirect_url: null,
      callback_url: null,
      extra: null,
    });
    for (const key of ["required_method", "subtract_from", "final_at"]) delete v3[key];
    const fromNull = fromV3(v3);
    const fromEmpty = fromV2(
      rawV2(sample("715308958_rPwTzvsvCm"), {
        url: "",
        description: "",
        redirect_url: "",
        callback_url: "",
        extra: "",
      }),
    );
    for (const invoice of [fromNull, fromEmpty]) {
      expect(invoice).toMatchObject({
        url: null,
        method: null,
        requiredMethod: null,
        description: null,
        redirectUrl: null,
        callbackUrl: null,
        extra: null,
        finalAt: null,
      });
    }
    expect(fromNull.subtractFrom).toBeNull();
  });

  it("normalises decimal strings and accepts numbers", () => {
    const invoice = fromV3(
      rawV3(sample("715308958_rPwTzvsvCm"), {
        initial_amount: "100.00",
        amount: "0.00012345",
        balance_amount: 7.5,
        rub_amount: "123456789012345678901234567890.123456789",
      }),
    );
    expect(invoice.amounts).toMatchObject({
      amount: money("0.00012345", "RUB"),
      initialAmount: money("100", "RUB"),
      balanceAmount: money("7.5", "RUB"),
      rubAmount: money("123456789012345678901234567890.123456789", "RUB"),
    });
  });
});

describe("the service's documented examples, each amount with the currency the answer ties it to", () => {
  const common = {
    error: false,
    errors: [],
    id: "715308958_rPwTzvsvCm",
    url: "https://pay.crystalpay.io/?i=715308958_rPwTzvsvCm",
    type: "purchase",
    created_at: "2024-05-01 13:00:00",
    expired_at: "2024-05-02 13:00:00",
  };
  const v2 = {
    ...common,
    required_method: "",
    description: "",
    redirect_url: "",
    callback_url: "",
    extra: "",
    service_commission: 0,
    extra_commission: 0,
  };
  const v3 = { ...common, required_method: null, subtract_from: "balance", final_at: null };

  it("v2 unpaid: every amount in RUB", () => {
    const invoice = fromV2({
      ...v2,
      state: "notpayed",
      method: null,
      currency: "RUB",
      amount: 100,
      pay_amount: 100,
      remaining_amount: 100,
      balance_amount: 100,
    });
    expect(Object.values(invoice.amounts).map((each) => each.currency)).toEqual(["RUB", "RUB", "RUB", "RUB"]);
  });

  it("v2 paid by BITCOIN (the callback example): amount 100 RUB, pay/remaining/balance 0.1 BTC", () => {
    const invoice = fromV2(
      JSON.parse(
        JSON.stringify({
          ...v2,
          state: "payed",
          method: "BITCOIN",
          currency: "BTC",
          amount: 100,
          pay_amount: 0.1,
          remaining_amount: 0.1,
          balance_amount: 0.1,
        }),
      ),
    );
    expect(invoice.amounts).toEqual({
      amount: money("100", "RUB"),
      payAmount: money("0.1", "BTC"),
      remainingAmount: money("0.1", "BTC"),
      balanceAmount: money("0.1", "BTC"),
    });
    expect(invoice.commissions).toEqual({
      serviceCommission: money("0", "BTC"),
      extraCommission: money("0", "BTC"),
    });
  });

  it("v3 newer revision (the invoice/info example): amount in USD once, rub_amount in RUB", () => {
    const invoice = fromV3({
      ...v3,
      state: "notpayed",
      method: null,
      currency: "USD",
      amount_currency: "USD",
      amount: "100",
      initial_amount: "100",
      rub_amount: "8146",
      remaining_amount: "100",
      balance_amount: "0",
      commission_amount: "0",
    });
    expect(invoice.currency).toBe("USD");
    expect(invoice.currencyConflict).toBeNull();
    expect(invoice.amounts).toEqual({
      amount: money("100", "USD"),
      rubAmount: money("8146", "RUB"),
      remainingAmount: money("100", "USD"),
      balanceAmount: money("0", "USD"),
    });
    expect(invoice.commissions).toEqual({ commissionAmount: money("0", "USD") });
  });

  it("v3 older revision (amount_currency, initial_amount only)", () => {
    const invoice = fromV3({
      ...v3,
      state: "notpayed",
      method: null,
      amount_currency: "USD",
      initial_amount: "100",
      rub_amount: "8146",
    });
    expect(invoice.currency).toBe("USD");
    expect(invoice.amounts).toEqual({ amount: money("100", "USD"), rubAmount: money("8146", "RUB") });
  });

  it("v3 with `currency` and no amount_currency (its new name)", () => {
    const invoice = fromV3({
      ...v3,
      state: "notpayed",
      method: null,
      currency: "USD",
      amount: "100",
      initial_amount: "100",
      rub_amount: "8146",
      remaining_amount: "100",
    });
    expect(invoice.currency).toBe("USD");
    expect(invoice.amounts).toEqual({
      amount: money("100", "USD"),
      rubAmount: money("8146", "RUB"),
      remainingAmount: money("100", "USD"),
    });
  });

  it("v3 naming two different currencies: amounts carry none, both names are kept, RUB stays RUB", () => {
    const invoice = fromV3({
      ...v3,
      state: "processing",
      method: "BITCOIN",
      amount_currency: "USD",
      currency: "BTC",
      amount: "100",
      initial_amount: "100",
      rub_amount: "8146",
      remaining_amount: "0.0012",
      commission_amount: "0",
    });
    expect(invoice.currencyConflict).toEqual({ amountCurrency: "USD", currency: "BTC" });
    expect(invoice.amounts).toEqual({
      amount: money("100", null),
      rubAmount: money("8146", "RUB"),
      remainingAmount: money("0.0012", null),
    });
    expect(invoice.commissions).toEqual({ commissionAmount: money("0", null) });
  });

  it("v3 accepts fields it does not know, at any depth, and reads the rest as usual", () => {
    const invoice = fromV3({
      ...v3,
      state: "notpayed",
      method: null,
      currency: "USD",
      amount: "100",
      rub_amount: "8146",
      payer: { email: "a@b.example", tags: [1, 2] },
      new_amount_kind: "12",
    });
    expect(invoice.amounts).toEqual({ amount: money("100", "USD"), rubAmount: money("8146", "RUB") });
  });

  it("v3 requires a currency under one of its names, and an amount under one of its names", () => {
    const base = { ...v3, state: "notpayed", method: null, amount: "100", initial_amount: "100" };
    expect(rejected(invoiceV3Schema.safeParse(base))).toEqual(["currency"]);
    expect(
      rejected(invoiceV3Schema.safeParse({ ...base, currency: "USD", amount: null, initial_amount: null })),
    ).toEqual(["amount"]);
  });
});

/** Paths of the fields a schema rejects, e.g. ["amount", "state"]. */
function rejected(result: { success: boolean; error?: { issues: { path: PropertyKey[] }[] } }): string[] {
  expect(result.success).toBe(false);
  return [...new Set((result.error?.issues ?? []).map((issue) => issue.path.map(String).join(".")))].sort();
}

describe("schemas reject wrong types", () => {
  const v2 = rawV2(sample("715308958_rPwTzvsvCm"));
  const v3 = rawV3(sample("715308958_rPwTzvsvCm"));

  it("accept the samples as they are", () => {
    for (const invoice of SAMPLES) {
      expect(invoiceV2Schema.safeParse(rawV2(invoice)).success).toBe(true);
      expect(invoiceV3Schema.safeParse(rawV3(invoice)).success).toBe(true);
    }
  });

  it.each([
    [{ amount: "lots" }, "amount"],
    [{ amount: "" }, "amount"],
    [{ amount: null }, "amount"],
    [{ amount: true }, "amount"],
    [{ pay_amount: "1,500" }, "pay_amount"],
    [{ service_commission: {} }, "service_commission"],
    [{ state: 7 }, "state"],
    [{ state: "" }, "state"],
    [{ id: "" }, "id"],
    [{ id: 715308958 }, "id"],
    [{ type: null }, "type"],
    [{ created_at: "yesterday" }, "created_at"],
    [{ created_at: "2024-02-30 10:00:00" }, "created_at"],
    [{ expired_at: "2024-01-01T10:00:00" }, "expired_at"],
    [{ expired_at: 1714557600 }, "expired_at"],
    [{ currency: "" }, "currency"],
    [{ currency: "R" }, "currency"],
    [{ currency: "<!here>" }, "currency"],
    [{ currency: null }, "currency"],
    [{ method: 5 }, "method"],
    [{ description: ["a"] }, "description"],
  ])("v2 %j", (patch, path) => {
    expect(rejected(invoiceV2Schema.safeParse({ ...v2, ...patch }))).toEqual([path]);
  });

  it("v2 the fake's wrong-types answer: each bad field is named", () => {
    const result = invoiceV2Schema.safeParse({ ...v2, amount: "lots", state: 7, created_at: "yesterday" });
    expect(rejected(result)).toEqual(["amount", "created_at", "state"]);
  });

  it("v2 requires every amount", () => {
    const raw = { ...v2 };
    delete raw.balance_amount;
    expect(rejected(invoiceV2Schema.safeParse(raw))).toEqual(["balance_amount"]);
  });

  it.each([
    [{ initial_amount: "lots" }, "initial_amount"],
    [{ amount: "lots" }, "amount"],
    [{ rub_amount: "1e" }, "rub_amount"],
    [{ state: 7 }, "state"],
    [{ created_at: "yesterday" }, "created_at"],
    [{ final_at: "yesterday" }, "final_at"],
    [{ amount_currency: "" }, "amount_currency"],
    [{ currency: "" }, "currency"],
    [{ subtract_from: 1 }, "subtract_from"],
  ])("v3 %j", (patch, path) => {
    expect(rejected(invoiceV3Schema.safeParse({ ...v3, ...patch }))).toEqual([path]);
  });
});
