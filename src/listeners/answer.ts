import type { SlackMessage } from "../blocks/message.js";
import { slowDownMessage } from "../blocks/replies.js";
import { newReference } from "../logger.js";
import type { ListenerDeps } from "./deps.js";
import { offersConnect, replyForFailure } from "./error-reply.js";

/** Fields of the one log line written per handled command or action. */
export type Outcome = Record<string, unknown>;

/** What answer() uses: the rate limits, the in-flight count, the log and the time-out it quotes. */
export type AnswerDeps = Pick<ListenerDeps, "inFlight" | "logger" | "rateLimiter" | "timeoutMs">;

export type AnswerContext = {
  kind: "command" | "action";
  name: string;
  team: string;
  user: string;
  /** Whether this user may connect the cash register; asked only for replies that offer it. */
  canManage?: () => Promise<boolean>;
};

/**
 * Runs one request after it was acknowledged: `produce` builds the reply (and notes what happened
 * in `outcome`); any failure becomes the matching ephemeral reply; the reply is sent; one log line
 * records team, user, outcome, upstream status and latency, and the reference id on failures.
 */
export async function answer(
  deps: AnswerDeps,
  context: AnswerContext,
  send: (message: SlackMessage, result: { failed: boolean }) => Promise<unknown>,
  /** Resolves to the reply, or to null when the answer is elsewhere (a modal was opened). */
  produce: (outcome: Outcome) => Promise<SlackMessage | null>,
): Promise<void> {
  await deps.inFlight.track(answerNow(deps, context, send, produce));
}

async function answerNow(
  deps: AnswerDeps,
  context: AnswerContext,
  send: (message: SlackMessage, result: { failed: boolean }) => Promise<unknown>,
  produce: (outcome: Outcome) => Promise<SlackMessage | null>,
): Promise<void> {
  const started = performance.now();
  const outcome: Outcome = { outcome: "ok" };
  let reply: SlackMessage | null;
  let failed = false;
  try {
    const verdict = await deps.rateLimiter.hit(context.team, context.user);
    if (verdict.limited) {
      outcome.outcome = "rate_limited";
      outcome.limit = verdict.scope;
      reply = slowDownMessage(verdict.scope, verdict.retryAfterSeconds);
      failed = true;
    } else {
      reply = await produce(outcome);
    }
  } catch (error) {
    failed = true;
    const canManage =
      offersConnect(error) && context.canManage ? await context.canManage().catch(() => false) : false;
    const failure = replyForFailure(error, {
      timeoutMs: deps.timeoutMs,
      reference: newReference(),
      canManage,
    });
    reply = failure.message;
    outcome.outcome = failure.outcome;
    if (failure.upstreamStatus !== undefined) outcome.upstreamStatus = failure.upstreamStatus;
    if (failure.operatorHint !== undefined) outcome.hint = failure.operatorHint;
    if (failure.reference) {
      outcome.reference = failure.reference;
      outcome.err = error;
    }
  }
  try {
    if (reply) await send(reply, { failed });
  } catch (error) {
    outcome.replyFailed = error instanceof Error ? error.message : String(error);
  }
  const broken = outcome.reference !== undefined || outcome.replyFailed !== undefined;
  const level = broken ? "error" : "info";
  // The record is built only when it will be written (LOG_LEVEL=warn skips the info lines).
  if (!deps.logger.isLevelEnabled(level)) return;
  deps.logger[level](
    {
      [context.kind]: context.name,
      team: context.team,
      user: context.user,
      ...outcome,
      latencyMs: Math.round(performance.now() - started),
    },
    `${context.kind} handled`,
  );
}
