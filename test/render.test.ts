import { describe, expect, it } from "vitest";
import { plain, renderSlackDate } from "../sandbox/render.js";
import { slackDateFromEpoch } from "../src/blocks/format.js";

// `npm run demo` shows date tokens the way Slack shows them to a reader in a given zone.
const EPOCH = Date.parse("2024-05-01T10:00:00Z") / 1000;
const NOW = new Date("2024-05-01T12:00:00Z");

describe("renderSlackDate (the demo's reader)", () => {
  it.each([
    ["Europe/Berlin", "Today 12:00 PM"],
    ["Europe/Moscow", "Today 1:00 PM"],
    ["America/New_York", "Today 6:00 AM"],
    ["UTC", "Today 10:00 AM"],
  ])("shows {date_short_pretty} {time} in %s as %s", (timeZone, expected) => {
    expect(renderSlackDate(EPOCH, "{date_short_pretty} {time}", "fallback", { timeZone, now: NOW })).toBe(
      expected,
    );
  });

  it("says Yesterday, Tomorrow, or the short date, by the reader's calendar day", () => {
    const at = (iso: string) => ({ timeZone: "Europe/Berlin", now: new Date(iso) });
    expect(renderSlackDate(EPOCH, "{date_short_pretty}", "f", at("2024-05-02T08:00:00Z"))).toBe("Yesterday");
    expect(renderSlackDate(EPOCH, "{date_short_pretty}", "f", at("2024-04-30T08:00:00Z"))).toBe("Tomorrow");
    expect(renderSlackDate(EPOCH, "{date_short_pretty}", "f", at("2024-05-09T08:00:00Z"))).toBe(
      "May 1, 2024",
    );
    // 23:30 UTC on 30 April is already 1 May in Berlin.
    const late = Date.parse("2024-04-30T23:30:00Z") / 1000;
    expect(renderSlackDate(late, "{date_num} {time_secs}", "f", at("2024-05-01T08:00:00Z"))).toBe(
      "2024-05-01 1:30:00 AM",
    );
  });

  it("falls back for a format Slack would not know, and plain() uses the fallback without a reader", () => {
    expect(
      renderSlackDate(EPOCH, "{nonsense}", "2024-05-01 13:00:00 Europe/Moscow", { timeZone: "UTC" }),
    ).toBe("2024-05-01 13:00:00 Europe/Moscow");
    const token = slackDateFromEpoch(EPOCH);
    expect(plain(`Updated ${token}.`)).toBe("Updated 2024-05-01 10:00:00 UTC.");
    expect(plain(`Updated ${token}.`, { timeZone: "Europe/Berlin", now: NOW })).toBe(
      "Updated Today 12:00 PM.",
    );
  });
});
