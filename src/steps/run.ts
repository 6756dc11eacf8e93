import { DEFAULT_LANG, type Lang } from "../i18n/lang.js";
import { slackErrorCode } from "../slack/error.js";
import { newReference } from "../util/logger.js";
import type { StepArgs, StepDeps, StepResult } from "./deps.js";

/**
 * A run is remembered this long: Slack delivers function_executed again when it missed the ack
 * (within minutes), and a run id is never reused.
 */
export const RUN_MEMORY_MS = 24 * 60 * 60 * 1000;

/** What a step's work knows of its run. */
export type StepRun = { teamId: string; lang: Lang; executionId: string };

type StepOptions = {
  step: string;
  /**
   * What a run does when the store cannot say whether it is the first: "refuse" (Create invoice:
   * without the store Kassa cannot promise one invoice per run) or "go" (reading twice is harmless).
   */
  withoutStore: "refuse" | "go";
  /** The sentence for a failure of Kassa's own (a reference to quote). */
  internal: (lang: Lang, reference: string) => string;
  /** The sentence for "the store did not answer", when withoutStore is "refuse". */
  storeDown: (lang: Lang) => string;
};

/**
 * One workflow step run, as Slack's guidance for remote functions has it: Bolt has acknowledged
 * the event already; the run is claimed by its function_execution_id (a repeated delivery does
 * nothing), the work runs, and the run ends with functions.completeSuccess or completeError through
 * `complete` / `fail`, which use the run's own function token. One log line per delivery.
 */
export async function runStep(
  deps: Pick<StepDeps, "claimOnce" | "inFlight" | "logger" | "stores">,
  args: StepArgs,
  options: StepOptions,
  work: (run: StepRun) => Promise<StepResult>,
): Promise<void> {
  await deps.inFlight.track(runNow(deps, args, options, work));
}

async function runNow(
  deps: Pick<StepDeps, "claimOnce" | "logger" | "stores">,
  args: StepArgs,
  options: StepOptions,
  work: (run: StepRun) => Promise<StepResult>,
): Promise<void> {
  const started = performance.now();
  // The workspace the workflow runs in (with an org-wide install, the event names it, not the install).
  const teamId = args.body.team_id || args.context.teamId || "";
  const executionId = args.event.function_execution_id;
  const line: Record<string, unknown> = {
    step: options.step,
    team: teamId,
    ...(args.context.enterpriseId ? { enterprise: args.context.enterpriseId } : {}),
    execution: executionId,
    workflowExecution: args.event.workflow_execution_id,
  };
  const lang = (await deps.stores.settings.get(teamId).catch(() => undefined))?.language ?? DEFAULT_LANG;
  const write = (level: "info" | "warn" | "error", fields: Record<string, unknown>) =>
    deps.logger[level](
      { ...line, ...fields, latencyMs: Math.round(performance.now() - started) },
      "workflow step handled",
    );

  let first = true;
  try {
    first = await deps.claimOnce(`step:${executionId}`, RUN_MEMORY_MS);
  } catch (error) {
    if (options.withoutStore === "refuse") {
      const ended = await end(args, {
        done: false,
        error: options.storeDown(lang),
        reason: "store_unavailable",
      });
      return write("warn", { outcome: "failed", reason: "store_unavailable", err: error, ...ended });
    }
    line.claim = "store_unavailable";
  }
  if (!first) return write("info", { outcome: "duplicate" });

  const result = await workedOrFailed(work, { teamId, lang, executionId }, options);
  const ended = await end(args, result);
  const fields = { ...result.log, ...ended };
  if (result.done) return write(ended.completeError ? "error" : "info", { outcome: "completed", ...fields });
  const level = "err" in fields || ended.completeError ? "error" : "info";
  write(level, { outcome: "failed", reason: result.reason, ...fields });
}

/** The step's work; a throw is an internal error, said with a reference (the log line has the cause). */
async function workedOrFailed(
  work: (run: StepRun) => Promise<StepResult>,
  run: StepRun,
  options: StepOptions,
): Promise<StepResult> {
  try {
    return await work(run);
  } catch (error) {
    const reference = newReference();
    return {
      done: false,
      error: options.internal(run.lang, reference),
      reason: "internal_error",
      log: { reference, err: error },
    };
  }
}

/** Tells Slack how the run ended; Slack's refusal (an expired function token, …) goes to the log line. */
async function end(args: StepArgs, result: StepResult): Promise<{ completeError?: string }> {
  try {
    if (result.done) await args.complete({ outputs: result.outputs });
    else await args.fail({ error: result.error });
    return {};
  } catch (error) {
    return { completeError: slackErrorCode(error) };
  }
}
