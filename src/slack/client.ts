import { webApi } from "@slack/bolt";
import type { Config } from "../config/index.js";

/**
 * The one policy for every Slack Web API client of the app (Bolt's, the watcher's, start-up's): a
 * deadline (SLACK_TIMEOUT_MS, retries included), a short retry budget for 5xx answers and connection
 * errors, and rate-limited calls failed at once instead of slept through (Retry-After can be a
 * minute): the command path then falls back to response_url, the watcher tries that card later.
 * Bolt's default would retry ten times over about half an hour.
 */
export function slackClientOptions(
  slack: Pick<Config["slack"], "apiUrl" | "timeoutMs">,
): webApi.WebClientOptions {
  return {
    slackApiUrl: slack.apiUrl,
    timeout: slack.timeoutMs,
    retryConfig: { retries: 2, factor: 2, minTimeout: 200, maxTimeout: 1000, maxRetryTime: slack.timeoutMs },
    rejectRateLimitedCalls: true,
    logLevel: webApi.LogLevel.ERROR,
  };
}
