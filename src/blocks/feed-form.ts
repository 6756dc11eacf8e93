import type { types } from "@slack/bolt";
import type { FeedFilter, Mentions } from "../feed/model.js";
import type { FeedEventWord } from "../i18n/feed-filter.js";
import { FEED_FORM_TEXT } from "../i18n/feed-form.js";
import type { Lang } from "../i18n/lang.js";
import { REGISTERS_TEXT } from "../i18n/registers.js";
import {
  checkboxesInput,
  modal,
  multiSelectInput,
  radioInput,
  selectOption,
  textInput,
  usersInput,
} from "./form.js";
import { FEED_FORM_VIEW } from "./ids.js";
import { escapeMrkdwn } from "./mrkdwn.js";

export { FEED_FORM_VIEW } from "./ids.js";

/** The feed form's input blocks (the keys of view.state.values and of field errors). */
export const FEED_FIELDS = {
  events: "feed_events",
  minRub: "feed_min_rub",
  methods: "feed_methods",
  tests: "feed_tests",
  people: "feed_people",
  when: "feed_mention_when",
  mentionMin: "feed_mention_min",
} as const;

/** The values of the tests radio and the mention-when checkboxes. */
export const TESTS_CHOICES = { include: "include", exclude: "exclude" } as const;
export const WHEN_CHOICES = { payments: "payments", failures: "failures" } as const;

const EVENT_OPTIONS: readonly FeedEventWord[] = ["paid", "failed", "wrongamount", "expired", "new"];
/** Methods offered at most (Slack's limit on a drop-down's options). */
const METHODS_MAX = 100;

/** The form's first line: which channel's feed, and of which register where the workspace has several. */
function formIntro(
  options: { channel: string; isFeed: boolean; origin: { r?: string | undefined } },
  lang: Lang,
) {
  const intro = FEED_FORM_TEXT[lang].intro(`<#${options.channel}>`, options.isFeed);
  const register = options.origin.r;
  return register ? `${REGISTERS_TEXT[lang].feedOf(escapeMrkdwn(register))}: ${intro}` : intro;
}

type FeedFormText = (typeof FEED_FORM_TEXT)[Lang];
type MethodList = ReadonlyArray<{ code: string; name: string }> | undefined;

/** What the feed posts: events, the least amount, methods (when the list was read) and tests. */
function filterBlocks(filter: FeedFilter, methods: MethodList, t: FeedFormText): types.KnownBlock[] {
  return [
    checkboxesInput({
      block: FEED_FIELDS.events,
      label: t.events,
      options: EVENT_OPTIONS.map((event) => selectOption(t.eventOptions[event], event)),
      initial: filter.events,
    }),
    textInput({
      block: FEED_FIELDS.minRub,
      label: t.minRub,
      hint: t.minRubHint,
      optional: true,
      maxLength: 20,
      placeholder: "10000",
      initial: filter.minRub ?? undefined,
    }),
    methodsBlock(filter, methods, t),
    radioInput({
      block: FEED_FIELDS.tests,
      label: t.tests,
      options: [
        selectOption(t.testsInclude, TESTS_CHOICES.include),
        selectOption(t.testsExclude, TESTS_CHOICES.exclude),
      ],
      initial: filter.tests === false ? TESTS_CHOICES.exclude : TESTS_CHOICES.include,
    }),
  ];
}

/** The methods drop-down, or a line saying the list could not be read (the methods chosen stay). */
function methodsBlock(filter: FeedFilter, methods: MethodList, t: FeedFormText): types.KnownBlock {
  if (!methods) return { type: "context", elements: [{ type: "mrkdwn", text: t.methodsUnavailable }] };
  return multiSelectInput({
    block: FEED_FIELDS.methods,
    label: t.methods,
    hint: t.methodsHint,
    optional: true,
    placeholder: t.anyMethod,
    options: methods
      .slice(0, METHODS_MAX)
      .map((method) => selectOption(`${method.name} (${method.code})`, method.code)),
    initial: filter.methods ?? undefined,
  });
}

/** Whom the feed mentions, on what, and from which amount (a channel with none: payments ticked). */
function mentionBlocks(
  mentions: Mentions | null | undefined,
  maxPeople: number,
  t: FeedFormText,
): types.KnownBlock[] {
  return [
    usersInput({
      block: FEED_FIELDS.people,
      label: t.people,
      hint: t.peopleHint,
      optional: true,
      max: maxPeople,
      placeholder: t.nobody,
      initial: mentions?.users,
    }),
    checkboxesInput({
      block: FEED_FIELDS.when,
      label: t.when,
      optional: true,
      options: [
        selectOption(t.whenPayments, WHEN_CHOICES.payments),
        selectOption(t.whenFailures, WHEN_CHOICES.failures),
      ],
      initial: mentions
        ? [
            ...(mentions.payments ? [WHEN_CHOICES.payments] : []),
            ...(mentions.failures ? [WHEN_CHOICES.failures] : []),
          ]
        : [WHEN_CHOICES.payments],
    }),
    textInput({
      block: FEED_FIELDS.mentionMin,
      label: t.mentionMin,
      hint: t.mentionMinHint,
      optional: true,
      maxLength: 20,
      placeholder: "50000",
      initial: mentions?.minRub ?? undefined,
    }),
  ];
}

/**
 * The feed form of one channel, filled with what its feed does now (a channel that is no feed yet:
 * paid invoices, nobody mentioned). `methods`: the register's method list, code and name; undefined
 * when it could not be read in time (the field is left out and the methods chosen before stay).
 * `origin` goes to private_metadata: the workspace, channel and register the form is for.
 */
export function feedFormModal(options: {
  channel: string;
  isFeed: boolean;
  filter: FeedFilter;
  mentions: Mentions | null | undefined;
  methods: MethodList;
  maxPeople: number;
  /** `r`: the register's name, where the workspace has several (the form's intro says it). */
  origin: { t: string; c: string; r?: string | undefined };
  lang?: Lang;
}): types.ModalView {
  const lang = options.lang ?? "en";
  const t = FEED_FORM_TEXT[lang];
  return modal({
    callbackId: FEED_FORM_VIEW,
    title: t.title,
    submit: t.save,
    close: t.cancel,
    privateMetadata: JSON.stringify(options.origin),
    blocks: [
      { type: "section", text: { type: "mrkdwn", text: formIntro(options, lang) } },
      ...filterBlocks(options.filter, options.methods, t),
      { type: "divider" },
      ...mentionBlocks(options.mentions, options.maxPeople, t),
    ],
  });
}
