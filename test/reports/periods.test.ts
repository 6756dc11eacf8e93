import { describe, expect, it } from "vitest";
import { bucketOf, FIRST_MONTH_YEAR, monthPeriod, periodBounds } from "../../src/reports/periods.js";

// 2026-11-26 14:30 in Moscow (UTC+3).
const NOW = new Date("2026-11-26T11:30:00Z");
const at = (iso: string) => Math.floor(Date.parse(iso) / 1000);
const ZONE = "Europe/Moscow";

describe("report periods", () => {
  it("today: from midnight to now, compared with yesterday up to the same time, in hours", () => {
    const p = periodBounds("today", NOW, ZONE);
    expect(p?.from).toBe(at("2026-11-25T21:00:00Z"));
    expect(p?.to).toBe(at("2026-11-26T11:30:01Z"));
    expect(p?.previous).toEqual({ from: at("2026-11-24T21:00:00Z"), to: at("2026-11-25T11:30:01Z") });
    expect(p?.buckets.unit).toBe("hour");
    expect(p?.buckets.starts).toHaveLength(24);
    expect(p?.buckets.previousStarts[0]).toBe(at("2026-11-24T21:00:00Z"));
  });

  it("yesterday: a whole day, compared with the day before", () => {
    const p = periodBounds("yesterday", NOW, ZONE);
    expect(p?.from).toBe(at("2026-11-24T21:00:00Z"));
    expect(p?.to).toBe(at("2026-11-25T21:00:00Z"));
    expect(p?.previous).toEqual({ from: at("2026-11-23T21:00:00Z"), to: at("2026-11-24T21:00:00Z") });
  });

  it("7d and 30d: that many days ending now, compared with the same days just before, cut at the same time", () => {
    const week = periodBounds("7d", NOW, ZONE);
    expect(week?.from).toBe(at("2026-11-19T21:00:00Z"));
    expect(week?.previous).toEqual({ from: at("2026-11-12T21:00:00Z"), to: at("2026-11-19T11:30:01Z") });
    expect(week?.buckets.labels).toEqual(["11-20", "11-21", "11-22", "11-23", "11-24", "11-25", "11-26"]);
    const month = periodBounds("30d", NOW, ZONE);
    expect(month?.from).toBe(at("2026-10-27T21:00:00Z"));
    expect(month?.buckets.starts).toHaveLength(30);
    expect(month?.previous.from).toBe(at("2026-09-27T21:00:00Z"));
    expect((month?.previous.to ?? 0) - (month?.previous.from ?? 0)).toBe(
      (month?.to ?? 0) - (month?.from ?? 0),
    );
  });

  it("a past month is whole and compared with the whole month before", () => {
    const october = periodBounds("2026-10", NOW, ZONE);
    expect(october?.from).toBe(at("2026-09-30T21:00:00Z"));
    expect(october?.to).toBe(at("2026-10-31T21:00:00Z"));
    expect(october?.previous).toEqual({ from: at("2026-08-31T21:00:00Z"), to: at("2026-09-30T21:00:00Z") });
    expect(october?.buckets.starts).toHaveLength(31);
    expect(october?.buckets.previousStarts).toHaveLength(30);
  });

  it("this month so far is compared with the month before up to the same day and time; a future month is refused", () => {
    const november = periodBounds("2026-11", NOW, ZONE);
    expect(november?.to).toBe(at("2026-11-26T11:30:01Z"));
    expect(november?.previous).toEqual({ from: at("2026-09-30T21:00:00Z"), to: at("2026-10-26T11:30:01Z") });
    expect(periodBounds("2026-12", NOW, ZONE)).toBeUndefined();
    // March 31st: February has no 31st, so all of February.
    const march = periodBounds("2027-03", new Date("2027-03-31T09:00:00Z"), ZONE);
    expect(march?.previous.to).toBe(march?.from);
  });

  it("keeps 24 hour buckets on a day the clocks change, in the reader's zone", () => {
    const p = periodBounds("yesterday", new Date("2026-03-30T10:00:00Z"), "Europe/Berlin");
    expect(p?.buckets.starts).toHaveLength(24);
    expect(p?.to && p.from && (p.to - p.from) / 3600).toBe(23);
  });

  it("reads a month only as YYYY-MM with a real month", () => {
    expect(monthPeriod("2026-10")).toBe("2026-10");
    expect(monthPeriod("2026-13")).toBeUndefined();
    expect(monthPeriod("26-10")).toBeUndefined();
    // Years before FIRST_MONTH_YEAR: no invoice is that old, and Date.UTC reads 0000 as 1900.
    expect(monthPeriod(`${FIRST_MONTH_YEAR}-01`)).toBe(`${FIRST_MONTH_YEAR}-01`);
    for (const month of ["0000-01", "0001-01", `${FIRST_MONTH_YEAR - 1}-12`]) {
      expect(monthPeriod(month), month).toBeUndefined();
    }
  });

  it("finds an instant's bucket", () => {
    expect(bucketOf([10, 20, 30], 5)).toBe(-1);
    expect(bucketOf([10, 20, 30], 10)).toBe(0);
    expect(bucketOf([10, 20, 30], 29)).toBe(1);
    expect(bucketOf([10, 20, 30], 99)).toBe(2);
  });
});
