import type { types } from "@slack/bolt";
import { HELP_TEXT, type UsageReason } from "../i18n/help.js";
import type { Lang } from "../i18n/lang.js";
import { PAYMETHODS_TEXT } from "../i18n/paymethods.js";
import { addDecimals, compareDecimals } from "../payments/decimal.js";
import { filterMethods, filterText, type MethodFilter } from "../payments/method-filter.js";
import type { Money, PaymentMethod } from "../payments/model.js";
import { paymethodsPageButton } from "./button-values.js";
import { formatDecimal, formatMoney, padToMinorUnits, slackDateFromEpoch } from "./format.js";
import { PAYMETHODS_ACTIONS } from "./ids.js";
import type { ReplyVisibility } from "./invoice.js";
import { LIMITS } from "./limits.js";
import { type SlackMessage, shareButton } from "./message.js";
import { escapeMrkdwn, inlineCode, safeText, truncate } from "./mrkdwn.js";
import { ephemeral, type HelpFacts, workspaceLines } from "./replies.js";

/** Methods per page, and per section within a page: 20 per page keeps a message well under every limit. */
export const METHODS_PER_PAGE = 20;
const METHODS_PER_SECTION = 5;

export { PAYMETHODS_ACTIONS } from "./ids.js";

/**
 * What a page button carries: the filter, the page and, in a workspace with several registers, the
 * register's name; nothing else (no amounts, no secrets).
 */
export type PaymethodsView = { filter: MethodFilter; page: number; register?: string | undefined };

/** One collator for all comparisons: localeCompare with options builds a new one each call. */
const NAME_ORDER = new Intl.Collator("en", { sensitivity: "base" });

/** Enabled first, then by name, then by code, as people scan a list. */
export function sortMethods(methods: readonly PaymentMethod[]): PaymentMethod[] {
  return [...methods].sort(
    (a, b) =>
      Number(b.enabled) - Number(a.enabled) ||
      NAME_ORDER.compare(a.name, b.name) ||
      a.code.localeCompare(b.code),
  );
}

/** commission % + extra %: the sum; the service documents no other way they combine. */
export function percentSum(method: PaymentMethod): string {
  return addDecimals(method.commissionPercent, method.extraCommissionPercent);
}

const percent = (value: string, lang: Lang) => `${formatDecimal(value, lang)} %`;
const isZero = (money: Money | null) => money === null || compareDecimals(money.value, "0") === 0;

/** A limit of 0 is no limit (the service's own example has min "0", max "0" on an enabled method). */
function limitsText(method: PaymentMethod, lang: Lang): string | undefined {
  const t = PAYMETHODS_TEXT[lang];
  const min = isZero(method.limits?.min ?? null) ? undefined : method.limits?.min;
  const max = isZero(method.limits?.max ?? null) ? undefined : method.limits?.max;
  const bare = (money: Money) => formatDecimal(padToMinorUnits(money.value, method.currency), lang);
  const amount = (money: Money) => `${bare(money)} ${method.currency}`;
  if (min && max) return `${bare(min)} – ${amount(max)}`;
  if (min) return t.from(amount(min));
  if (max) return t.upTo(amount(max));
  return undefined;
}

/** One line of mrkdwn per method, escaped, bounded in length whatever the service sends; its note below. */
export function methodLine(method: PaymentMethod, lang: Lang = "en", note?: string): string {
  const below = note ? `\n      _${note}_` : "";
  const t = PAYMETHODS_TEXT[lang];
  const title = `*${safeText(method.name, 80)}* ${inlineCode(truncate(method.code, 40))} · ${safeText(method.currency, 12)}`;
  if (!method.enabled) return `:no_entry_sign: ${title} · ${t.disabled}${below}`;
  const fee = (money: Money) => ` + ${escapeMrkdwn(formatMoney(money, lang))}`;
  const fixed = isZero(method.commission) ? "" : fee(method.commission);
  const extraFixed =
    method.extraCommission && !isZero(method.extraCommission) ? fee(method.extraCommission) : "";
  const parts = [
    `${t.commission} ${percent(method.commissionPercent, lang)}${fixed}`,
    `${t.extra} ${percent(method.extraCommissionPercent, lang)}${extraFixed}`,
    // The whole sum in bold, fixed fees included: it is what the method costs.
    `*${t.sum} ${percent(percentSum(method), lang)}${fixed}${extraFixed}*`,
  ];
  // Level 0 is everyone: worth a word only when a method asks for more.
  if (method.minimalStatusLevel !== null && method.minimalStatusLevel > 0)
    parts.push(t.minStatus(method.minimalStatusLevel));
  const limits = limitsText(method, lang);
  if (limits) parts.push(`${t.limits} ${escapeMrkdwn(limits)}`);
  return `:white_check_mark: ${title}\n      ${parts.join("  ·  ")}${below}`;
}

