import { describe, expect, it } from "vitest";
import { buildPeriodReport, formatChange } from "../../src/blocks/period-report.js";
import type { HistoryEntry } from "../../src/payments/history.js";
import { periodBounds } from "../../src/reports/periods.js";
import { ReportCounter } from "../../src/reports/report.js";
import { expectWithinBlockKitLimits } from "../support/block-kit-limits.js";
import { englishWords, russianLetters } from "../support/english-words.js";

const NOW = new Date("2026-11-26T11:30:00Z");

function busyReport() {
  const period = periodBounds("30d", NOW, "Europe/Moscow");
  if (!period) throw new Error("no period");
  const counter = new ReportCounter(period);
  for (let i = 0; i < 400; i += 1) {
    const entry: HistoryEntry = {
      id: `7155${String(i).padStart(5, "0")}_Busy${"x".repeat(60)}`,
      state: i % 4 === 0 ? "notpayed" : "payed",
      method: i % 13 === 0 ? null : `METHOD${i % 11}`,
      rub: `${(i * 137) % 100_000}.${String(i % 100).padStart(2, "0")}`,
      amount: { value: `${i}.5`, currency: i % 3 === 0 ? "USD" : "RUB" },
      createdAt: { text: "", zone: "Europe/Moscow", epochSeconds: period.previous.from + i * 12_000 },
    };
    counter.add(entry);
  }
  counter.unreadable = 3;
  counter.partial = true;
  counter.daysLeftOut = ["2026-11-20", "2026-11-14", "2026-11-13", "2026-11-09", "2026-11-02", "2026-10-30"];
  return counter.finish();
}

describe("the period report's blocks", () => {
  it("stays within Block Kit's limits in both languages, Russian without English words", () => {
    const report = busyReport();
    for (const lang of ["en", "ru"] as const) {
      const message = buildPeriodReport(report, {
        teamId: "T0SANDBOX",
        fetchedAt: NOW,
        audience: "asker",
        lang,
      });
      expectWithinBlockKitLimits(message);
      if (lang === "ru") expect(englishWords(message)).toEqual([]);
      else expect(russianLetters(message)).toEqual([]);
    }
    const digest = buildPeriodReport(report, {
      teamId: "T0SANDBOX",
      fetchedAt: NOW,
      audience: { digest: "weekly" },
      lang: "ru",
      showLargest: false,
    });
    expect(digest.response_type).toBe("in_channel");
    expect(englishWords(digest)).toEqual([]);
  });

  it("writes a change with its sign and the language's decimal mark", () => {
    expect(formatChange("12.5", "en")).toBe("+12.5 %");
    expect(formatChange("-3.1", "ru")).toBe("-3,1 %");
    expect(formatChange("1200", "en")).toBe("+1,200 %");
  });

  it("names the kept days it could not read in either language, and says they are not counted", () => {
    const period = periodBounds("7d", NOW, "Europe/Moscow");
    if (!period) throw new Error("no period");
    const counter = new ReportCounter(period);
    counter.daysLeftOut = ["2026-11-24"];
    const text = (lang: "en" | "ru") =>
      JSON.stringify(
        buildPeriodReport(counter.finish(), { teamId: "T1", fetchedAt: NOW, audience: "asker", lang }),
      );
    expect(text("en")).toContain(
      "The invoices Kassa keeps for 2026-11-24 (days in UTC) could not be read, even afresh from the payment service, and are not counted.",
    );
    expect(text("ru")).toContain(
      "Счета, которые Kassa хранит за 2026-11-24 (дни по UTC), не удалось прочитать",
    );
    expect(
      JSON.stringify(
        buildPeriodReport(busyReport(), { teamId: "T1", fetchedAt: NOW, audience: "asker", lang: "en" }),
      ),
    ).toContain("for 2026-11-20, 2026-11-14, 2026-11-13, 2026-11-09, 2026-11-02 (+1) (days in UTC)");
  });
});
