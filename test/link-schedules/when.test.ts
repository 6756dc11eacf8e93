import { describe, expect, it } from "vitest";
import { firstRun, runAfter } from "../../src/link-schedules/when.js";
import { splitRepeat } from "../../src/listeners/commands/invoice-repeat-text.js";

const ZONE = "Europe/Moscow";
const at = (iso: string) => Date.parse(iso);

describe("when a schedule runs", () => {
  it("runs first at the next such moment, today included, and a month's 31st on a short month's last day", () => {
    const rule = { every: "month", day: 31, at: "10:00" } as const;
    // 31 January 2027 09:00 Moscow: today, at 10:00.
    expect(firstRun(rule, at("2027-01-31T06:00:00Z"), ZONE)).toBe(at("2027-01-31T07:00:00Z"));
    // After 10:00: the next month's last day, 28 February.
    expect(firstRun(rule, at("2027-01-31T08:00:00Z"), ZONE)).toBe(at("2027-02-28T07:00:00Z"));
    expect(runAfter(rule, at("2027-02-28T07:00:00Z"), ZONE)).toBe(at("2027-03-31T07:00:00Z"));
  });

  it("runs weekly on its weekday, this very minute counting", () => {
    const rule = { every: "week", day: 5, at: "09:30" } as const; // Friday
    const friday = at("2026-12-04T06:30:20Z"); // Friday 09:30:20 in Moscow
    expect(firstRun(rule, friday, ZONE)).toBe(at("2026-12-04T06:30:00Z"));
    expect(runAfter(rule, at("2026-12-04T06:30:00Z"), ZONE)).toBe(at("2026-12-11T06:30:00Z"));
  });
});

describe("the repeat words of /invoice new", () => {
  it("reads English and Russian, and leaves a description that merely says every", () => {
    expect(splitRepeat("1500 RUB Rent every month on 5 at 10:00 12 times")).toEqual({
      before: "1500 RUB Rent",
      repeat: { every: "month", day: 5, at: "10:00", times: 12 },
    });
    expect(splitRepeat("1500 RUB каждую неделю в пятницу в 9:05 до 01.06.2027")).toEqual({
      before: "1500 RUB",
      repeat: { every: "week", day: 5, at: "09:05", until: "2027-06-01" },
    });
    expect(splitRepeat("1500 RUB for every seat")).toEqual({ before: "1500 RUB for every seat" });
    expect(splitRepeat("1500 RUB every month on Friday").repeat).toBe("invalid");
  });
});
