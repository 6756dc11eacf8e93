// `/invoice new … every week|month [on DAY] [at HH:MM] [until DATE | N times]` (Russian too): the
// repeat words at the end of the text, which fill in the form's Repeat fields. Text that merely says
// "every" ("for every seat") stays the description; `every month` followed by words it cannot read
// is a usage error, not a silent description.

/** What the repeat words say (each checked again when the form is submitted). */
export type RepeatPrefill = {
  every: "week" | "month";
  /** Weekly: 1 Monday … 7 Sunday; monthly: 1–31. */
  day?: number;
  at?: string;
  /** YYYY-MM-DD. */
  until?: string;
  times?: number;
};

const EVERY =
  /(?:^|\s)(every\s+week|every\s+month|weekly|monthly|каждую\s+неделю|каждый\s+месяц|еженедельно|ежемесячно)(?=\s|$)/i;

const WEEKDAYS: readonly (readonly string[])[] = [
  ["mon", "monday", "пн", "понедельник", "понедельникам"],
  ["tue", "tues", "tuesday", "вт", "вторник", "вторникам"],
  ["wed", "wednesday", "ср", "среду", "среда", "средам"],
  ["thu", "thur", "thurs", "thursday", "чт", "четверг", "четвергам"],
  ["fri", "friday", "пт", "пятницу", "пятница", "пятницам"],
  ["sat", "saturday", "сб", "субботу", "суббота", "субботам"],
  ["sun", "sunday", "вс", "воскресенье", "воскресеньям"],
];

/** A weekday's number (1 Monday … 7 Sunday) from its name in English or Russian. */
export function weekdayNamed(word: string): number | undefined {
  const lower = word.toLowerCase().replace(/\.$/, "");
  const index = WEEKDAYS.findIndex((names) => names.includes(lower));
  return index < 0 ? undefined : index + 1;
}

/** One repeat word group each: its pattern at the start of what is left, and what it sets. */
const PARTS: { pattern: RegExp; read: (match: RegExpExecArray, into: RepeatPrefill) => boolean }[] = [
  {
    pattern: /^(?:at|в)\s+(\d{1,2}):([0-5]\d)(?:\s+|$)/i,
    read: (match, into) => {
      const hour = Number(match[1]);
      if (hour > 23 || into.at) return false;
      into.at = `${String(hour).padStart(2, "0")}:${match[2]}`;
      return true;
    },
  },
  {
    pattern: /^(?:until|till|до)\s+(?:(\d{4})-(\d{2})-(\d{2})|(\d{1,2})\.(\d{1,2})\.(\d{4}))(?:\s+|$)/i,
    read: (match, into) => {
      const [year, month, day] = match[1] ? [match[1], match[2], match[3]] : [match[6], match[5], match[4]];
      into.until = `${year}-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}`;
      return true;
    },
  },
  {
    pattern: /^(\d{1,4})\s+(?:times|раз|раза)(?:\s+|$)/i,
    read: (match, into) => {
      into.times = Number(match[1]);
      return true;
    },
  },
  {
    pattern: /^(?:(?:on|в|во|по)\s+)?(?:the\s+)?(\d{1,2})(?:st|nd|rd|th|-го|-е)?(?:\s+числа)?(?:\s+|$)/i,
    read: (match, into) => {
      into.day = Number(match[1]);
      return into.every === "month";
    },
  },
  {
    pattern: /^(?:(?:on|в|во|по)\s+)?([a-zа-яё]{2,12}\.?)(?:\s+|$)/i,
    read: (match, into) => {
      const day = weekdayNamed(match[1] ?? "");
      if (day === undefined || into.every !== "week") return false;
      into.day = day;
      return true;
    },
  },
];

/**
 * The text split at its repeat words: what comes before (amount, currency, description…) and the
 * repeat they ask for; "invalid" when `every week|month` is followed by words it cannot read.
 */
export function splitRepeat(text: string): { before: string; repeat?: RepeatPrefill | "invalid" } {
  const found = EVERY.exec(text);
  if (!found) return { before: text };
  const word = (found[1] ?? "").toLowerCase();
  const every = /week|недел/.test(word) ? "week" : "month";
  const repeat: RepeatPrefill = { every };
  let rest = text.slice(found.index + found[0].length).trim();
  while (rest !== "") {
    const part = PARTS.find(({ pattern }) => pattern.test(rest));
    const match = part?.pattern.exec(rest);
    if (!part || !match || !part.read(match, repeat)) return { before: text, repeat: "invalid" };
    rest = rest.slice(match[0].length).trim();
  }
  return { before: text.slice(0, found.index).trim(), repeat };
}
