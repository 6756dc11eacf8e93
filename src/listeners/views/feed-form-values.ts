import { z } from "zod";
import { FEED_FIELDS, TESTS_CHOICES, WHEN_CHOICES } from "../../blocks/feed-form.js";
import {
  FEED_EVENTS,
  type FeedFilter,
  feedFilterSchema,
  MENTIONS_MAX,
  type Mentions,
  mentionsSchema,
  userIdSchema,
} from "../../feed/model.js";
import { FEED_FORM_TEXT } from "../../i18n/feed-form.js";
import type { Lang } from "../../i18n/lang.js";
import { parseRubAmount } from "../../util/rub-amount.js";
import { selectValue, textValue } from "./form.js";

/** Checkboxes' and a multi-select's state in view.state.values. */
const chosenValues = z.object({
  selected_options: z
    .array(z.object({ value: z.string().max(100) }))
    .max(100)
    .nullish(),
});
/** A people picker's state: Slack user ids, checked again below. */
const chosenUsers = z.object({ selected_users: z.array(z.string().max(40)).max(100).nullish() });

/** The parts of view.state.values the feed form defines. */
const formSchema = z.object({
  [FEED_FIELDS.events]: z.object({ value: chosenValues }),
  [FEED_FIELDS.minRub]: z.object({ value: textValue }).optional(),
  [FEED_FIELDS.methods]: z.object({ value: chosenValues }).optional(),
  [FEED_FIELDS.tests]: z.object({ value: selectValue }).optional(),
  [FEED_FIELDS.people]: z.object({ value: chosenUsers }).optional(),
  [FEED_FIELDS.when]: z.object({ value: chosenValues }).optional(),
  [FEED_FIELDS.mentionMin]: z.object({ value: textValue }).optional(),
});

export type FeedFormRead =
  | { ok: true; filter: FeedFilter; mentions: Mentions | null }
  /** Values the form does not take, each said next to its field. */
  | { ok: false; errors: Record<string, string> }
  /** Not this form's values (an old form, a forged payload): open it again. */
  | { ok: false; errors: null };

/**
 * What a submitted feed form asks for. The methods field is left out when the method list could
 * not be read: the feed's methods then stay as they were (`previous`). Mentions are only the people
 * the picker gave (Slack user ids); without people, nobody is mentioned.
 */
export function readFeedForm(values: unknown, previous: FeedFilter | undefined, lang: Lang): FeedFormRead {
  const t = FEED_FORM_TEXT[lang];
  const form = formSchema.safeParse(values);
  if (!form.success) return { ok: false, errors: null };
  const data = form.data;
  const picked = (entry: { value: z.infer<typeof chosenValues> } | undefined): string[] =>
    (entry?.value.selected_options ?? []).map((option) => option.value);
  const events = picked(data[FEED_FIELDS.events]);
  if (!events.every((event) => FEED_EVENTS.some((known) => known === event)))
    return { ok: false, errors: null };
  const errors: Record<string, string> = {};
  if (events.length === 0) errors[FEED_FIELDS.events] = t.noEvents;
  const minRub = parseRubAmount(data[FEED_FIELDS.minRub]?.value.value ?? "");
  if (minRub === "invalid") errors[FEED_FIELDS.minRub] = t.badAmount;
  const methods = data[FEED_FIELDS.methods] ? picked(data[FEED_FIELDS.methods]) : (previous?.methods ?? []);
  const tests = data[FEED_FIELDS.tests]?.value.selected_option?.value !== TESTS_CHOICES.exclude;

  const users = data[FEED_FIELDS.people]?.value.selected_users ?? [];
  if (!users.every((user) => userIdSchema.safeParse(user).success)) return { ok: false, errors: null };
  const when = picked(data[FEED_FIELDS.when]);
  const mentionMin = parseRubAmount(data[FEED_FIELDS.mentionMin]?.value.value ?? "");
  const payments = when.includes(WHEN_CHOICES.payments);
  const failures = when.includes(WHEN_CHOICES.failures);
  if (users.length > MENTIONS_MAX) errors[FEED_FIELDS.people] = t.tooManyPeople(MENTIONS_MAX);
  if (users.length > 0 && !payments && !failures) errors[FEED_FIELDS.when] = t.noWhen;
  if (mentionMin === "invalid") errors[FEED_FIELDS.mentionMin] = t.badAmount;
  else if (users.length > 0 && mentionMin !== null && !payments)
    errors[FEED_FIELDS.mentionMin] = t.amountWithoutPayments;
  if (Object.keys(errors).length > 0) return { ok: false, errors };

  const filter = feedFilterSchema.safeParse({
    events: FEED_EVENTS.filter((event) => events.includes(event)),
    ...(minRub && minRub !== "invalid" ? { minRub } : {}),
    ...(methods.length > 0 ? { methods } : {}),
    ...(tests ? {} : { tests: false }),
  });
  const mentions =
    users.length === 0
      ? null
      : mentionsSchema.safeParse({
          users: [...new Set(users)],
          payments,
          failures,
          ...(payments && mentionMin && mentionMin !== "invalid" ? { minRub: mentionMin } : {}),
        });
  if (!filter.success || (mentions !== null && !mentions.success)) return { ok: false, errors: null };
  return { ok: true, filter: filter.data, mentions: mentions?.data ?? null };
}
