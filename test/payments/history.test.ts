import { describe, expect, it } from "vitest";
import { historyFrom } from "../../src/payments/history.js";
import { JsonNumber } from "../../src/payments/json.js";

const ok = {
  id: "715308958_rPwTzvsvCm",
  state: "payed",
  method: "BITCOIN",
  created_at: "2026-11-24 12:00:00",
};

describe("historyFrom", () => {
  it("v2: the amount is roubles, whatever `currency` says (the pay currency)", () => {
    const page = historyFrom(
      [{ ...ok, amount: new JsonNumber("1500.5"), currency: "BTC" }],
      null,
      "Europe/Moscow",
      "v2",
    );
    expect(page.entries[0]).toMatchObject({ amount: { value: "1500.5", currency: "RUB" }, rub: "1500.5" });
    expect(page.entries[0]?.createdAt.epochSeconds).toBe(Date.UTC(2026, 10, 24, 9) / 1000);
  });

  it("v3: the invoice currency; none when `currency` and `amount_currency` disagree; rub_amount kept", () => {
    const [same, conflict] = historyFrom(
      [
        { ...ok, amount: "100", currency: "usd", amount_currency: "USD", rub_amount: "8146" },
        { ...ok, amount: "100", currency: "USD", amount_currency: "BTC" },
      ],
      true,
      "UTC",
      "v3",
    ).entries;
    expect(same).toMatchObject({ amount: { value: "100", currency: "USD" }, rub: "8146" });
    expect(conflict?.amount).toEqual({ value: "100", currency: null });
    expect(conflict?.rub).toBeNull();
  });

  it("counts what it cannot read instead of guessing: no id, no state, a bad time, not an object", () => {
    const page = historyFrom(
      [
        ok,
        { ...ok, id: "" },
        { ...ok, state: undefined },
        { ...ok, created_at: "2026-02-30 12:00:00" },
        { ...ok, created_at: "yesterday" },
        "not an entry",
        null,
      ],
      false,
      "UTC",
      "v2",
    );
    expect(page.entries).toHaveLength(1);
    expect(page.unreadable).toBe(6);
    expect(page.hasNextPage).toBe(false);
  });

  it("an amount of the wrong type is left out, the entry kept (the feed needs only id, state, time)", () => {
    const [entry] = historyFrom([{ ...ok, amount: "lots" }], null, "UTC", "v2").entries;
    expect(entry).toMatchObject({ id: ok.id, amount: null, rub: null });
  });

  it("reads the expiry (`expired_at`) in the service's zone; one that cannot be read is null, the entry kept", () => {
    const [v2, v3, bad, none] = historyFrom(
      [
        { ...ok, expired_at: "2026-11-24 13:00:00" },
        { ...ok, expired_at: "2026-11-24 13:00:00" },
        { ...ok, expired_at: "soon" },
        ok,
      ],
      null,
      "Europe/Moscow",
      "v2",
    ).entries;
    expect(v2?.expiresAt?.epochSeconds).toBe(Date.UTC(2026, 10, 24, 10) / 1000);
    expect(v3?.expiresAt?.text).toBe("2026-11-24 13:00:00");
    expect(bad?.expiresAt).toBeNull();
    expect(none?.expiresAt).toBeNull();
    expect(
      historyFrom([{ ...ok, expired_at: "2026-11-24 13:00:00" }], true, "UTC", "v3").entries[0]?.expiresAt
        ?.epochSeconds,
    ).toBe(Date.UTC(2026, 10, 24, 13) / 1000);
  });
});
