import type { z } from "zod";
import {
  type FailureRule,
  failureRuleSchema,
  type SilenceRule,
  silenceRuleSchema,
  type WatchSettings,
} from "./state.js";

// The `/paymethods watch` form as typed, checked field by field (pure): each figure a whole number in
// the range the stored settings take, so every refusal is said next to its own field, in the form.

/** The form's values as Slack sends them back (texts as typed; the silence rule's choice). */
export type WatchFormInput = {
  channel: string | undefined;
  mention: readonly string[];
  sharePercent: string;
  minInvoices: string;
  windowMinutes: string;
  silence: string | undefined;
  factor: string;
  floorHours: string;
  hours: string;
};

export type WatchField = keyof WatchFormInput;

/** Why a field is refused: missing, not a whole number, or outside its range. */
export type WatchProblem =
  | { field: WatchField; reason: "required" }
  | { field: WatchField; reason: "range"; min: number; max: number }
  | { field: WatchField; reason: "too_many"; max: number };

/** The rules an admin chose (who set them and when is added by the caller). */
export type WatchRules = Omit<WatchSettings, "by" | "at">;

export type WatchCheck = { ok: true; rules: WatchRules } | { ok: false; problems: WatchProblem[] };

/** The silence rule's choices in the form. */
export const SILENCE_MODES = ["usual", "fixed", "off"] as const;

const [usualSchema, fixedSchema] = silenceRuleSchema.options;
const MENTION_MAX = 10;

/** A number field's range, as the stored settings' schema has it. */
function rangeOf(schema: z.ZodNumber): { min: number; max: number } {
  return { min: schema.minValue ?? 0, max: schema.maxValue ?? Number.MAX_SAFE_INTEGER };
}

export const WATCH_RANGES = {
  sharePercent: rangeOf(failureRuleSchema.shape.sharePercent),
  minInvoices: rangeOf(failureRuleSchema.shape.minInvoices),
  windowMinutes: rangeOf(failureRuleSchema.shape.windowMinutes),
  factor: rangeOf(usualSchema.shape.factor),
  floorHours: rangeOf(usualSchema.shape.floorHours),
  hours: rangeOf(fixedSchema.shape.hours),
} as const;

type NumberField = keyof typeof WATCH_RANGES;

/** Reads one figure: digits (spaces and a trailing unit such as `%` or `h` allowed), in its range. */
function figure(input: WatchFormInput, field: NumberField, problems: WatchProblem[]): number {
  const text = input[field].trim();
  if (text === "") {
    problems.push({ field, reason: "required" });
    return 0;
  }
  const digits = /^(\d{1,7})\s*(%|x|×|h|ч|min|мин)?$/i.exec(text.replace(/\s(?=\d)/g, ""));
  const value = digits ? Number(digits[1]) : Number.NaN;
  const range = WATCH_RANGES[field];
  if (!(value >= range.min && value <= range.max)) problems.push({ field, reason: "range", ...range });
  return value;
}

function silenceRule(input: WatchFormInput, problems: WatchProblem[]): SilenceRule {
  switch (input.silence) {
    case "usual":
      return {
        mode: "usual",
        factor: figure(input, "factor", problems),
        floorHours: figure(input, "floorHours", problems),
      };
    case "fixed":
      return { mode: "fixed", hours: figure(input, "hours", problems) };
    case "off":
      return { mode: "off" };
    default:
      problems.push({ field: "silence", reason: "required" });
      return { mode: "off" };
  }
}

/** The form's values checked: the rules, or each field's problem. */
export function checkWatchForm(input: WatchFormInput): WatchCheck {
  const problems: WatchProblem[] = [];
  if (!input.channel) problems.push({ field: "channel", reason: "required" });
  if (input.mention.length > MENTION_MAX)
    problems.push({ field: "mention", reason: "too_many", max: MENTION_MAX });
  const failure: FailureRule = {
    sharePercent: figure(input, "sharePercent", problems),
    minInvoices: figure(input, "minInvoices", problems),
    windowMinutes: figure(input, "windowMinutes", problems),
  };
  const silence = silenceRule(input, problems);
  if (problems.length > 0 || !input.channel) return { ok: false, problems };
  return { ok: true, rules: { channel: input.channel, mention: [...input.mention], failure, silence } };
}

/** Which of the rules differ between two settings (all of them when there were none). */
export function changedRules(before: WatchRules | undefined, after: WatchRules): Array<keyof WatchRules> {
  const fields: Array<keyof WatchRules> = ["channel", "mention", "failure", "silence"];
  if (!before) return fields;
  return fields.filter((field) => JSON.stringify(before[field]) !== JSON.stringify(after[field]));
}
