import { describe, expect, it } from "vitest";
import type { HistoryEntry } from "../../src/payments/history.js";
import { periodBounds } from "../../src/reports/periods.js";
import { changePercent, ReportCounter, rubOf } from "../../src/reports/report.js";

const NOW = new Date("2026-11-26T11:30:00Z");
const period = periodBounds("today", NOW, "Europe/Moscow");
if (!period) throw new Error("no period");

function entry(
  id: string,
  state: string,
  rub: string | null,
  method: string | null,
  epochSeconds: number,
  amount: HistoryEntry["amount"] = rub === null ? null : { value: rub, currency: "RUB" },
): HistoryEntry {
  return {
    id,
    state,
    method,
    rub,
    amount,
    createdAt: { text: "", zone: "Europe/Moscow", epochSeconds },
  };
}

describe("ReportCounter", () => {
  const today = (hours: number) => (period?.from ?? 0) + hours * 3600;
  const yesterday = (hours: number) => (period?.previous.from ?? 0) + hours * 3600;

  it("counts the period and the span before apart, exact, test payments aside, per hour", () => {
    const counter = new ReportCounter(period);
    counter.add(entry("a", "payed", "0.1", "CARDRUBP2P", today(1)));
    counter.add(entry("b", "payed", "0.2", "CARDRUBP2P", today(1)));
    counter.add(entry("c", "notpayed", "300", null, today(2)));
    counter.add(entry("d", "payed", "100", "TEST", today(3)));
    counter.add(entry("e", "payed", null, "BITCOIN", today(4), { value: "0.001", currency: "BTC" }));
    counter.add(entry("f", "payed", "50", "CRYSTALPAY", yesterday(2)));
    counter.add(entry("g", "failed", "50", "CRYSTALPAY", yesterday(2)));
    // After yesterday's cut (the same time of day): not compared.
    counter.add(entry("h", "payed", "999", "CRYSTALPAY", yesterday(20)));
    const report = counter.finish();
    expect(report.current).toMatchObject({ created: 4, paid: 3, paidRub: "0.3", unpriced: 1 });
    expect(report.current.perBucket[1]).toBe("0.3");
    expect(report.earlier).toMatchObject({ created: 2, paid: 1, paidRub: "50" });
    expect(report.test).toEqual({ created: 1, paid: 1 });
    expect(report.top.map((invoice) => invoice.id)).toEqual(["b", "a"]);
  });

  it("names the five largest paid invoices (the newer first among equals) and six methods before other", () => {
    const counter = new ReportCounter(period);
    const methods = ["M1", "M2", "M3", "M4", "M5", "M6", "M7", "M8"];
    methods.forEach((method, index) => {
      counter.add(entry(`x${index}`, "payed", String((index + 1) * 100), method, today(1) + index));
    });
    counter.add(entry("tie", "payed", "800", "M8", today(2)));
    const report = counter.finish();
    expect(report.top.map((invoice) => invoice.id)).toEqual(["tie", "x7", "x6", "x5", "x4"]);
    expect(report.methods.map((total) => total.method)).toEqual(["M8", "M7", "M6", "M5", "M4", "M3"]);
    expect(report.methods[0]).toEqual({ method: "M8", paid: 2, rub: "1600" });
    expect(report.otherMethods).toEqual({ methods: 2, paid: 2, rub: "300" });
  });

  it("gives a change in percent, exact to one decimal, and none against zero", () => {
    expect(changePercent("112.5", "100")).toBe("12.5");
    expect(changePercent("1", "3")).toBe("-66.7");
    expect(changePercent("5", "0")).toBeNull();
    expect(changePercent("0.3", "0.1")).toBe("200");
  });

  it("takes roubles from the history, or the amount when it is in roubles", () => {
    expect(rubOf({ rub: "5", amount: { value: "1", currency: "USD" } })).toBe("5");
    expect(rubOf({ rub: null, amount: { value: "7", currency: "RUB" } })).toBe("7");
    expect(rubOf({ rub: null, amount: { value: "7", currency: "USD" } })).toBeNull();
  });
});
