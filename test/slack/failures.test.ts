import { describe, expect, it } from "vitest";
import { classifySlackFailure, isChannelGone, type SlackFailure } from "../../src/slack/failures.js";

/** As the Web API client rejects: Slack's answer in `data.error`, its own reasons in `code`. */
function slackAnswered(error: string): Error {
  return Object.assign(new Error(`An API error occurred: ${error}`), {
    code: "slack_webapi_platform_error",
    data: { ok: false, error },
  });
}

function clientFailed(code: string): Error {
  return Object.assign(new Error(code), { code });
}

describe("classifySlackFailure", () => {
  it.each<[string, Error, SlackFailure, boolean]>([
    ["not in the channel", slackAnswered("not_in_channel"), "not_in_channel", true],
    ["a channel it cannot see", slackAnswered("channel_not_found"), "not_in_channel", true],
    ["an archived channel", slackAnswered("is_archived"), "archived", true],
    ["a restricted action", slackAnswered("restricted_action"), "restricted", false],
    ["a message gone", slackAnswered("message_not_found"), "message_gone", false],
    ["a message that cannot be updated", slackAnswered("cant_update_message"), "message_gone", false],
    ["a revoked token", slackAnswered("token_revoked"), "token_dead", false],
    ["a wrong token", slackAnswered("invalid_auth"), "token_dead", false],
    ["a deactivated account", slackAnswered("account_inactive"), "token_dead", false],
    ["no token", slackAnswered("not_authed"), "token_dead", false],
    ["an expired token", slackAnswered("token_expired"), "token_dead", false],
    ["a missing scope", slackAnswered("missing_scope"), "token_dead", false],
    ["Slack's rate limit", slackAnswered("ratelimited"), "rate_limited", false],
    ["the client's rate limit", clientFailed("slack_webapi_rate_limited_error"), "rate_limited", false],
    ["an unknown answer", slackAnswered("fatal_error"), "other", false],
    ["no answer (a time-out)", clientFailed("slack_webapi_request_error"), "other", false],
    ["a code that is an Object key", slackAnswered("constructor"), "other", false],
  ])("%s", (_, error, failure, gone) => {
    expect(classifySlackFailure(error)).toBe(failure);
    expect(isChannelGone(classifySlackFailure(error))).toBe(gone);
  });

  it("is other for what is not an error", () => {
    expect(classifySlackFailure(undefined)).toBe("other");
    expect(classifySlackFailure("channel_not_found")).toBe("other");
  });
});
