import type { types } from "@slack/bolt";
import type { Lang } from "../i18n/lang.js";
import { LINK_REMINDERS_TEXT } from "../i18n/link-reminders.js";
import { selectInput, selectOption } from "./form.js";

// The create form's "Remind me" (issue 51): off, or a reminder 1 or 6 hours before the link
// expires, for a link that lives longer than that (checked when the form is submitted, next to the
// field: the form cannot hide an option as the lifetime is typed).

/** The select's block id (CREATE_FIELDS.remind). */
export const REMIND_BLOCK = "remind";
/** How long before expiry a reminder may come, in minutes (0: none). */
export const REMIND_CHOICES = [0, 60, 360] as const;
export type RemindMinutes = (typeof REMIND_CHOICES)[number];

/** "1h" or "6h" as `/invoice new … remind 6h` says it; undefined for anything else. */
export function remindOfWord(word: string): RemindMinutes | undefined {
  const match = /^(\d{1,2})\s*(?:h|ч|час|часа|часов|hours?)$/i.exec(word.trim());
  const minutes = match ? Number(match[1]) * 60 : Number.NaN;
  return REMIND_CHOICES.find((choice) => choice !== 0 && choice === minutes);
}

/** The select, `initial` chosen (Off when none). */
export function remindInput(initial: number | undefined, lang: Lang): types.InputBlock {
  const t = LINK_REMINDERS_TEXT[lang];
  return selectInput({
    block: REMIND_BLOCK,
    optional: true,
    label: t.remind,
    hint: t.remindHint,
    options: REMIND_CHOICES.map((minutes) =>
      selectOption(minutes === 0 ? t.remindOff : t.remindBefore(minutes / 60), String(minutes)),
    ),
    initial: String(initial ?? 0),
  });
}

/** The chosen reminder in minutes (undefined: off); what is wrong with it goes in `errors`, by the field. */
export function checkRemind(
  value: string | null | undefined,
  lifetimeMinutes: number,
  lang: Lang,
  errors: Record<string, string>,
): number | undefined {
  const minutes = REMIND_CHOICES.find((choice) => String(choice) === value) ?? 0;
  if (minutes === 0) return undefined;
  // A link that lives no longer than the lead would be reminded of as it is made.
  if (Number.isFinite(lifetimeMinutes) && lifetimeMinutes <= minutes)
    errors[REMIND_BLOCK] = LINK_REMINDERS_TEXT[lang].remindNeedsLonger(minutes / 60, minutes);
  return minutes;
}
