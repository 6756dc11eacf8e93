import type { types } from "@slack/bolt";
import type { FeedFilter, Mentions } from "../feed/model.js";
import type { Lang } from "../i18n/lang.js";
import { REGISTERS_TEXT } from "../i18n/registers.js";
import { STATUS_LINES_TEXT } from "../i18n/status-lines.js";
import { feedSettingsButtonFor } from "./feed.js";
import { describeFeed } from "./feed-describe.js";
import { LIMITS } from "./limits.js";
import { escapeMrkdwn, safeText, truncate } from "./mrkdwn.js";

// The lines of /invoice status and App Home about what runs for a workspace besides commands.

/** One payment feed as /invoice status and App Home list it. */
export type FeedLine = {
  channel: string;
  filter: FeedFilter;
  mentions?: Mentions | null | undefined;
  paused?: "not_in_channel" | "unreadable_history";
  /** "09:00 Europe/Moscow": the daily summary's time. */
  digest?: string;
  /** The feed's register, where the workspace has several (the line names it, its button carries it). */
  register?: string;
};

/** Feeds listed with a Settings button each at most; the rest are named in one section. */
const FEEDS_WITH_BUTTONS = 15;

/** One feed in words: "<#C0SALES>: paid invoices from 10,000 RUB, mentions @anna from 50,000 RUB". */
export function feedLineText(feed: FeedLine, lang: Lang = "en"): string {
  const t = STATUS_LINES_TEXT[lang];
  const quiet =
    feed.paused === "not_in_channel" ? t.stopped : feed.paused === "unreadable_history" ? t.paused : "";
  const daily = feed.digest ? t.daily(safeText(feed.digest, 80)) : "";
  const of =
    feed.register === undefined ? "" : ` (${REGISTERS_TEXT[lang].feedOf(escapeMrkdwn(feed.register))})`;
  return `<#${feed.channel}>${of}: ${describeFeed(feed, lang)}${daily}${quiet}`;
}

/** The feeds in one line each (the fallback text, and no feed at all). */
export function feedsLine(feeds: FeedLine[], lang: Lang = "en"): string {
  const t = STATUS_LINES_TEXT[lang];
  if (feeds.length === 0) return t.noFeed;
  return t.feeds(feeds.map((feed) => feedLineText(feed, lang)).join("; "));
}

/**
 * The feeds as blocks: a title, then one section per feed in words, with its Settings button for
 * people who may change feeds (the first FEEDS_WITH_BUTTONS; the rest in one section).
 */
export function feedSections(
  feeds: FeedLine[],
  options: { teamId: string; canManage: boolean },
  lang: Lang = "en",
): types.KnownBlock[] {
  if (feeds.length === 0) return [];
  const blocks: types.KnownBlock[] = [
    { type: "section", text: { type: "mrkdwn", text: STATUS_LINES_TEXT[lang].feedsTitle } },
  ];
  for (const feed of feeds.slice(0, FEEDS_WITH_BUTTONS))
    blocks.push({
      type: "section",
      text: { type: "mrkdwn", text: truncate(feedLineText(feed, lang), LIMITS.sectionText) },
      ...(options.canManage
        ? { accessory: feedSettingsButtonFor(options.teamId, feed.channel, lang, feed.register) }
        : {}),
    });
  const rest = feeds.slice(FEEDS_WITH_BUTTONS);
  if (rest.length > 0)
    blocks.push({
      type: "section",
      text: {
        type: "mrkdwn",
        text: truncate(rest.map((feed) => feedLineText(feed, lang)).join("\n"), LIMITS.sectionText),
      },
    });
  return blocks;
}

/** Whether the payment service's callbacks reach Kassa for a workspace, and where. */
export type InstantStatus =
  | { kind: "on"; address: string }
  | { kind: "no-salt" }
  /** PUBLIC_URL not set, or Socket Mode: Kassa has no address the service could post to. */
  | { kind: "no-address" };

/** One paragraph on instant notifications, for status replies and App Home. */
export function instantLine(status: InstantStatus, canManage: boolean, lang: Lang = "en"): string {
  const t = STATUS_LINES_TEXT[lang];
  if (status.kind === "on")
    return canManage ? t.instantOnManage(safeText(status.address, 300)).join(" ") : t.instantOn;
  if (status.kind === "no-salt") return canManage ? t.noSaltManage : t.off;
  return canManage ? t.noAddressManage : t.off;
}
