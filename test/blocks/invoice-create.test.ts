import { describe, expect, it } from "vitest";
import {
  CREATE_FIELDS,
  CREATE_INVOICE_VIEW,
  createInvoiceModal,
  validateCreateInput,
} from "../../src/blocks/invoice-create.js";
import type { PaymentMethod } from "../../src/payments/model.js";

type Block = { block_id?: string; optional?: boolean; element?: Record<string, unknown> };
const blocksOf = (view: { blocks: unknown[] }) => view.blocks as Block[];
const field = (view: { blocks: unknown[] }, id: string) =>
  blocksOf(view).find((block) => block.block_id === id);

const method = (code: string, name: string, currency: string): PaymentMethod =>
  ({ code, name, currency, enabled: true }) as PaymentMethod;

describe("createInvoiceModal", () => {
  it("opens empty with RUB and 60 minutes, the channel kept in private_metadata", () => {
    const view = createInvoiceModal({ origin: { t: "T1", c: "C1" } });
    expect(view.callback_id).toBe(CREATE_INVOICE_VIEW);
    expect(JSON.parse(view.private_metadata ?? "")).toEqual({ t: "T1", c: "C1" });
    expect(field(view, CREATE_FIELDS.amount)?.element?.initial_value).toBeUndefined();
    expect(field(view, CREATE_FIELDS.currency)?.element?.initial_option).toMatchObject({ value: "RUB" });
    expect(field(view, CREATE_FIELDS.lifetime)?.element?.initial_value).toBe("60");
    expect(field(view, CREATE_FIELDS.description)?.optional).toBe(true);
    expect(field(view, CREATE_FIELDS.extra)?.optional).toBe(true);
    // No method list: the field is left out rather than offered empty.
    expect(field(view, CREATE_FIELDS.method)).toBeUndefined();
  });

  it("is pre-filled with amount, currency and description", () => {
    const view = createInvoiceModal({
      amount: "1500",
      currency: "usd",
      description: "Order 10232",
      origin: { t: "T1", c: "C1" },
    });
    expect(field(view, CREATE_FIELDS.amount)?.element?.initial_value).toBe("1500");
    expect(field(view, CREATE_FIELDS.currency)?.element?.initial_option).toMatchObject({ value: "USD" });
    expect(field(view, CREATE_FIELDS.description)?.element?.initial_value).toBe("Order 10232");
  });

  it("offers the given methods as an optional select", () => {
    const view = createInvoiceModal({
      methods: [method("BITCOIN", "Bitcoin", "BTC"), method("CARDRUBP2P", "Card RUB P2P", "RUB")],
      origin: { t: "T1", c: "C1" },
    });
    const select = field(view, CREATE_FIELDS.method);
    expect(select?.optional).toBe(true);
    expect(select?.element?.type).toBe("static_select");
    expect(select?.element?.options).toEqual([
      { text: { type: "plain_text", text: "Bitcoin (BTC)" }, value: "BITCOIN" },
      { text: { type: "plain_text", text: "Card RUB P2P (RUB)" }, value: "CARDRUBP2P" },
    ]);
  });
});

