import { describe, expect, it } from "vitest";
import { parseServiceTime } from "../../src/payments/time.js";

const epoch = (iso: string) => Date.parse(iso) / 1000;

describe("parseServiceTime", () => {
  it.each([
    ["2024-05-01 13:00:00", "2024-05-01T10:00:00Z"],
    ["2024-01-01 00:00:00", "2023-12-31T21:00:00Z"],
    ["2024-12-31 23:59:59", "2024-12-31T20:59:59Z"],
    ["2024-02-29 02:59:59", "2024-02-28T23:59:59Z"],
    ["2024-07-01 12:00:00", "2024-07-01T09:00:00Z"],
    ["2024-01-15 12:00:00", "2024-01-15T09:00:00Z"],
  ])("Europe/Moscow (UTC+3 all year): %s = %s", (text, iso) => {
    expect(parseServiceTime(text, "Europe/Moscow")).toEqual({
      text,
      zone: "Europe/Moscow",
      epochSeconds: epoch(iso),
    });
  });

  it.each([
    ["2024-05-01 13:00:00", "2024-05-01T13:00:00Z"],
    ["1970-01-01 00:00:00", "1970-01-01T00:00:00Z"],
    ["2038-01-19 03:14:08", "2038-01-19T03:14:08Z"],
  ])("UTC: %s = %s", (text, iso) => {
    expect(parseServiceTime(text, "UTC")).toEqual({ text, zone: "UTC", epochSeconds: epoch(iso) });
  });

  it.each([
    ["2024-07-01 12:00:00", "2024-07-01T10:00:00Z"],
    ["2024-01-15 12:00:00", "2024-01-15T11:00:00Z"],
    // The last hour before and the first hours after the spring and autumn changes.
    ["2024-03-31 01:59:59", "2024-03-31T00:59:59Z"],
    ["2024-03-31 03:00:00", "2024-03-31T01:00:00Z"],
    ["2024-10-27 01:59:59", "2024-10-26T23:59:59Z"],
    ["2024-10-27 03:00:00", "2024-10-27T02:00:00Z"],
  ])("Europe/Berlin (DST): %s = %s", (text, iso) => {
    expect(parseServiceTime(text, "Europe/Berlin")?.epochSeconds).toBe(epoch(iso));
  });

  it("a zone west of UTC with DST (America/New_York)", () => {
    expect(parseServiceTime("2024-07-01 12:00:00", "America/New_York")?.epochSeconds).toBe(
      epoch("2024-07-01T16:00:00Z"),
    );
    expect(parseServiceTime("2024-01-15 12:00:00", "America/New_York")?.epochSeconds).toBe(
      epoch("2024-01-15T17:00:00Z"),
    );
  });

  it("takes the earlier moment in a DST overlap and the offset before the change in a gap", () => {
    // Berlin, 27 Oct 2024: 03:00 CEST goes back to 02:00 CET, so 02:30 happens twice.
    expect(parseServiceTime("2024-10-27 02:30:00", "Europe/Berlin")?.epochSeconds).toBe(
      Date.UTC(2024, 9, 27, 0, 30) / 1000,
    );
    // Berlin, 31 Mar 2024: 02:00 CET jumps to 03:00 CEST, so 02:30 never happens.
    expect(parseServiceTime("2024-03-31 02:30:00", "Europe/Berlin")?.epochSeconds).toBe(
      Date.UTC(2024, 2, 31, 1, 30) / 1000,
    );
  });

  it("keeps the service's text and the zone it was read in", () => {
    const time = parseServiceTime("2024-05-01 13:00:00", "Asia/Kolkata");
    expect(time).toEqual({
      text: "2024-05-01 13:00:00",
      zone: "Asia/Kolkata",
      epochSeconds: epoch("2024-05-01T07:30:00Z"),
    });
  });

  it("accepts the leap day of a leap year only", () => {
    expect(parseServiceTime("2024-02-29 10:00:00", "UTC")?.epochSeconds).toBe(epoch("2024-02-29T10:00:00Z"));
    expect(parseServiceTime("2023-02-29 10:00:00", "UTC")).toBeUndefined();
    expect(parseServiceTime("2100-02-29 10:00:00", "UTC")).toBeUndefined();
    expect(parseServiceTime("2000-02-29 10:00:00", "UTC")?.epochSeconds).toBe(epoch("2000-02-29T10:00:00Z"));
  });

  it.each([
    "2024-02-30 10:00:00",
    "2024-04-31 10:00:00",
    "2024-13-01 10:00:00",
    "2024-00-10 10:00:00",
    "2024-01-00 10:00:00",
    "2024-01-01 24:00:00",
    "2024-01-01 23:60:00",
    "2024-01-01 23:59:60",
    "2024-01-01T10:00:00",
    "2024-01-01T10:00:00Z",
    "2024-01-01 10:00:00Z",
    "2024-01-01 10:00:00+03:00",
    "2024-01-01 10:00",
    "2024-1-1 10:00:00",
    " 2024-01-01 10:00:00",
    "2024-01-01 10:00:00 ",
    "2024-01-01  10:00:00",
    "2024-01-01",
    "yesterday",
    "",
  ])("%j -> undefined", (text) => {
    expect(parseServiceTime(text, "Europe/Moscow")).toBeUndefined();
    expect(parseServiceTime(text, "UTC")).toBeUndefined();
  });
});
