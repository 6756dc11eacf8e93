import type pino from "pino";
import { createApp } from "./app.js";
import { type Env, loadConfig } from "./config/index.js";
import {
  type BackgroundPasses,
  logListening,
  StartupError,
  starting,
  verifyBotToken,
} from "./edge/start-steps.js";
import { methodWatchesFor, openMethodWatch } from "./method-watch/index.js";
import { openMoneyAlerts } from "./money-alerts/index.js";
import type { PayoutTiming } from "./payouts/request-deps.js";
import { openStores } from "./store/index.js";
import { reportOtherKeys } from "./store/other-keys.js";
import { type Clock, systemClock } from "./util/clock.js";
import { Closers } from "./util/closers.js";
import { createLogger, type Logger } from "./util/logger.js";
import { slackClients } from "./watch/index.js";
import { type OpenedWork, openWork } from "./work.js";

/**
 * Credentials and settings are read on every command; a few seconds in memory saves most of those
 * round trips. Changes made here apply at once; those made by another replica or the CLI within this.
 */
export const STORE_MEMO_MS = 10_000;

/** How long a stopping server lets a live-card pass finish; what it could not do stays owed in the store. */
const WATCHER_CLOSE_GRACE_MS = 3000;

/** How long a stopping server lets acknowledged commands finish and reply. */
export const SHUTDOWN_GRACE_MS = 10_000;

export { type BackgroundPasses, StartupError };

export type RunningServer = {
  port: number;
  logger: Logger;
  /** Stops taking requests, lets replies under way finish (up to SHUTDOWN_GRACE_MS), closes the store. */
  stop(): Promise<void>;
  /** A pass of each background job on demand: how tests drive them without waiting for an interval. */
  passes: BackgroundPasses;
};

export type ServerOptions = {
  /** Where JSON log lines go (stdout by default). */
  logDestination?: pino.DestinationStream;
  /** How long credentials and settings are reused in memory (default STORE_MEMO_MS). */
  storeMemoMs?: number;
  /** Delay before each payments retry; tests shorten it. */
  paymentsRetryDelayMs?: number;
  /**
   * Where the background work takes its time and timers (the system's clock by default); tests give
   * one they move, and the app's own `now` reads it too.
   */
  clock?: Clock;
  /** Where live cards and feed turns live (key prefix / table prefix); tests give each run its own. */
  watchNamespace?: string;
  /** The feed's lease on a workspace (default 10 s); tests shorten it to see a takeover quickly. */
  feedLeaseMs?: number;
  /**
   * The leases of long reads, an export's and a register's history refresh (defaults 60 s and 30 s);
   * tests shorten them to see a dead replica's export lapse in seconds.
   */
  readLeaseMs?: number;
  /** How often refused requests are summed up in the log (default a minute); tests shorten it. */
  refusalSummaryMs?: number;
  /** The payout worker's timing (src/payouts/request-deps.ts); tests shorten the follow-ups. */
  payoutTiming?: Partial<PayoutTiming>;
};

/** Everything `npm start` does, from an environment to a listening server. Tests and the demo use it too. */
export async function startServer(env: Env, options: ServerOptions = {}): Promise<RunningServer> {
  const config = loadConfig(env);
  const clock = options.clock ?? systemClock;
  const logger = createLogger(config.logLevel, options.logDestination);
  const bot = await verifyBotToken(config);
  const stores = await openStores(config, logger, { memoMs: options.storeMemoMs ?? STORE_MEMO_MS });
  const { store, credentials } = stores;
  // What has started so far; a failed step closes it all before saying why.
  const closers = new Closers();
  closers.push(() => store.close());
  const opened = await openWork(config, stores, logger, closers, {
    ...options,
    clock,
  });
  const { work } = opened;
  // Balance alerts and payouts made outside Kassa, checked on the claim board once across replicas.
  const moneyAlerts = await starting(closers, "cannot set up the money alerts in the store", () =>
    openMoneyAlerts(config, stores, work.payments, slackClients(config, stores), work.audit, logger, {
      clock,
    }),
  );
  // The payment methods watch: failing or silent methods and changes made outside, once across replicas.
  const methodWatch = await starting(closers, "cannot set up the payment methods watch in the store", () =>
    openMethodWatch(
      config,
      stores,
      work.payments,
      work.history,
      slackClients(config, stores),
      work.audit,
      logger,
      { clock, prefix: options.watchNamespace },
    ),
  );
  const kassa = createApp({
    config,
    logger,
    stores,
    ...work,
    bot,
    clock,
    methodWatches: methodWatchesFor(store, config.store.timeoutMs, options.watchNamespace),
  });
  const port = await starting(closers, `cannot listen on PORT ${config.port}`, () =>
    kassa.start(config.port),
  );
  // Stopping lets replies under way finish; SIGTERM still ends the process within SHUTDOWN_GRACE_MS
  // while Slack or the store hangs, and what the jobs could not finish stays owed in the store.
  closers.job(async () => {
    const { drained, pending } = await kassa.stop(SHUTDOWN_GRACE_MS - 1000);
    if (!drained) logger.warn({ pending }, "stopped with replies still unsent after the grace period");
  });
  logListening(logger, config, port, store.location);
  await reportOtherKeys(credentials, logger);
  const passes = startJobs(opened, { moneyAlerts, methodWatch }, closers);
  return { port, logger, stop: () => closers.closeAll(WATCHER_CLOSE_GRACE_MS), passes };
}

/**
 * The background jobs started, each with one closers.job line after it (jobs stop together within
 * their grace); each offers a pass on demand.
 */
function startJobs(
  { work, feedRunner, digestRunner, records, linkRunner, scheduleRunner }: OpenedWork,
  alerts: {
    moneyAlerts: Awaited<ReturnType<typeof openMoneyAlerts>>;
    methodWatch: Awaited<ReturnType<typeof openMethodWatch>>;
  },
  closers: Closers,
): BackgroundPasses {
  feedRunner.start();
  closers.job((graceMs) => feedRunner.close(graceMs));
  closers.job((graceMs) => work.exports.close(graceMs ?? 0));
  const { auditDay, auditOwed } = records;
  const { moneyAlerts, methodWatch } = alerts;
  const runners = [
    digestRunner,
    work.payouts.runner,
    moneyAlerts,
    methodWatch,
    auditDay,
    auditOwed,
    linkRunner,
    scheduleRunner,
  ];
  for (const runner of runners) {
    runner.start();
    closers.job((graceMs) => runner.close(graceMs));
  }
  return {
    feed: () => feedRunner.passNow(),
    liveCards: () => work.watches.passNow(),
    digests: () => digestRunner.passNow(),
    payouts: () => work.payouts.runner.passNow(),
    moneyAlerts: () => moneyAlerts.passNow(),
    methodWatch: () => methodWatch.passNow(),
    auditDay: () => auditDay.passNow(),
    auditOwed: () => auditOwed.passNow(),
    links: () => linkRunner.passNow(),
    schedules: () => scheduleRunner.passNow(),
  };
}
