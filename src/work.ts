import type { AppDeps } from "./app.js";
import { callbackAddresses } from "./callbacks/keys.js";
import { callbackListener, nudgeLiveWork } from "./callbacks/receive.js";
import type { Config } from "./config/index.js";
import { openPeriodWork } from "./digests/open.js";
import type { DigestRunner } from "./digests/runner.js";
import { openRecords, payoutNudge, type Records } from "./edge/open-records.js";
import { paymentsClient, starting } from "./edge/start-steps.js";
import { type FeedRunner, feedReaderOf, openFeed } from "./feed/index.js";
import { openSchedules, type ScheduleRunner } from "./link-schedules/index.js";
import { type LinkRunner, linkBookFor, openLinks } from "./links/index.js";
import { replacementOf } from "./links/replaced.js";
import { paidRefunds } from "./payouts/refund-record.js";
import { WorkspacePayments } from "./registers/workspace-payments.js";
import type { Stores } from "./store/index.js";
import type { Closers } from "./util/closers.js";
import type { Logger } from "./util/logger.js";
import { RefusalSummary } from "./util/refusal-summary.js";
import { slackClients, startWatcher } from "./watch/index.js";
import type { Watcher } from "./watch/watcher.js";

/** What of ServerOptions the work reads (server.ts says what each is). */
type WorkOptions = Parameters<typeof openRecords>[5] & {
  paymentsRetryDelayMs?: number | undefined;
  feedLeaseMs?: number | undefined;
  readLeaseMs?: number | undefined;
  refusalSummaryMs?: number | undefined;
};

export type OpenedWork = {
  work: Omit<AppDeps, "config" | "logger" | "stores" | "bot" | "clock" | "watches" | "methodWatches"> & {
    watches: Watcher;
  };
  feedRunner: FeedRunner;
  digestRunner: DigestRunner;
  records: Records;
  /** The payment links' pass: lost answers' invoices looked for by their marker (issue 51). */
  linkRunner: LinkRunner;
  /** The repeating invoices' pass: each due run made once across replicas (issue 51). */
  scheduleRunner: ScheduleRunner;
};

/**
 * What the app is given besides the store: the payment service's client, the live cards, the feed,
 * the callbacks and the period work; each pushes its close on `closers` as it starts.
 */
export async function openWork(
  config: Config,
  stores: Stores,
  logger: Logger,
  closers: Closers,
  options: WorkOptions,
): Promise<OpenedWork> {
  const client = paymentsClient(config, options);
  closers.push(() => client.close());
  // The payment service's callbacks need an address it can reach: PUBLIC_URL, in HTTP mode.
  const addresses =
    config.publicUrl && !config.slack.appToken
      ? callbackAddresses(stores.callbackKeys, config.publicUrl)
      : undefined;
  const payments = new WorkspacePayments(stores.credentials, client, stores.cache, {
    defaultVersion: config.payments.apiVersion,
    methodsTtlMs: config.paymethodsCacheTtlMs,
    balanceTtlMs: config.balanceCacheTtlMs,
    callbackAddress: addresses?.address,
  });
  const { watcher, feeds, feedRunner, book } = await openLiveWork(
    config,
    stores,
    payments,
    logger,
    closers,
    options,
  );
  const records = await openRecords(config, stores, client, logger, closers, options);
  const refusals = new RefusalSummary(logger, options.refusalSummaryMs);
  closers.push(() => refusals.close());
  const callbacks = addresses && {
    addresses,
    receive: callbackReceiver(stores, logger, refusals, {
      nudge: nudgeLiveWork(feedRunner, watcher, logger),
      nudgePayout: payoutNudge(records.payouts.deps, logger, () => new Date(options.clock.now())),
    }),
  };
  const { history, cancels, exports, digests, digestRunner } = await periodWork(
    config,
    stores,
    { payments, refunds: (registerKey) => paidRefunds(records.payouts.deps, registerKey) },
    logger,
    closers,
    options,
  );
  const { book: links, runner: linkRunner } = openLinks(
    config,
    stores,
    { payments, watches: watcher, feeds, audit: records.audit, logger },
    { prefix: options.watchNamespace, clock: options.clock, book },
  );
  const { book: schedules, runner: scheduleRunner } = openSchedules(
    config,
    stores,
    { payments, watches: watcher, feeds, audit: records.audit, logger, links },
    { prefix: options.watchNamespace, clock: options.clock },
  );
  const work = {
    payments,
    watches: watcher,
    feeds,
    exports,
    history,
    cancels,
    digests,
    callbacks,
    refusals,
    links,
    schedules,
  };
  return {
    work: { ...work, audit: records.audit, payouts: records.payouts },
    feedRunner,
    digestRunner,
    records,
    linkRunner,
    scheduleRunner,
  };
}

/** The payment service's callbacks: checked against the workspace's salt, then the live work nudged. */
function callbackReceiver(
  stores: Stores,
  logger: Logger,
  refusals: RefusalSummary,
  nudges: Pick<Parameters<typeof callbackListener>[0], "nudge" | "nudgePayout">,
) {
  return callbackListener({
    keys: stores.callbackKeys,
    saltOf: async (teamId) => (await stores.credentials.get(teamId))?.salt,
    ...nudges,
    logger,
    refusals,
  });
}

/**
 * The live cards' watcher and the payment feeds: what follows invoices as they change; and the links'
 * records (issue 51), opened here so a re-issued link's card keeps "Replaced by" when the watcher
 * redraws it (the links' pass shares the book).
 */
async function openLiveWork(
  config: Config,
  stores: Stores,
  payments: WorkspacePayments,
  logger: Logger,
  closers: Closers,
  options: WorkOptions,
) {
  const namespace = options.watchNamespace ? { namespace: options.watchNamespace } : {};
  const book = linkBookFor(stores.store, {
    prefix: options.watchNamespace,
    timeoutMs: config.store.timeoutMs,
    now: () => options.clock.now(),
  });
  const replaced = { links: book, logger };
  const watcher = await starting(closers, "cannot set up live cards in the store", () =>
    startWatcher(config, stores, payments, logger, {
      clock: options.clock,
      ...namespace,
      replacementOf: (registerKey, invoice) => replacementOf(replaced, registerKey, invoice),
    }),
  );
  closers.job((graceMs) => watcher.close(graceMs));
  const { feeds, runner: feedRunner } = await starting(
    closers,
    "cannot set up payment feeds in the store",
    () =>
      openFeed(
        config,
        stores,
        feedReaderOf(payments, stores.settings),
        slackClients(config, stores),
        logger,
        {
          clock: options.clock,
          ...namespace,
          ...(options.feedLeaseMs ? { leaseMs: options.feedLeaseMs } : {}),
        },
      ),
  );
  return { watcher, feeds, feedRunner, book };
}

/** Reports, exports and digests: they read each register's history through what is kept of it. */
function periodWork(
  config: Config,
  stores: Stores,
  read: Pick<Parameters<typeof openPeriodWork>[1], "payments" | "refunds">,
  logger: Logger,
  closers: Closers,
  options: WorkOptions,
) {
  return starting(closers, "cannot set up leases in the store", () =>
    openPeriodWork(stores.store, {
      ...read,
      settings: stores.settings,
      slack: slackClients(config, stores),
      registers: stores.registers,
      zone: config.payments.timeZone,
      logger,
      clock: options.clock,
      digestIntervalMs: config.digestIntervalMs,
      storeTimeoutMs: config.store.timeoutMs,
      leasePrefix: options.watchNamespace,
      readLeaseMs: options.readLeaseMs,
    }),
  );
}