function describeFilter(filter: MethodFilter, lang: Lang): string {
  const t = PAYMETHODS_TEXT[lang];
  return filter.kind === "text"
    ? t.matching(truncate(filter.text, 40))
    : filter.kind === "all"
      ? ""
      : t.only[filter.kind];
}

export type PaymethodsMessageOptions = {
  fetchedAt: Date;
  /** Entries of the list not shown: payout-only methods (by code) and entries we could not read. */
  leftOut?: { payoutOnly: readonly string[]; unreadable: number };
  /** channel: posted for everyone; private: only the asker sees it, with a Share in channel button. */
  visibility?: ReplyVisibility;
  /** The workspace's language (English by default). */
  lang?: Lang;
  /** Notes under methods, by code, in mrkdwn: who switched one in Kassa, and when. */
  notes?: Notes;
};
type Notes = ReadonlyMap<string, string>;

/** "Not listed: 2 payout-only methods (not available for payments): `A`, `B`. 1 method could not be read …" */
function leftOutText(leftOut: PaymethodsMessageOptions["leftOut"], lang: Lang): string {
  if (!leftOut) return "";
  const t = PAYMETHODS_TEXT[lang];
  const notes: string[] = [];
  const payout = leftOut.payoutOnly;
  if (payout.length > 0) {
    const codes = payout.slice(0, 10).map((code) => inlineCode(truncate(code, 40)));
    notes.push(t.payoutOnly(payout.length, codes.join(", "), payout.length - codes.length));
  }
  if (leftOut.unreadable > 0) notes.push(t.unreadable(leftOut.unreadable));
  return notes.length > 0 ? `${notes.join(" ")} ` : "";
}

/** The page of the matching methods shown: its number (kept within the pages there are) and methods. */
type ShownPage = { matching: readonly PaymentMethod[]; shown: PaymentMethod[]; page: number; pages: number };

function pageOf(matching: readonly PaymentMethod[], asked: number): ShownPage {
  const pages = Math.max(1, Math.ceil(matching.length / METHODS_PER_PAGE));
  const page = Number.isFinite(asked) ? Math.min(Math.max(1, Math.trunc(asked)), pages) : 1;
  const shown = matching.slice((page - 1) * METHODS_PER_PAGE, page * METHODS_PER_PAGE);
  return { matching, shown, page, pages };
}

/**
 * The method list: counts in the header, one line per method, 20 per page with Previous / Next,
 * and Refresh. Returns undefined when the filter matches nothing (the caller answers privately).
 */
export function buildPaymethodsMessage(
  all: readonly PaymentMethod[],
  view: PaymethodsView,
  options: PaymethodsMessageOptions,
): SlackMessage | undefined {
  const visibility = options.visibility ?? "channel";
  const lang = options.lang ?? "en";
  const t = PAYMETHODS_TEXT[lang];
  const matching = sortMethods(filterMethods(all, view.filter));
  if (matching.length === 0 && view.filter.kind === "text") return undefined;
  const enabled = matching.filter((method) => method.enabled).length;
  const shown = pageOf(matching, view.page);
  const title = t.title(describeFilter(view.filter, lang), enabled, matching.length - enabled);
  const blocks: types.KnownBlock[] = [
    { type: "header", text: { type: "plain_text", text: truncate(title, LIMITS.headerText) } },
    ...methodSections(shown.shown, lang, options.notes),
    footerBlock(shown, options, lang),
    { type: "actions", block_id: "paymethods_nav", elements: navButtons(view, shown, visibility, lang) },
  ];
  const listed = shown.shown
    .map((method) => `${method.code} ${method.enabled ? percent(percentSum(method), lang) : t.disabledShort}`)
    .join(", ");
  // Escaped first, then cut: escaping lengthens text from the service.
  const text = safeText(
    `${title}${shown.pages > 1 ? t.fallbackPage(shown.page, shown.pages) : ""}${listed ? `: ${listed}` : ""}`,
    LIMITS.fallbackText,
  );
  return { response_type: visibility === "private" ? "ephemeral" : "in_channel", text, blocks };
}

