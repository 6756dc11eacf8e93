/**
 * The `/paymethods watch` form's figures checked field by field (src/method-watch/form-input.ts):
 * whole numbers in the stored settings' ranges, a unit or spaces allowed, each refusal on its field;
 * the silence rule's figures asked only for the rule chosen.
 */
import { describe, expect, it } from "vitest";
import { changedRules, checkWatchForm, type WatchFormInput } from "../../src/method-watch/form-input.js";
import { watchSettingsSchema } from "../../src/method-watch/state.js";

const TYPED: WatchFormInput = {
  channel: "C0ALERTS",
  mention: ["U0ANNA"],
  sharePercent: "40",
  minInvoices: "8",
  windowMinutes: "60",
  silence: "usual",
  factor: "4",
  floorHours: "2",
  hours: "",
};

describe("checking the watch form", () => {
  it("reads the defaults as the default rules, which the stored settings take", () => {
    const checked = checkWatchForm(TYPED);
    expect(checked).toEqual({
      ok: true,
      rules: {
        channel: "C0ALERTS",
        mention: ["U0ANNA"],
        failure: { sharePercent: 40, minInvoices: 8, windowMinutes: 60 },
        silence: { mode: "usual", factor: 4, floorHours: 2 },
      },
    });
    if (checked.ok)
      expect(watchSettingsSchema.safeParse({ ...checked.rules, by: "U0ADMIN", at: "now" }).success).toBe(
        true,
      );
  });

  it.each([
    ["sharePercent", "40 %", 40],
    ["sharePercent", "100", 100],
    ["minInvoices", "1 000", 1000],
    ["windowMinutes", "90 min", 90],
    ["windowMinutes", "1440", 1440],
  ] as const)("takes %s typed as %j", (field, typed, value) => {
    const checked = checkWatchForm({ ...TYPED, [field]: typed });
    expect(checked.ok && checked.rules.failure[field]).toBe(value);
  });

  it.each([
    ["sharePercent", "0", { reason: "range", min: 1, max: 100 }],
    ["sharePercent", "101", { reason: "range", min: 1, max: 100 }],
    ["sharePercent", "40.5", { reason: "range", min: 1, max: 100 }],
    ["minInvoices", "", { reason: "required" }],
    ["minInvoices", "-3", { reason: "range", min: 1, max: 10000 }],
    ["windowMinutes", "4", { reason: "range", min: 5, max: 1440 }],
    ["windowMinutes", "an hour", { reason: "range", min: 5, max: 1440 }],
    ["factor", "1", { reason: "range", min: 2, max: 50 }],
    ["floorHours", "0", { reason: "range", min: 1, max: 168 }],
  ] as const)("refuses %s typed as %j on its own field", (field, typed, problem) => {
    expect(checkWatchForm({ ...TYPED, [field]: typed })).toEqual({
      ok: false,
      problems: [{ field, ...problem }],
    });
  });

  it("asks the silence figures of the rule chosen only", () => {
    const fixed = { ...TYPED, silence: "fixed", factor: "", floorHours: "x" };
    expect(checkWatchForm(fixed)).toEqual({ ok: false, problems: [{ field: "hours", reason: "required" }] });
    const checked = checkWatchForm({ ...fixed, hours: "12h" });
    expect(checked.ok && checked.rules.silence).toEqual({ mode: "fixed", hours: 12 });
    const off = checkWatchForm({ ...TYPED, silence: "off", factor: "", hours: "999" });
    expect(off.ok && off.rules.silence).toEqual({ mode: "off" });
  });

  it("asks for a channel and a silence rule, and at most ten people", () => {
    const mention = Array.from({ length: 11 }, (_, index) => `U0P${index}`);
    expect(checkWatchForm({ ...TYPED, channel: undefined, silence: undefined, mention })).toEqual({
      ok: false,
      problems: [
        { field: "channel", reason: "required" },
        { field: "mention", reason: "too_many", max: 10 },
        { field: "silence", reason: "required" },
      ],
    });
  });

  it("names the rules that changed (all of them at first)", () => {
    const checked = checkWatchForm(TYPED);
    if (!checked.ok) throw new Error("refused");
    expect(changedRules(undefined, checked.rules)).toEqual(["channel", "mention", "failure", "silence"]);
    const later = { ...checked.rules, failure: { ...checked.rules.failure, minInvoices: 9 } };
    expect(changedRules(checked.rules, later)).toEqual(["failure"]);
  });
});
