import { webApi } from "@slack/bolt";
import type pino from "pino";
import { createApp } from "./app.js";
import { callbackAddresses } from "./callbacks/keys.js";
import { callbackListener } from "./callbacks/receive.js";
import { type Env, loadConfig } from "./config/index.js";
import { openPeriodWork } from "./digests/open.js";
import { openFeed } from "./feed/index.js";
import { PaymentsClient } from "./payments/client.js";
import type { CallPriority } from "./payments/register-queue.js";
import { WorkspacePayments } from "./registers/workspace-payments.js";
import { slackClientOptions } from "./slack/client.js";
import { slackErrorCode } from "./slack/error.js";
import { openStores } from "./store/index.js";
import { reportOtherKeys } from "./store/other-keys.js";
import { createLogger, type Logger } from "./util/logger.js";
import { RefusalSummary } from "./util/refusal-summary.js";
import { slackClients, startWatcher } from "./watch/index.js";

/**
 * Credentials and settings are read on every command; a few seconds in memory saves most of those
 * round trips. Changes made here apply at once; those made by another replica or the CLI within this.
 */
export const STORE_MEMO_MS = 10_000;

/** How long a stopping server lets a live-card pass finish; what it could not do stays owed in the store. */
const WATCHER_CLOSE_GRACE_MS = 3000;

/** How long a stopping server lets acknowledged commands finish and reply. */
export const SHUTDOWN_GRACE_MS = 10_000;

/** A start-up failure whose message is one line an operator can act on. */
export class StartupError extends Error {
  override readonly name = "StartupError";
}

export type RunningServer = {
  port: number;
  logger: Logger;
  /** Stops taking requests, lets replies under way finish (up to SHUTDOWN_GRACE_MS), closes the store. */
  stop(): Promise<void>;
};

export type ServerOptions = {
  /** Where JSON log lines go (stdout by default). */
  logDestination?: pino.DestinationStream;
  /** How long credentials and settings are reused in memory (default STORE_MEMO_MS). */
  storeMemoMs?: number;
  /** Delay before each payments retry; tests shorten it. */
  paymentsRetryDelayMs?: number;
  now?: () => Date;
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
};