/** One line per method, a section per METHODS_PER_SECTION of them; a line saying none when none. */
function methodSections(shown: readonly PaymentMethod[], lang: Lang, notes?: Notes): types.KnownBlock[] {
  if (shown.length === 0)
    return [{ type: "section", text: { type: "mrkdwn", text: PAYMETHODS_TEXT[lang].none } }];
  const sections: types.KnownBlock[] = [];
  for (let start = 0; start < shown.length; start += METHODS_PER_SECTION) {
    const lines = shown
      .slice(start, start + METHODS_PER_SECTION)
      .map((method) => methodLine(method, lang, notes?.get(method.code)));
    sections.push({
      type: "section",
      text: { type: "mrkdwn", text: truncate(lines.join("\n"), LIMITS.sectionText) },
    });
  }
  return sections;
}

/** Which methods of how many, what was left out, and when the list was read. */
function footerBlock(
  { matching, shown, page, pages }: ShownPage,
  options: PaymethodsMessageOptions,
  lang: Lang,
) {
  const t = PAYMETHODS_TEXT[lang];
  const first = (page - 1) * METHODS_PER_PAGE;
  const range =
    shown.length === 0 ? "" : t.range(first + 1, first + shown.length, matching.length, page, pages);
  const readAt = slackDateFromEpoch(Math.floor(options.fetchedAt.getTime() / 1000), lang);
  const footer = t.footer(readAt, options.visibility === "private");
  const text = truncate(`${range}${leftOutText(options.leftOut, lang)}${footer}`, LIMITS.sectionText);
  return { type: "context", elements: [{ type: "mrkdwn", text }] } satisfies types.KnownBlock;
}

/** Previous and Next where there are such pages, Refresh, and Share on a private list. */
function navButtons(
  view: PaymethodsView,
  { page, pages }: ShownPage,
  visibility: ReplyVisibility,
  lang: Lang,
) {
  const t = PAYMETHODS_TEXT[lang];
  const value = (targetPage: number) =>
    paymethodsPageButton.write({
      f: filterText(view.filter),
      p: targetPage,
      ...(view.register === undefined ? {} : { r: view.register }),
    });
  const button = (actionId: string, text: string, target: number): types.Button => ({
    type: "button",
    action_id: actionId,
    text: { type: "plain_text", text },
    value: value(target),
  });
  const buttons: types.Button[] = [];
  if (page > 1) buttons.push(button(PAYMETHODS_ACTIONS.previous, t.previous, page - 1));
  if (page < pages) buttons.push(button(PAYMETHODS_ACTIONS.next, t.next, page + 1));
  buttons.push(button(PAYMETHODS_ACTIONS.refresh, t.refresh, page));
  if (visibility === "private") buttons.push(shareButton(PAYMETHODS_ACTIONS.share, value(page), t.share));
  return buttons;
}

export function paymethodsHelpMessage(facts: HelpFacts, lang: Lang = "en"): SlackMessage {
  const t = HELP_TEXT[lang];
  return ephemeral(
    [...t.paymethodsHelp, ...workspaceLines(facts, "methodLists", lang)].join("\n"),
    t.paymethodsHelpFallback,
  );
}

export function paymethodsNoMatchMessage(filter: string, lang: Lang = "en"): SlackMessage {
  const t = PAYMETHODS_TEXT[lang];
  return ephemeral(t.noMatch(inlineCode(filter)), t.noMatchFallback(filter));
}

export function paymethodsUsageMessage(reason: UsageReason, input: string, lang: Lang = "en"): SlackMessage {
  const t = HELP_TEXT[lang];
  const words = t.reasons[reason];
  return ephemeral(
    `:information_source: ${words}: ${inlineCode(truncate(input, 60))}\n${t.paymethodsUsage}`,
    t.paymethodsUsageFallback(words),
  );
}
