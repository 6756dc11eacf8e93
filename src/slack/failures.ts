import { slackApiError } from "./error.js";

/**
 * What a failed Slack call means, whatever Kassa was doing. One place for Slack's codes: the feed,
 * the live cards, the digests and the commands that post in a channel all decide on these.
 * - not_in_channel: Kassa is not in the channel, or cannot see it (`not_in_channel`,
 *   `channel_not_found`): inviting it helps;
 * - archived: the channel is archived (`is_archived`); with not_in_channel, the channel is gone;
 * - restricted: the workspace does not let Kassa post there (`restricted_action`);
 * - message_gone: the message to update is not there or cannot be updated any more;
 * - token_dead: the token cannot do this any more (revoked, expired, the app uninstalled, a scope missing);
 * - rate_limited: Slack asked to slow down (its answer, or the Web API client's own rate-limit error);
 * - other: anything else (a time-out, a 5xx, an unknown code).
 */
export type SlackFailure =
  | "not_in_channel"
  | "archived"
  | "restricted"
  | "message_gone"
  | "token_dead"
  | "rate_limited"
  | "other";

const FAILURES: Record<string, SlackFailure> = {
  not_in_channel: "not_in_channel",
  channel_not_found: "not_in_channel",
  is_archived: "archived",
  restricted_action: "restricted",
  message_not_found: "message_gone",
  cant_update_message: "message_gone",
  invalid_auth: "token_dead",
  account_inactive: "token_dead",
  token_revoked: "token_dead",
  not_authed: "token_dead",
  token_expired: "token_dead",
  missing_scope: "token_dead",
  ratelimited: "rate_limited",
  slack_webapi_rate_limited_error: "rate_limited",
};

/** What a code means: Slack's (`channel_not_found`) or the Web API client's (`slack_webapi_rate_limited_error`). */
export function slackFailureOfCode(code: string | undefined): SlackFailure {
  return (code !== undefined && Object.hasOwn(FAILURES, code) ? FAILURES[code] : undefined) ?? "other";
}

/** What a failed Slack call means: Slack's answer when it gave one, else the Web API client's code. */
export function classifySlackFailure(error: unknown): SlackFailure {
  const clientCode = (error as { code?: unknown } | null)?.code;
  return slackFailureOfCode(
    slackApiError(error) ?? (typeof clientCode === "string" ? clientCode : undefined),
  );
}

/** Kassa cannot post in the channel any more (not in it, or it is archived). */
export function isChannelGone(failure: SlackFailure): failure is "not_in_channel" | "archived" {
  return failure === "not_in_channel" || failure === "archived";
}

/** Slack's answers to a direct message (or conversations.open) for a person Kassa cannot write to any more. */
const PERSON_GONE = new Set([
  "account_inactive",
  "user_not_found",
  "user_disabled",
  "user_not_visible",
  "cannot_dm_bot",
]);

/** Slack said the person is gone (deactivated, not found) or may not be written to by Kassa. */
export function isPersonGoneCode(code: string | undefined): boolean {
  return code !== undefined && PERSON_GONE.has(code);
}

/** Slack's Retry-After (ms) when it refused for the rate (a second when it named none); undefined otherwise. */
export function retryAfterMsOf(error: unknown): number | undefined {
  if (classifySlackFailure(error) !== "rate_limited") return undefined;
  const seconds = (error as { retryAfter?: unknown } | null)?.retryAfter;
  return Math.max(1, typeof seconds === "number" ? seconds : 1) * 1000;
}
