/**
 * When the links' pass looks at a created link next (src/links/next-look.ts), how the service's
 * state reads as its outcome (standing.ts), and the create form's and `/invoice new`'s reminder
 * (blocks/invoice-create-remind.ts, invoice-new-text.ts): pure, no store.
 */
import { describe, expect, it } from "vitest";
import { CREATE_FIELDS, validateCreateInput } from "../../src/blocks/invoice-create.js";
import { checkRemind, remindOfWord } from "../../src/blocks/invoice-create-remind.js";
import { AFTER_EXPIRY_MS, nextLook, outcomeDue, remindAt, reminderDue } from "../../src/links/next-look.js";
import { keptUntil, type LinkRecord } from "../../src/links/record.js";
import { endingOf } from "../../src/links/standing.js";
import { parseCreateText } from "../../src/listeners/commands/invoice-new-text.js";

const T0 = Date.parse("2026-11-28T09:00:00Z");
const MIN = 60_000;
const CHECK = MIN;
const LINK: LinkRecord = {
  v: 1,
  ref: "abcdefgh23",
  status: "created",
  invoiceId: "715308959_Look",
  marked: true,
  team: "T0",
  amount: "10",
  currency: "RUB",
  lifetimeMinutes: 600,
  creator: "U0A",
  via: "form",
  createdAt: T0,
  expiresAt: T0 + 600 * MIN,
  remind: 360,
};

describe("a created link's next look", () => {
  it("is its reminder, then a minute after it expires, then its forgetting", () => {
    expect(remindAt(LINK)).toBe(T0 + 240 * MIN);
    expect(nextLook(LINK, T0, CHECK)).toBe(T0 + 240 * MIN);
    expect(reminderDue(LINK, T0 + 239 * MIN)).toBe(false);
    expect(reminderDue(LINK, T0 + 240 * MIN)).toBe(true);
    // Not sent (refused, or a payment processing): tried again next pass.
    expect(nextLook(LINK, T0 + 240 * MIN, CHECK)).toBe(T0 + 241 * MIN);
    const reminded = { ...LINK, reminded: true };
    expect(nextLook(reminded, T0 + 240 * MIN, CHECK)).toBe(T0 + 600 * MIN + AFTER_EXPIRY_MS);
    expect(outcomeDue(reminded, T0 + 600 * MIN)).toBe(false);
    expect(outcomeDue(reminded, T0 + 601 * MIN)).toBe(true);
    const ended = { ...reminded, outcome: "expired" as const };
    expect(nextLook(ended, T0 + 601 * MIN, CHECK)).toBe(keptUntil(ended));
    // Watching a pair: every pass.
    expect(nextLook(ended, T0 + 601 * MIN, CHECK, true)).toBe(T0 + 602 * MIN);
  });

  it("owes no reminder when off, stopped, paid, re-issued, or past its expiry", () => {
    for (const record of [
      { ...LINK, remind: undefined },
      { ...LINK, remind: 0 },
      { ...LINK, outcome: "paid" as const },
      { ...LINK, replacedBy: "zzzzzzzz22" },
    ])
      expect(remindAt(record)).toBeUndefined();
    expect(reminderDue(LINK, T0 + 600 * MIN)).toBe(false);
    expect(nextLook(LINK, T0 + 600 * MIN, CHECK)).toBe(T0 + 601 * MIN);
  });

  it("reads the service's state as how it ended: paid any time, expired once closed, processing waited for", () => {
    const closes = T0 + 600 * MIN;
    expect(endingOf("payed", closes, T0)).toBe("paid");
    expect(endingOf("notpayed", closes, closes)).toBeUndefined();
    expect(endingOf("notpayed", closes, closes + AFTER_EXPIRY_MS)).toBe("expired");
    expect(endingOf("processing", closes, closes + AFTER_EXPIRY_MS)).toBeUndefined();
    expect(endingOf("processing", closes, closes + 25 * 60 * MIN)).toBe("expired");
  });
});

describe("Remind me", () => {
  it("is offered 1 or 6 hours before expiry, only for a longer lifetime, said next to the field", () => {
    const errors: Record<string, string> = {};
    expect(checkRemind("360", 600, "en", errors)).toBe(360);
    expect(checkRemind("0", 30, "en", errors)).toBeUndefined();
    expect(checkRemind("999", 30, "en", errors)).toBeUndefined();
    expect(errors).toEqual({});
    const checked = validateCreateInput({ amount: "10", currency: "RUB", lifetime: "60", remind: "60" });
    expect(checked.ok).toBe(false);
    if (!checked.ok) expect(checked.errors[CREATE_FIELDS.remind]).toContain("more than 60 minutes");
    const ru = validateCreateInput({ amount: "10", currency: "RUB", lifetime: "360", remind: "360" }, "ru");
    expect(ru.ok).toBe(false);
    if (!ru.ok) expect(ru.errors[CREATE_FIELDS.remind]).toContain("больше 360 минут");
    expect(
      validateCreateInput({ amount: "10", currency: "RUB", lifetime: "61", remind: "60" }),
    ).toMatchObject({
      ok: true,
      remind: 60,
    });
  });

  it("is read from /invoice new in English and Russian; an hour count it does not offer is kept to be said", () => {
    const currencies = ["RUB", "USD"];
    expect(parseCreateText('1500 USD customer "Acme" remind 6h Order 7', currencies)).toEqual({
      amount: "1500",
      currency: "USD",
      customer: "Acme",
      remind: 360,
      description: "Order 7",
    });
    expect(parseCreateText("1500 напомнить 1ч Заказ", currencies)).toMatchObject({
      remind: 60,
      description: "Заказ",
    });
    expect(parseCreateText("1500 remind 3h", currencies)).toMatchObject({ remindUnclear: "3h" });
    expect(parseCreateText("1500 remind me later", currencies)).toEqual({
      amount: "1500",
      description: "remind me later",
    });
    expect([remindOfWord("6h"), remindOfWord("1 час"), remindOfWord("2h")]).toEqual([360, 60, undefined]);
  });
});
