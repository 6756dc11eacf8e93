import { describe, expect, it } from "vitest";
import { type PeriodDigest, periodDigestDue } from "../../src/digests/model.js";

const digest = (cadence: "weekly" | "monthly", since = 0): PeriodDigest => ({
  channel: "C0REPORTS",
  cadence,
  at: "09:00",
  zone: "Europe/Moscow",
  since,
  by: "U0ADMIN",
});

describe("when a weekly or monthly digest is owed", () => {
  it("weekly: from Monday at its time, the week Monday to Sunday before; all week long, once per Monday", () => {
    // Monday 2026-11-23, 08:59 and 09:00 in Moscow.
    expect(periodDigestDue(new Date("2026-11-23T05:59:00Z"), digest("weekly"))).toBeUndefined();
    expect(periodDigestDue(new Date("2026-11-23T06:00:00Z"), digest("weekly"))).toEqual({
      key: "2026-11-23",
      period: "week-2026-11-16",
    });
    // Thursday of that week: still that Monday's (posted once: the key says so).
    expect(periodDigestDue(new Date("2026-11-26T12:00:00Z"), digest("weekly"))?.key).toBe("2026-11-23");
    // Sunday night belongs to the week that began the Monday before.
    expect(periodDigestDue(new Date("2026-11-29T20:00:00Z"), digest("weekly"))?.period).toBe(
      "week-2026-11-16",
    );
  });

  it("monthly: from the 1st at its time, last month", () => {
    expect(periodDigestDue(new Date("2026-12-01T05:59:00Z"), digest("monthly"))).toBeUndefined();
    expect(periodDigestDue(new Date("2026-12-01T06:00:00Z"), digest("monthly"))).toEqual({
      key: "2026-12",
      period: "2026-11",
    });
    expect(periodDigestDue(new Date("2027-01-01T06:00:00Z"), digest("monthly"))?.period).toBe("2026-12");
  });

  it("never owes a period whose moment came before the digest was set up", () => {
    const setUp = Date.parse("2026-11-25T10:00:00Z");
    expect(periodDigestDue(new Date("2026-11-26T12:00:00Z"), digest("weekly", setUp))).toBeUndefined();
    expect(periodDigestDue(new Date("2026-11-30T06:00:00Z"), digest("weekly", setUp))?.key).toBe(
      "2026-11-30",
    );
  });
});
