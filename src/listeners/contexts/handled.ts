import type { AuditRecorder } from "../../audit/index.js";
import { type FieldErrors, fieldError } from "../../blocks/form.js";
import { DEFAULT_LANG, type Lang } from "../../i18n/lang.js";
import { NOTICES_TEXT } from "../../i18n/notices.js";
import { newReference } from "../../util/logger.js";
import type { ListenerDeps } from "../deps.js";
import type { ViewArgs } from "../router.js";
import { recordAnswered } from "./audit.js";
import type { HandledLogLine, Note, Outcome, ViewContext } from "./outcome.js";

type Level = "info" | "warn" | "error";

/** What a submission or an event ended in, and how loud its line is (error when it carries `err`). */
export type Handled = { log: Outcome; level?: Level };

/** Where the line comes from: a modal (its callback id) or an event (its name). */
type Origin =
  | { view: string; team: string; user: string }
  | { event: string; team: string; user?: string | undefined; eventId?: string | undefined };

/** Facts noted as the work goes; they reach the line whatever the outcome. */
export type Noted = ViewContext & { user?: string; channel?: string };

/**
 * Runs a modal submission's or an event's work and writes its one log line (HandledLogLine): where
 * it came from, what was noted, the typed outcome and the latency. A throw becomes `internal_error`
 * with a reference, never a silent drop. The in-flight count lets shutdown wait for it.
 */
export async function handled(
  deps: Pick<ListenerDeps, "logger" | "inFlight">,
  origin: Origin,
  run: (note: Note<Noted>, facts: Readonly<Noted>) => Promise<Handled>,
): Promise<void> {
  await deps.inFlight.track(handledNow(deps, origin, run));
}

async function handledNow(
  deps: Pick<ListenerDeps, "logger">,
  origin: Origin,
  run: (note: Note<Noted>, facts: Readonly<Noted>) => Promise<Handled>,
): Promise<void> {
  const started = performance.now();
  // The line's own fields, added to by the work through `note` only.
  const noted: Noted = {};
  const note: Note<Noted> = (fields) => Object.assign(noted, fields);
  let result: Handled;
  try {
    result = await run(note, noted);
  } catch (error) {
    result = { log: { outcome: "internal_error", err: error, reference: newReference() } };
  }
  const { log } = result;
  const { audit: _audit, ...facts } = noted;
  const level = result.level ?? ("err" in log && log.err !== undefined ? "error" : "info");
  // The record is built only when it will be written (LOG_LEVEL=warn skips the info lines).
  if (!deps.logger.isLevelEnabled(level)) return;
  const line: HandledLogLine = {
    ...origin,
    ...facts,
    ...log,
    latencyMs: Math.round(performance.now() - started),
  };
  deps.logger[level](line, "view" in origin ? "view handled" : "event handled");
}

/** How a submission answers Slack: close the form, keep it open with field errors, or replace it. */
export type ViewAnswer = Parameters<ViewArgs["ack"]>[0];

/**
 * A modal submission: `run` answers Slack through `reply` (within Slack's 3 s) and returns its
 * outcome; whatever it did after replying is on the same line. If it throws before replying, the
 * form stays open with a reference under `field`, and nothing is lost silently.
 */
export async function handledSubmission(
  deps: Pick<ListenerDeps, "logger" | "inFlight"> & { audit: AuditRecorder },
  origin: { view: string; team: string; user: string; field: string; lang?: Lang },
  ack: ViewArgs["ack"],
  run: (note: Note<Noted>, reply: (answer?: ViewAnswer) => Promise<void>) => Promise<Outcome>,
): Promise<void> {
  const { field, lang = DEFAULT_LANG, ...where } = origin;
  let replied = false;
  const reply = async (answer?: ViewAnswer) => {
    replied = true;
    await ack(answer);
  };
  await handled(deps, where, async (note, facts) => {
    try {
      const log = await run(note, reply);
      // The act is written down before the line that says the form was answered.
      await recordAnswered(
        deps,
        { kind: "view", name: where.view, team: where.team, user: where.user },
        facts,
        log,
      );
      return { log };
    } catch (error) {
      const reference = newReference();
      if (!replied) await reply(somethingWentWrong(field, reference, lang)).catch(() => undefined);
      return { log: { outcome: "internal_error", err: error, reference } };
    }
  });
}

function somethingWentWrong(field: string, reference: string, lang: Lang): FieldErrors {
  return fieldError(field, NOTICES_TEXT[lang].internalField(reference));
}
