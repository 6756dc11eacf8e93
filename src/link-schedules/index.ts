import type { AuditRecorder } from "../audit/index.js";
import type { Config } from "../config/index.js";
import type { InvoiceDeps } from "../invoices/deps.js";
import type { LinkBook } from "../links/book.js";
import { boardOnFirstUse } from "../store/claims/family.js";
import { openClaimBoard } from "../store/claims/index.js";
import type { Stores } from "../store/index.js";
import { DEFAULT_PREFIX } from "../store/schema/names.js";
import type { Clock } from "../util/clock.js";
import { slackClients } from "../watch/index.js";
import { ScheduleBook } from "./book.js";
import { ScheduleRunner } from "./pass.js";

export { ScheduleBook, type ScheduleDraft, TooManySchedulesError } from "./book.js";
export { MAX_SCHEDULES, type Schedule } from "./model.js";
export { ScheduleRunner } from "./pass.js";
export { ruleWith } from "./when.js";

/** The schedules' book on the store's claim board (opened at first use), on the server's clock. */
export function scheduleBookFor(
  store: Pick<Stores["store"], "native">,
  options: { prefix?: string | undefined; timeoutMs: number; now: () => number },
): ScheduleBook {
  const open = boardOnFirstUse(() =>
    openClaimBoard(store, options.prefix ?? DEFAULT_PREFIX, options.timeoutMs),
  );
  return new ScheduleBook(open, options.now);
}

/**
 * The repeating invoices (issue 51): their book on the store's claim board (opened at first use) and
 * their pass (opened, not started), on the server's clock; runs make links through the links' book.
 */
export function openSchedules(
  config: Config,
  stores: Stores,
  work: Pick<InvoiceDeps, "payments" | "watches" | "feeds" | "logger"> & {
    audit: AuditRecorder;
    links: LinkBook;
  },
  options: { prefix?: string | undefined; clock: Clock },
): { book: ScheduleBook; runner: ScheduleRunner } {
  const { clock } = options;
  const book = scheduleBookFor(stores.store, {
    prefix: options.prefix,
    timeoutMs: config.store.timeoutMs,
    now: () => clock.now(),
  });
  const runner = new ScheduleRunner(
    {
      ...work,
      stores,
      book,
      now: () => new Date(clock.now()),
      slack: slackClients(config, stores),
      checkMs: config.linksCheckMs,
    },
    clock,
  );
  return { book, runner };
}
