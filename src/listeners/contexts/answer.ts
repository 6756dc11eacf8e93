import type { SlackMessage } from "../../blocks/message.js";
import { slowDownMessage } from "../../blocks/replies.js";
import { DEFAULT_LANG, type Lang } from "../../i18n/lang.js";
import { newReference } from "../../util/logger.js";
import type { ListenerDeps } from "../deps.js";
import { recordAnswered } from "./audit.js";
import { offersConnect, replyForFailure } from "./error-reply.js";
import type { AnswerLogLine, LogContext, Note, Outcome, Produced } from "./outcome.js";

/** What answer() uses: the rate limits, the in-flight count, the log and the time-out it quotes. */
export type AnswerDeps = Pick<ListenerDeps, "inFlight" | "logger" | "rateLimiter" | "timeoutMs" | "audit">;

export type AnswerContext = {
  kind: "command" | "action";
  name: string;
  team: string;
  user: string;
  /** Whether this user may connect the cash register; asked only for replies that offer it. */
  canManage?: () => Promise<boolean>;
  /** The workspace's language, for the replies answer() writes itself (English when it cannot be read). */
  lang?: () => Promise<Lang>;
  /**
   * A command's replay check (edge/command-once.ts), under way: false for a copy, which is neither
   * answered nor recorded. Never rejects.
   */
  firstDelivery?: Promise<boolean>;
};

/**
 * Runs one request after it was acknowledged: `produce` returns the reply and its typed outcome,
 * adding with `note` what the line carries even if it then fails; any failure becomes the matching
 * ephemeral reply; the reply is sent; one log line (AnswerLogLine) records team, user, the noted
 * context, the outcome with its fields and latency, and the reference id on failures.
 */
export async function answer(
  deps: AnswerDeps,
  context: AnswerContext,
  send: (message: SlackMessage, result: { failed: boolean }) => Promise<unknown>,
  /** Resolves to the reply (null when the answer is elsewhere: a modal was opened) and its outcome. */
  produce: (note: Note) => Promise<Produced>,
): Promise<void> {
  await deps.inFlight.track(answerNow(deps, context, send, produce));
}

async function answerNow(
  deps: AnswerDeps,
  context: AnswerContext,
  send: (message: SlackMessage, result: { failed: boolean }) => Promise<unknown>,
  produce: (note: Note) => Promise<Produced>,
): Promise<void> {
  const started = performance.now();
  // The line's own fields, added to by the producer through `note` only.
  const noted: LogContext = {};
  const note: Note = (fields) => Object.assign(noted, fields);
  const langOf = async (): Promise<Lang> =>
    context.lang ? await context.lang().catch(() => DEFAULT_LANG) : DEFAULT_LANG;
  let outcome: Outcome;
  let reply: SlackMessage | null;
  let failed = false;
  // The rate count and the replay check together: one store round trip, one deadline when it stalls.
  const [counted, first] = await Promise.allSettled([
    deps.rateLimiter.hit(context.team, context.user),
    context.firstDelivery ?? true,
  ]);
  // A copy (its log line is the check's): it still counted against the limits, as any request does.
  if (first.status === "fulfilled" && !first.value) return;
  try {
    if (counted.status === "rejected") throw counted.reason;
    const verdict = counted.value;
    if (verdict.limited) {
      outcome = { outcome: "rate_limited", limit: verdict.scope };
      reply = slowDownMessage(verdict.scope, verdict.retryAfterSeconds, await langOf());
      failed = true;
    } else {
      ({ reply, log: outcome } = await produce(note));
    }
  } catch (error) {
    failed = true;
    const canManage =
      offersConnect(error) && context.canManage ? await context.canManage().catch(() => false) : false;
    const failure = replyForFailure(error, {
      timeoutMs: deps.timeoutMs,
      reference: newReference(),
      canManage,
      lang: await langOf(),
    });
    reply = failure.message;
    outcome = {
      outcome: failure.outcome,
      ...(failure.upstreamStatus === undefined ? {} : { upstreamStatus: failure.upstreamStatus }),
      ...(failure.operatorHint === undefined ? {} : { hint: failure.operatorHint }),
      ...(failure.reference ? { reference: failure.reference, err: error } : {}),
    };
  }
  let replyFailed: string | undefined;
  try {
    if (reply) await send(reply, { failed });
  } catch (error) {
    replyFailed = error instanceof Error ? error.message : String(error);
  }
  // The act is written down before the line that says it was answered.
  await recordAnswered(
    deps,
    { kind: context.kind, name: context.name, team: context.team, user: context.user },
    noted,
    outcome,
  );
  const { audit: _audit, ...facts } = noted;
  const broken = ("reference" in outcome && outcome.reference !== undefined) || replyFailed !== undefined;
  // A button value Kassa never wrote is worth a look (someone changing values), never an error.
  const level = broken ? "error" : outcome.outcome === "stale_button" ? "warn" : "info";
  // The record is built only when it will be written (LOG_LEVEL=warn skips the info lines).
  if (!deps.logger.isLevelEnabled(level)) return;
  const line: AnswerLogLine = {
    [context.kind]: context.name,
    team: context.team,
    user: context.user,
    ...facts,
    ...outcome,
    ...(replyFailed === undefined ? {} : { replyFailed }),
    latencyMs: Math.round(performance.now() - started),
  };
  deps.logger[level](line, `${context.kind} handled`);
}