/** Everything `npm start` does, from an environment to a listening server. Tests and the demo use it too. */
export async function startServer(env: Env, options: ServerOptions = {}): Promise<RunningServer> {
  const config = loadConfig(env);
  const logger = createLogger(config.logLevel, options.logDestination);

  // One workspace: check the token now, so a wrong one stops start-up instead of every command.
  let bot: { botId: string; botUserId: string } | undefined;
  if (config.slack.auth.kind === "single-workspace") {
    const slack = new webApi.WebClient(config.slack.auth.botToken, slackClientOptions(config.slack));
    try {
      const auth = await slack.auth.test();
      bot = { botId: auth.bot_id ?? "", botUserId: auth.user_id ?? "" };
    } catch (error) {
      const reason = slackErrorCode(error);
      throw new StartupError(
        `could not verify SLACK_BOT_TOKEN with Slack (auth.test at ${config.slack.apiUrl}: ${reason})`,
      );
    }
  }

  const stores = await openStores(config, logger, { memoMs: options.storeMemoMs ?? STORE_MEMO_MS });
  const { store, credentials, cache } = stores;
  const client = new PaymentsClient({
    baseUrl: config.payments.apiUrl,
    defaultVersion: config.payments.apiVersion,
    timeoutMs: config.payments.timeoutMs,
    timeZone: config.payments.timeZone,
    queue: config.payments.perRegister,
    ...(options.paymentsRetryDelayMs === undefined ? {} : { retryDelayMs: options.paymentsRetryDelayMs }),
  });
  // The payment service's callbacks need an address it can reach: PUBLIC_URL, in HTTP mode.
  const addresses =
    config.publicUrl && !config.slack.appToken
      ? callbackAddresses(stores.callbackKeys, config.publicUrl)
      : undefined;
  const payments = new WorkspacePayments(credentials, client, cache, {
    defaultVersion: config.payments.apiVersion,
    methodsTtlMs: config.paymethodsCacheTtlMs,
    balanceTtlMs: config.balanceCacheTtlMs,
    callbackAddress: addresses?.address,
  });
  let watcher: Awaited<ReturnType<typeof startWatcher>>;
  try {
    watcher = await startWatcher(config, stores, payments, logger, {
      ...(options.now ? { now: options.now } : {}),
      ...(options.watchNamespace ? { namespace: options.watchNamespace } : {}),
    });
  } catch (error) {
    client.close();
    await store.close();
    throw new StartupError(`cannot set up live cards in the store: ${(error as Error).message}`);
  }
  let feed: Awaited<ReturnType<typeof openFeed>>;
  try {
    // The feed writes in each workspace's language (its settings; English when unset).
    const reader = {
      history: (team: string, page: number, items: number, priority?: CallPriority) =>
        payments.history(team, page, items, priority),
      invoice: (team: string, id: string) => payments.invoice(team, id),
      methodFor: (team: string, code: string) => payments.methodFor(team, code),
      languageOf: async (team: string) => (await stores.settings.get(team)).language ?? "en",
    };
    feed = await openFeed(config, stores, reader, slackClients(config, stores), logger, {
      ...(options.now ? { now: options.now } : {}),
      ...(options.watchNamespace ? { namespace: options.watchNamespace } : {}),
      ...(options.feedLeaseMs ? { leaseMs: options.feedLeaseMs } : {}),
    });
  } catch (error) {
    await watcher.close();
    client.close();
    await store.close();
    throw new StartupError(`cannot set up payment feeds in the store: ${(error as Error).message}`);
  }
  const { feeds, runner: feedRunner } = feed;
  const refusals = new RefusalSummary(logger, options.refusalSummaryMs);
  const callbacks = addresses && {
    addresses,
    receive: callbackListener({
      keys: stores.callbackKeys,
      saltOf: async (teamId) => (await credentials.get(teamId))?.salt,
      // A hint to look again, never a source of truth: the watcher reads invoice/info itself, within
      // the register's budget, and tells Slack only what that answer says.
      nudge: async (teamId, invoiceId) => {
        try {
          // The feed reads the register's history now too (its announcements stay once-only).
          feedRunner.checkSoon(teamId);
          const watched = await watcher.checkSoon(teamId, invoiceId);
          logger.info(
            { outcome: watched ? "callback_nudged" : "callback_unwatched", teamId, invoice: invoiceId },
            watched ? "live cards of the invoice are read again now" : "no live card watches this invoice",
          );
        } catch (error) {
          logger.warn({ err: error, teamId, invoice: invoiceId }, "could not act on a payment notification");
        }
      },
      logger,
      refusals,
    }),
  };
  // Reports, exports and digests read each register's history through what is kept of it.
  const { history, cancels, exports, digests, digestRunner } = await openPeriodWork(store, {
    payments,
    settings: stores.settings,
    slack: slackClients(config, stores),
    zone: config.payments.timeZone,
    logger,
    now: options.now,
    digestIntervalMs: config.digestIntervalMs,
    leasePrefix: options.watchNamespace,
    readLeaseMs: options.readLeaseMs,
  }).catch(async (error: unknown) => {
    await watcher.close();
    client.close();
    await store.close();
    throw new StartupError(`cannot set up leases in the store: ${(error as Error).message}`);
  });
  const kassa = createApp({
    config,
    logger,
    stores,
    payments,
    watches: watcher,
    feeds,
    exports,
    history,
    cancels,
    digests,
    callbacks,
    refusals,
    bot,
    ...(options.now ? { now: options.now } : {}),
  });
  let port: number;
  try {
    port = await kassa.start(config.port);
  } catch (error) {
    refusals.close();
    await watcher.close();
    client.close();
    await store.close();
    throw new StartupError(`cannot listen on PORT ${config.port}: ${(error as Error).message}`);
  }
  logger.info(
    {
      port,
      mode: config.slack.appToken ? "socket-mode" : config.slack.auth.kind,
      store: store.location,
      paymentsApi: config.payments.apiUrl,
      paymentsApiVersion: config.payments.apiVersion,
    },
    config.slack.appToken ? "Kassa is connected through Socket Mode" : "Kassa is listening on /slack/events",
  );
  await reportOtherKeys(credentials, logger);
  feedRunner.start();
  digestRunner.start();

  return {
    port,
    logger,
    async stop() {
      // Both at once, each bounded, so SIGTERM ends the process within SHUTDOWN_GRACE_MS even while
      // Slack or the store hangs; what the watcher could not finish stays owed in the store.
      const [{ drained, pending }] = await Promise.all([
        kassa.stop(SHUTDOWN_GRACE_MS - 1000),
        watcher.close(WATCHER_CLOSE_GRACE_MS),
        feedRunner.close(WATCHER_CLOSE_GRACE_MS),
        exports.close(WATCHER_CLOSE_GRACE_MS),
        digestRunner.close(WATCHER_CLOSE_GRACE_MS),
      ]);
      if (!drained) logger.warn({ pending }, "stopped with replies still unsent after the grace period");
      refusals.close();
      client.close();
      await store.close();
    },
  };
}
