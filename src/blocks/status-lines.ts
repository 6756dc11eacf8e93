import type { Lang } from "../i18n/lang.js";
import { STATUS_LINES_TEXT } from "../i18n/status-lines.js";
import { safeText } from "./mrkdwn.js";

// The lines of /invoice status and App Home about what runs for a workspace besides commands.

/** One payment feed as /invoice status lists it. */
export type FeedLine = {
  channel: string;
  mode: "paid" | "all";
  paused?: "not_in_channel" | "unreadable_history";
  /** "09:00 Europe/Moscow": the daily summary's time. */
  digest?: string;
};

export function feedsLine(feeds: FeedLine[], lang: Lang = "en"): string {
  const t = STATUS_LINES_TEXT[lang];
  if (feeds.length === 0) return t.noFeed;
  const each = feeds.map((feed) => {
    const what = feed.mode === "all" ? t.feedAll : t.feedPaid;
    const quiet =
      feed.paused === "not_in_channel" ? t.stopped : feed.paused === "unreadable_history" ? t.paused : "";
    const daily = feed.digest ? t.daily(safeText(feed.digest, 80)) : "";
    return `<#${feed.channel}> (${what}${daily}${quiet})`;
  });
  return t.feeds(each.join("; "));
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
