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

export function feedsLine(feeds: FeedLine[]): string {
  if (feeds.length === 0) return "Payment feed: none (`/invoice subscribe` in a channel makes it one).";
  const each = feeds.map((feed) => {
    const what = feed.mode === "all" ? "every new, paid or failed invoice" : "paid invoices";
    const quiet =
      feed.paused === "not_in_channel"
        ? ", *stopped*: Kassa is not in the channel (invite it, then subscribe again)"
        : feed.paused === "unreadable_history"
          ? ", *paused*: the invoice history could not be read (Kassa keeps trying)"
          : "";
    const daily = feed.digest ? `, yesterday's summary daily at ${safeText(feed.digest, 80)}` : "";
    return `<#${feed.channel}> (${what}${daily}${quiet})`;
  });
  return `Payment feed: ${each.join("; ")}.`;
}

/** Whether the payment service's callbacks reach Kassa for a workspace, and where. */
export type InstantStatus =
  | { kind: "on"; address: string }
  | { kind: "no-salt" }
  /** PUBLIC_URL not set, or Socket Mode: Kassa has no address the service could post to. */
  | { kind: "no-address" };

/** One paragraph on instant notifications, for status replies and App Home. */
export function instantLine(status: InstantStatus, canManage: boolean): string {
  if (status.kind === "on") {
    if (!canManage)
      return ":zap: Instant notifications are on: cards change as soon as the payment service reports a payment.";
    return [
      `:zap: *Instant notifications are on.* The payment service reports payments to \`${safeText(status.address, 300)}\`; invoices created with \`/invoice new\` carry it.`,
      "Your own invoices can carry it too (as `callback_url`), or your server can forward the service's notifications to it: their cards then change at once as well.",
      "If the address leaked, `/invoice callback rotate` makes a new one (the old one stops working).",
    ].join(" ");
  }
  if (status.kind === "no-salt")
    return canManage
      ? ":hourglass: Instant notifications are off: no Secret 2 is stored, so cards are checked every so often instead. Add it with `/invoice connect`."
      : ":hourglass: Instant notifications are off: cards are checked every so often instead.";
  return canManage
    ? ":hourglass: Instant notifications are off: Kassa has no public address for the payment service to report to (the operator sets `PUBLIC_URL`), so cards are checked every so often instead."
    : ":hourglass: Instant notifications are off: cards are checked every so often instead.";
}
