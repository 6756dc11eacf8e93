import { webApi } from "@slack/bolt";
import type { CommandArgs } from "../../src/listeners/router.js";
import { boltLogger, createLogger } from "../../src/util/logger.js";

/** What a slash command's body may leave out here: filled in as Slack would send them. */
type CommandBody = Partial<CommandArgs["body"]> & { command: string; text: string };

/**
 * A slash command's arguments as Bolt gives them to a middleware or a listener, typed as the
 * handlers take them, for tests that need no Slack behind them: a client that is never called, a
 * silent logger, `ack`, `respond` and `say` that only record, `next` and `context` as given.
 */
export function bareCommandArgs(
  given: CommandBody,
  handlers: {
    next?: () => Promise<void>;
    ack?: () => Promise<void>;
    context?: CommandArgs["context"];
  } = {},
): CommandArgs {
  const body = {
    token: "verification-token",
    response_url: "https://hooks.slack.invalid/commands/T1/1/abc",
    trigger_id: "trigger-1",
    user_id: "U1",
    user_name: "u1",
    team_id: "T1",
    team_domain: "team",
    channel_id: "C1",
    channel_name: "general",
    api_app_id: "A1",
    ...given,
  };
  return {
    payload: body,
    command: body,
    body,
    ack: handlers.ack ?? (async () => undefined),
    respond: async () => new Response(null),
    say: async () => ({ ok: true }),
    next: handlers.next ?? (async () => undefined),
    context: handlers.context ?? { isEnterpriseInstall: false },
    logger: boltLogger(createLogger("silent")),
    client: new webApi.WebClient(undefined, { slackApiUrl: "http://127.0.0.1:9/api/" }),
  };
}
