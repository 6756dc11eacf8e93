import type { types } from "@slack/bolt";
import type { Lang } from "../i18n/lang.js";
import { SCHEDULES_TEXT } from "../i18n/schedules.js";
import { INPUT_ACTION_ID, selectInput, selectOption, textInput } from "./form.js";

// The create form's Repeat fields (issue 51, item 4): left empty, the form makes one invoice; with
// Every week or Every month, a schedule whose first run is the next such moment, today included.

export const REPEAT_FIELDS = {
  every: "repeat_every",
  day: "repeat_day",
  at: "repeat_at",
  until: "repeat_until",
  times: "repeat_times",
} as const;

/** What `/invoice new … every …` filled in. */
export type RepeatInitial = {
  every: "week" | "month";
  day?: number | undefined;
  at?: string | undefined;
  until?: string | undefined;
  times?: number | undefined;
};

const WEEKDAY_WORDS: Record<Lang, string[]> = {
  en: ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"],
  ru: ["пн", "вт", "ср", "чт", "пт", "сб", "вс"],
};

/** A weekday's name in either language, full or short: Monday first. */
const WEEKDAY_STEMS = [
  /^(mon|пн|пон)/,
  /^(tue|вт)/,
  /^(wed|ср)/,
  /^(thu|чт|чет)/,
  /^(fri|пт|пят)/,
  /^(sat|сб|суб)/,
  /^(sun|вс|вос)/,
];

/** What the create form knows of a repeat: `/invoice new … every …`'s words, and the zone of its times. */
export type RepeatForm = { repeat?: RepeatInitial | "invalid" | undefined; zone?: string | undefined };

/** The Repeat fields of a create form (Europe/Moscow when its zone is not given). */
export function repeatBlocks(form: RepeatForm, lang: Lang): types.KnownBlock[] {
  return repeatInputs(
    form.repeat === "invalid" ? undefined : form.repeat,
    form.zone ?? "Europe/Moscow",
    lang,
  );
}

/** The Repeat fields: how often, on which day, at what time (in `zone`), and until when or how many times. */
export function repeatInputs(
  initial: RepeatInitial | undefined,
  zone: string,
  lang: Lang,
): types.KnownBlock[] {
  const t = SCHEDULES_TEXT[lang];
  const day =
    initial?.day === undefined
      ? undefined
      : initial.every === "week"
        ? WEEKDAY_WORDS[lang][initial.day - 1]
        : String(initial.day);
  return [
    { type: "divider" },
    selectInput({
      block: REPEAT_FIELDS.every,
      optional: true,
      label: t.repeat,
      hint: t.repeatHint,
      placeholder: t.noRepeat,
      options: [selectOption(t.everyWeek, "week"), selectOption(t.everyMonth, "month")],
      initial: initial?.every,
    }),
    textInput({
      block: REPEAT_FIELDS.day,
      optional: true,
      label: t.day,
      hint: t.dayHint,
      maxLength: 12,
      initial: day,
    }),
    input(REPEAT_FIELDS.at, t.at, t.atHint(zone), picker("timepicker", initial?.at) as types.Timepicker),
    input(
      REPEAT_FIELDS.until,
      t.untilLabel,
      t.untilHint,
      picker("datepicker", initial?.until) as types.Datepicker,
    ),
    textInput({
      block: REPEAT_FIELDS.times,
      optional: true,
      label: t.times,
      hint: t.timesHint,
      maxLength: 4,
      initial: initial?.times === undefined ? undefined : String(initial.times),
    }),
  ];
}

function picker(kind: "timepicker" | "datepicker", value: string | undefined) {
  return {
    type: kind,
    action_id: INPUT_ACTION_ID,
    ...(value ? { [kind === "timepicker" ? "initial_time" : "initial_date"]: value } : {}),
  };
}

function input(
  block: string,
  label: string,
  hint: string,
  element: types.InputBlock["element"],
): types.InputBlock {
  return {
    type: "input",
    block_id: block,
    optional: true,
    label: { type: "plain_text", text: label },
    hint: { type: "plain_text", text: hint },
    element,
  };
}

/** The Repeat fields as submitted (absent ones undefined). */
export type RepeatInput = {
  every?: string | null | undefined;
  day?: string | null | undefined;
  at?: string | null | undefined;
  until?: string | null | undefined;
  times?: string | null | undefined;
};

/** What was asked: no repeat, a repeat (day and time may be left to the schedule), or errors per block. */
export type CheckedRepeat =
  | { ok: true; repeat: RepeatInitial | undefined }
  | { ok: false; errors: Record<string, string> };

/** Checks the Repeat fields; `today`: the day the form is submitted (YYYY-MM-DD, in the zone). */
export function validateRepeatInput(input: RepeatInput, today: string, lang: Lang): CheckedRepeat {
  const t = SCHEDULES_TEXT[lang];
  const every = input.every === "week" || input.every === "month" ? input.every : undefined;
  const text = (value: string | null | undefined) => value?.trim() || undefined;
  const [dayText, at, until, timesText] = [
    text(input.day),
    text(input.at),
    text(input.until),
    text(input.times),
  ];
  const errors: Record<string, string> = {};
  if (!every) {
    if (dayText || at || until || timesText) errors[REPEAT_FIELDS.every] = t.chooseRepeat;
    return Object.keys(errors).length > 0 ? { ok: false, errors } : { ok: true, repeat: undefined };
  }
  const day = dayText === undefined ? undefined : dayOf(every, dayText);
  if (day === null) errors[REPEAT_FIELDS.day] = every === "week" ? t.dayWeekError : t.dayMonthError;
  const times = timesText === undefined ? undefined : /^\d{1,4}$/.test(timesText) ? Number(timesText) : 0;
  if (times !== undefined && !(times >= 1 && times <= 1000)) errors[REPEAT_FIELDS.times] = t.timesError(1000);
  if (until !== undefined && until < today) errors[REPEAT_FIELDS.until] = t.untilPast;
  if (until !== undefined && times !== undefined) errors[REPEAT_FIELDS.times] = t.untilAndTimes;
  if (at !== undefined && !/^([01]\d|2[0-3]):[0-5]\d$/.test(at)) errors[REPEAT_FIELDS.at] = t.atHint("");
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  return { ok: true, repeat: { every, day: day ?? undefined, at, until, times } };
}

/** A weekday (a name in either language, or 1–7) or a day of the month (1–31); null when not one. */
function dayOf(every: "week" | "month", text: string): number | null {
  const lower = text.toLowerCase().replace(/\.$/, "");
  if (every === "month") {
    const day = /^\d{1,2}$/.test(lower) ? Number(lower) : 0;
    return day >= 1 && day <= 31 ? day : null;
  }
  if (/^[1-7]$/.test(lower)) return Number(lower);
  const index = WEEKDAY_STEMS.findIndex((stem) => stem.test(lower));
  return index < 0 ? null : index + 1;
}
