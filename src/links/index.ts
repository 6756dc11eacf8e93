import type { AuditRecorder } from "../audit/index.js";
import type { Config } from "../config/index.js";
import type { InvoiceDeps } from "../invoices/deps.js";
import { boardOnFirstUse } from "../store/claims/family.js";
import { openClaimBoard } from "../store/claims/index.js";
import type { Stores } from "../store/index.js";
import type { KeyvStore } from "../store/keyv.js";
import { DEFAULT_PREFIX } from "../store/schema/names.js";
import type { Clock } from "../util/clock.js";
import { slackClients } from "../watch/index.js";
import { LinkBook } from "./book.js";
import { remindGraceFor } from "./next-look.js";
import { LinkRunner } from "./pass.js";

export { LinkBook } from "./book.js";
export { LinkRunner } from "./pass.js";

/** The links' records on the store's claim board (opened at first use), on the server's clock. */
export function linkBookFor(
  store: Pick<KeyvStore, "native">,
  options: { prefix?: string | undefined; timeoutMs: number; now: () => number },
): LinkBook {
  const open = boardOnFirstUse(() =>
    openClaimBoard(store, options.prefix ?? DEFAULT_PREFIX, options.timeoutMs),
  );
  return new LinkBook(open, options.now);
}

/**
 * The links' records and their pass (opened, not started), on the store's claim board and the
 * server's clock (or on the `book` given, shared with the live cards); the pass tells creators
 * through the workspaces' Slack clients.
 */
export function openLinks(
  config: Config,
  stores: Stores,
  work: Pick<InvoiceDeps, "payments" | "watches" | "feeds" | "logger"> & { audit: AuditRecorder },
  options: { prefix?: string | undefined; clock: Clock; book?: LinkBook },
): { book: LinkBook; runner: LinkRunner } {
  const { clock } = options;
  const book =
    options.book ??
    linkBookFor(stores.store, {
      prefix: options.prefix,
      timeoutMs: config.store.timeoutMs,
      now: () => clock.now(),
    });
  const runner = new LinkRunner(
    {
      ...work,
      stores,
      book,
      now: () => new Date(clock.now()),
      slack: slackClients(config, stores),
      zone: config.payments.timeZone,
      checkMs: config.linksCheckMs,
      remindGraceMs: remindGraceFor(config.slack.timeoutMs),
    },
    clock,
  );
  return { book, runner };
}
