import { createHash } from "node:crypto";
import type { AnyMiddlewareArgs, Context, Middleware } from "@slack/bolt";
import type { Logger } from "../util/logger.js";
import { MAX_CLOCK_SKEW_SECONDS } from "./request-guard.js";

/**
 * A signed request is accepted while its timestamp is within MAX_CLOCK_SKEW_SECONDS of Kassa's clock,
 * either way (Bolt and the request guard): a copy can come that long after the first, and the first
 * may have come that long before its own timestamp. Remembered twice that, and a minute.
 */
export const COMMAND_MEMORY_MS = (2 * MAX_CLOCK_SKEW_SECONDS + 60) * 1000;

/** Set on a run of a journaled command a stopped process left (recovery.ts): it is that command, not a copy. */
export const RECOVERED = "kassaRecovered";
/** Set once this middleware has acknowledged a command: the listener's own ack then does nothing. */
const ACKNOWLEDGED = "kassaCommandAcknowledged";
/** Set on a command this middleware checks: the check under way (a DeliveryCheck). */
const DELIVERY = "kassaCommandDelivery";

export function commandAcknowledged(context: Context): boolean {
  return context[ACKNOWLEDGED] === true;
}

/** Whether a command is the first of its copies: asked of the store, answered when it answers. */
class DeliveryCheck {
  constructor(readonly first: Promise<boolean>) {}
}

/**
 * Whether the command of this request is to be answered: false for a replayed copy. Never rejects
 * (a store that cannot say answers true). A command the middleware did not check (Slack's retry, a
 * journaled command run again, a handler called without it) is answered.
 */
export function firstDeliveryOf(context: Readonly<Record<string, unknown>> | undefined): Promise<boolean> {
  const check: unknown = context?.[DELIVERY];
  return check instanceof DeliveryCheck ? check.first : Promise.resolve(true);
}

/**
 * Global middleware: a slash command is answered once. A signed command sent again within Slack's
 * five minutes (the same body, so the same response_url, which Slack makes for each command; no
 * `X-Slack-Retry-Num`) is acknowledged with an empty 200 and nothing more, and logged once. Slack's
 * own retries go through as before, as does a journaled command run again. Acknowledged before the
 * store is asked (Slack's 3 s), then claimed with the store's claimOnce, so a copy sent to another
 * replica is caught too. A store that cannot say: the command is answered (twice beats never).
 * The claim is not waited for here: the command's handler opens with its rate count and this check
 * together (listeners/contexts/answer.ts, firstDeliveryOf) and does nothing before both are in, so the
 * claim adds no store round trip to the reply, and a stalled store one deadline, not two.
 */
export function answerCommandsOnce(
  claimOnce: (key: string, ttlMs: number) => Promise<boolean>,
  logger: Logger,
): Middleware<AnyMiddlewareArgs> {
  return async (args) => {
    const { body, context, next } = args;
    const ack = "ack" in args ? args.ack : undefined;
    const fields = body as {
      command?: unknown;
      response_url?: unknown;
      team_id?: unknown;
      user_id?: unknown;
    };
    if (
      typeof fields.command !== "string" ||
      typeof fields.response_url !== "string" ||
      ack === undefined ||
      context.retryNum !== undefined ||
      context[RECOVERED] === true
    )
      return next();
    await ack();
    context[ACKNOWLEDGED] = true;
    const key = `command:${createHash("sha256").update(fields.response_url).digest("base64url").slice(0, 32)}`;
    const first = claimOnce(key, COMMAND_MEMORY_MS).then(
      (claimed) => {
        if (!claimed)
          logger.warn(
            {
              team: fields.team_id,
              user: fields.user_id,
              command: fields.command,
              outcome: "command_replayed",
            },
            "a slash command came again (a replay, not a Slack retry): acknowledged, not answered again",
          );
        return claimed;
      },
      (error: unknown) => {
        logger.warn(
          { team: fields.team_id, command: fields.command, err: error },
          "could not check a slash command for a replay; answering it",
        );
        return true;
      },
    );
    context[DELIVERY] = new DeliveryCheck(first);
    return next();
  };
}
