import type { FeedFilter, Mentions } from "../feed/model.js";
import { FEED_FILTER_TEXT, type FeedEventWord } from "../i18n/feed-filter.js";
import type { Lang } from "../i18n/lang.js";
import { formatDecimal } from "./format.js";
import { inlineCode } from "./mrkdwn.js";

/** The order a description names events in (the feed's own order). */
const EVENT_ORDER: readonly FeedEventWord[] = ["new", "paid", "failed", "wrongamount", "expired"];
/** Only ids the picker gives become mentions; anything else is left out. */
const USER_ID = /^[UW][A-Z0-9]{2,40}$/;

/** "10,000 RUB": a threshold as people typed it, grouped, no padding. */
export function rubThreshold(value: string, lang: Lang): string {
  return `${formatDecimal(value, lang)} RUB`;
}

/** "A, B and C" in the reader's language. */
function listOf(items: readonly string[], lang: Lang): string {
  return new Intl.ListFormat(lang, { type: "conjunction" }).format(items);
}

/** `<@U1>` and `<@U2>`: the people, as Slack mentions (ids checked again here). */
export function mentionList(users: readonly string[], lang: Lang): string {
  return listOf(
    users.filter((user) => USER_ID.test(user)).map((user) => `<@${user}>`),
    lang,
  );
}

/** What a filter posts: "paid invoices from 10,000 RUB, paid by `BITCOIN`, no test payments". */
export function describeFilter(filter: FeedFilter, lang: Lang = "en"): string {
  const t = FEED_FILTER_TEXT[lang];
  const events = EVENT_ORDER.filter((event) => filter.events.includes(event));
  const parts = [
    events.length === EVENT_ORDER.length
      ? t.everything
      : t.invoices(
          listOf(
            events.map((event) => t.events[event]),
            lang,
          ),
        ),
  ];
  if (filter.minRub) parts[0] = `${parts[0]} ${t.from(rubThreshold(filter.minRub, lang))}`;
  if (filter.methods?.length)
    parts.push(
      t.methods(
        listOf(
          filter.methods.slice(0, 20).map((code) => inlineCode(code)),
          lang,
        ),
      ),
    );
  if (filter.tests === false) parts.push(t.noTests);
  return parts.join(", ");
}

/** Whom a feed mentions and when: "mentions @anna from 50,000 RUB and on failures"; "" for nobody. */
export function describeMentions(mentions: Mentions | null | undefined, lang: Lang = "en"): string {
  if (!mentions || (!mentions.payments && !mentions.failures)) return "";
  const t = FEED_FILTER_TEXT[lang];
  const when: string[] = [];
  if (mentions.payments)
    when.push(mentions.minRub ? t.mentionFrom(rubThreshold(mentions.minRub, lang)) : t.mentionEveryPayment);
  if (mentions.failures) when.push(t.mentionFailures);
  return t.mentions(mentionList(mentions.users, lang), listOf(when, lang));
}

/** A whole feed in words: "paid invoices from 10,000 RUB, mentions @anna from 50,000 RUB". */
export function describeFeed(
  feed: { filter: FeedFilter; mentions?: Mentions | null | undefined },
  lang: Lang = "en",
): string {
  const mentions = describeMentions(feed.mentions, lang);
  return mentions ? `${describeFilter(feed.filter, lang)}, ${mentions}` : describeFilter(feed.filter, lang);
}
