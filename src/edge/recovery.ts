import type { AnyMiddlewareArgs, App, Middleware } from "@slack/bolt";
import { type CommandJournal, journalCommand } from "../store/journal.js";
import { type Clock, systemClock, type Timer } from "../util/clock.js";
import type { InFlight } from "../util/in-flight.js";
import type { Logger } from "../util/logger.js";
import { RECOVERED } from "./command-once.js";

/**
 * Default of JOURNAL_AFTER_MS: a command still unanswered this long after its ack is journaled.
 * Writing every command down (0) costs two store writes per command, for the few a crash would
 * catch in their first moments; with a delay, a process that dies that soon after an ack loses them.
 */
export const DEFAULT_JOURNAL_AFTER_MS = 250;

/** How often replicas sharing a Redis or PostgreSQL store look for commands a stopped one left. */
export const JOURNAL_SWEEP_MS = 5_000;

/**
 * Global middleware: a slash command still unanswered `afterMs` (JOURNAL_AFTER_MS) after it was
 * acknowledged is journaled (never before the ack; 0: at once), its entry renewed every third of
 * `graceMs` while the listener works (so a slow lookup is never taken for a dead process's, and a
 * dead process's commands are answered one grace later), and removed once the reply is sent.
 */
export function journalCommands(
  journal: CommandJournal,
  logger: Logger,
  /** Shutdown waits for the removal too: an entry left behind would be answered a second time. */
  inFlight: InFlight,
  afterMs = DEFAULT_JOURNAL_AFTER_MS,
  graceMs = 10_000,
  clock: Clock = systemClock,
): Middleware<AnyMiddlewareArgs> {
  return async ({ body, next }) => {
    const fields = body as Record<string, unknown>;
    const command = typeof fields.command === "string" ? journalCommand(fields) : undefined;
    if (!command) return next();
    const acknowledgedAt = clock.now();
    let recorded: Promise<string | undefined> | undefined;
    let beating: Timer | undefined;
    let beat: Promise<void> = Promise.resolve();
    const record = () => {
      recorded = journal.record(command, acknowledgedAt).then(
        (id) => {
          if (!done) {
            beating = clock.every(Math.max(20, Math.floor(graceMs / 3)), () => {
              beat = journal.beat(id, command, acknowledgedAt, clock.now()).catch(() => undefined);
            });
          }
          return id;
        },
        (error: unknown) => {
          logger.warn({ team: command.team_id, err: error }, "could not journal a command");
          return undefined;
        },
      );
    };
    let done = false;
    // Most commands are answered well within the delay; only those still working then are written
    // down, which saves two store writes on nearly every command.
    const timer = afterMs > 0 ? clock.after(afterMs, record) : undefined;
    if (!timer) record();
    const run = async () => {
      try {
        await next();
      } finally {
        done = true;
        timer?.cancel();
        const id = await recorded;
        beating?.cancel();
        // A beat still on its way would write the entry back after its removal.
        await beat;
        if (id) await journal.remove(id).catch(() => undefined);
      }
    };
    await inFlight.track(run());
  };
}

export type Recovery = { stop(): void };

/**
 * Answers commands a stopped process acknowledged but never answered: entries older than `graceMs`
 * (no live process is still on them) are claimed, one replica each, and run again through the app as
 * if Slack had just sent them. At start-up, once more after the grace, and with a shared store every
 * JOURNAL_SWEEP_MS (a replica may die at any time). `others`: more of what a stopped process leaves
 * owed (an export's asker), each settled by its own claim, swept at the same times.
 */
export function startRecovery(
  app: App,
  journal: CommandJournal,
  logger: Logger,
  options: { graceMs: number; shared: boolean; others?: Array<() => Promise<void>>; clock?: Clock },
): Recovery {
  const clock = options.clock ?? systemClock;
  const sweep = async () => {
    for (const other of options.others ?? []) void other().catch(() => undefined);
    let claimed: Awaited<ReturnType<CommandJournal["claimStale"]>>;
    try {
      claimed = await journal.claimStale(clock.now(), options.graceMs);
    } catch (error) {
      logger.warn({ err: error }, "could not read the command journal");
      return;
    }
    for (const { id, command } of claimed) {
      logger.info(
        { command: command.command, team: command.team_id, user: command.user_id, journal: id },
        "answering a command a stopped process acknowledged",
      );
      // The run journals the command again under the same id and removes it once answered.
      // Marked as this command's own run, not a copy of it (command-once.ts).
      const run = { body: command, ack: async () => {}, customProperties: { [RECOVERED]: true } };
      void app.processEvent(run).catch((error: unknown) => {
        logger.error({ journal: id, err: error }, "could not answer a journaled command");
      });
    }
  };
  const timers: Timer[] = [];
  void sweep();
  timers.push(clock.after(options.graceMs + 50, () => void sweep()));
  if (options.shared) timers.push(clock.every(JOURNAL_SWEEP_MS, () => void sweep()));
  return {
    stop() {
      for (const timer of timers) timer.cancel();
    },
  };
}
