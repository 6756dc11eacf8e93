import { describe, expect, it } from "vitest";
import { parseAlertCommand } from "../../src/listeners/commands/balance-alert.js";
import type { BalanceAlert } from "../../src/money-alerts/alerts.js";
import { decideAlert, decideAll, decideFailure, HOUR_MS } from "../../src/money-alerts/balance-decide.js";

const T0 = Date.parse("2026-11-26T10:00:00Z");
const ALERT: BalanceAlert = {
  channel: "C1",
  method: "BITCOIN",
  below: "0.001",
  currency: "BTC",
  by: "U1",
  at: "2026-11-26T09:00:00.000Z",
  told: "above",
};
const btc = (value: string) => ({ code: "BITCOIN", value, currency: "BTC" });

describe("decideAlert", () => {
  it.each([
    // told, belowToldAt, balance, → said, told after
    ["above", undefined, "0.0009", "below", "below"],
    ["above", undefined, "0.001", undefined, "above"], // equal is not below
    ["above", undefined, "5", undefined, "above"],
    ["below", T0 - 60_000, "0.0001", undefined, "below"], // staying below
    ["below", T0 - 60_000, "0.001", "above", "above"],
    ["above", T0 - 60_000, "0.0001", undefined, "above"], // below again within the hour: quiet
    ["above", T0 - HOUR_MS, "0.0001", "below", "below"], // an hour on: told
  ] as const)("told %s (last below %s), balance %s → says %s", (told, belowToldAt, value, said, after) => {
    const alert: BalanceAlert = { ...ALERT, told, ...(belowToldAt === undefined ? {} : { belowToldAt }) };
    const decided = decideAlert(alert, btc(value), T0);
    expect(decided.say?.kind).toBe(said);
    expect(decided.next.told).toBe(after);
    expect(decided.next.seen).toBe(new Set(["0.0009", "0.0001"]).has(value) ? "below" : "above");
  });

  it("compares exact decimals, not floats", () => {
    const alert = { ...ALERT, below: "0.3" };
    expect(decideAlert(alert, btc("0.29999999999999999999"), T0).say?.kind).toBe("below");
    expect(decideAlert(alert, btc("0.30000000000000000000"), T0).say).toBeUndefined();
  });

  it("leaves an alert alone when its method is gone or in another currency", () => {
    expect(decideAlert(ALERT, undefined, T0)).toEqual({ next: ALERT });
    expect(decideAlert(ALERT, { ...btc("0"), currency: "USDT" }, T0)).toEqual({ next: ALERT });
  });
});

describe("decideAll and decideFailure", () => {
  it("decides every alert and clears a failing mark", () => {
    const other = { ...ALERT, channel: "C2", method: "USDTTRC", below: "10", currency: "USDT" };
    const decided = decideAll(
      { v: 1, alerts: [ALERT, other], failingSince: T0 - 10, failingNoted: true },
      [btc("0"), { code: "USDTTRC", value: "50", currency: "USDT" }],
      T0,
    );
    expect(decided.messages.map((one) => [one.kind, one.alert.channel])).toEqual([["below", "C1"]]);
    expect(decided.next.failingSince).toBeUndefined();
    expect(decided.next.failingNoted).toBeUndefined();
  });

  it("notes failing checks once, after an hour, in each alert channel once", () => {
    const alerts = {
      v: 1 as const,
      alerts: [ALERT, { ...ALERT, method: "LTC" }, { ...ALERT, channel: "C9" }],
    };
    const first = decideFailure(alerts, T0);
    expect(first.note).toEqual([]);
    expect(decideFailure(first.next, T0 + HOUR_MS - 1).note).toEqual([]);
    const hour = decideFailure(first.next, T0 + HOUR_MS);
    expect(hour.note).toEqual(["C1", "C9"]);
    expect(decideFailure(hour.next, T0 + 5 * HOUR_MS).note).toEqual([]);
  });
});

describe("parseAlertCommand", () => {
  it.each([
    ["alerts", { kind: "list" }],
    ["alert btc below 0,5", { kind: "set", method: "BTC", amount: "0,5" }],
    ["ALERT Bitcoin BELOW 1500", { kind: "set", method: "BITCOIN", amount: "1500" }],
    ["alert BITCOIN off", { kind: "off", method: "BITCOIN" }],
    ["alert", { kind: "usage" }],
    ["alert BITCOIN above 5", { kind: "usage" }],
    ["alert BITCOIN below 1 500,50", { kind: "set", method: "BITCOIN", amount: "1500,50" }],
    ["alert BITCOIN below 5 now", { kind: "set", method: "BITCOIN", amount: "5now" }],
    ["alert BITCOIN off now", { kind: "usage" }],
    ["alerts BITCOIN", { kind: "usage" }],
    ["help", undefined],
    ["", undefined],
  ] as const)("%j", (input, expected) => {
    expect(parseAlertCommand(input)).toEqual(expected);
  });
});