describe("createInvoiceModal: who it is for", () => {
  it("offers the customer always, the payer's e-mail only where the register takes it (v3)", () => {
    const v2 = createInvoiceModal({ origin: { t: "T1", c: "C1" }, customer: "Acme Ltd" });
    expect(field(v2, CREATE_FIELDS.customer)).toMatchObject({ optional: true });
    expect(field(v2, CREATE_FIELDS.customer)?.element).toMatchObject({
      initial_value: "Acme Ltd",
      max_length: 80,
    });
    expect(field(v2, CREATE_FIELDS.email)).toBeUndefined();
    const v3 = createInvoiceModal({ origin: { t: "T1", c: "C1" }, emailOffered: true, email: "a@b.co" });
    expect(field(v3, CREATE_FIELDS.email)).toMatchObject({ optional: true });
    expect(field(v3, CREATE_FIELDS.email)?.element?.initial_value).toBe("a@b.co");
    const long = createInvoiceModal({ origin: { t: "T1", c: "C1" }, customer: "x".repeat(200) });
    expect(field(long, CREATE_FIELDS.customer)?.element?.initial_value).toBe("x".repeat(80));
  });

  it("keeps the customer apart from what is sent, and sends the e-mail as payer details", () => {
    const result = validateCreateInput({
      amount: "10",
      currency: "RUB",
      lifetime: "60",
      customer: "  Acme Ltd ",
      email: " pay@acme.example ",
    });
    expect(result).toMatchObject({
      ok: true,
      customer: "Acme Ltd",
      draft: { payerDetails: "pay@acme.example" },
    });
    expect(result.ok && "customer" in result.draft).toBe(false);
  });

  it.each(["pay", "pay@", "@acme.example", "pay@acme", "a b@c.de", "pay@acme.", "<a@b.co>", "a@b.co,c@d.ef"])(
    "refuses the e-mail %j next to its field",
    (email) => {
      const result = validateCreateInput({ amount: "10", currency: "RUB", lifetime: "60", email });
      expect(result.ok).toBe(false);
      if (!result.ok) expect(Object.keys(result.errors)).toEqual([CREATE_FIELDS.email]);
    },
  );

  it("refuses a customer longer than 80 characters (a step's input or a command's word)", () => {
    const result = validateCreateInput({
      amount: "10",
      currency: "RUB",
      lifetime: "60",
      customer: "y".repeat(81),
    });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.errors[CREATE_FIELDS.customer]).toContain("80");
    expect(
      validateCreateInput({ amount: "10", currency: "RUB", lifetime: "60", customer: "y".repeat(80) }).ok,
    ).toBe(true);
  });
});

describe("validateCreateInput", () => {
  const good = { amount: "1500.50", currency: "USD", lifetime: "60" };

  it("keeps the amount as an exact decimal string", () => {
    const result = validateCreateInput({ ...good, amount: "0.30000000", description: "  Order 1 " });
    expect(result).toEqual({
      ok: true,
      draft: {
        amount: "0.3",
        currency: "USD",
        lifetimeMinutes: 60,
        description: "Order 1",
        extra: undefined,
        requiredMethod: undefined,
      },
    });
    // Spaces around it (a paste) are not part of the amount.
    const pasted = validateCreateInput({ ...good, amount: " 1500 " });
    expect(pasted.ok && pasted.draft.amount).toBe("1500");
    const precise = validateCreateInput({ ...good, amount: "0.00000001" });
    expect(precise.ok && precise.draft.amount).toBe("0.00000001");
  });

  it.each([
    ["", "Enter the amount."],
    ["0", "more than 0"],
    ["0.00", "more than 0"],
    ["-5", "digits"],
    ["1e5", "digits"],
    ["12,50", "digits"],
    ["0.000000001", "digits"],
    ["abc", "digits"],
    // One way of writing an amount, as the error text says: no spaces inside it.
    [" 15 00 ", "no spaces"],
    ["1 500", "no spaces"],
  ])("refuses the amount %j next to the field", (amount, words) => {
    const result = validateCreateInput({ ...good, amount });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.errors[CREATE_FIELDS.amount]).toContain(words);
  });

  it.each(["0", "4321", "1.5", "", "sixty"])("refuses a lifetime of %j", (lifetime) => {
    const result = validateCreateInput({ ...good, lifetime });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(Object.keys(result.errors)).toEqual([CREATE_FIELDS.lifetime]);
  });

  it("accepts 1 and 4320 minutes and refuses an unlisted currency", () => {
    expect(validateCreateInput({ ...good, lifetime: "1" }).ok).toBe(true);
    expect(validateCreateInput({ ...good, lifetime: "4320" }).ok).toBe(true);
    const result = validateCreateInput({ ...good, currency: "XYZ" });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(Object.keys(result.errors)).toEqual([CREATE_FIELDS.currency]);
  });
});
