import type { Config } from "../config/index.js";
import { openClaimBoard } from "../store/claims/index.js";
import type { Stores } from "../store/index.js";
import { registerOfKey } from "../store/registers.js";
import { DEFAULT_PREFIX } from "../store/schema/names.js";
import type { Clock } from "../util/clock.js";
import type { Logger } from "../util/logger.js";
import type { FeedReader, FeedRunnerDeps } from "./deps.js";
import { openFeedLedger } from "./ledger.js";
import { FeedRunner } from "./runner.js";
import { FeedStore } from "./store.js";

export { FeedRunner } from "./runner.js";
export { FeedStore } from "./store.js";

/**
 * The feed's store (subscriptions and live cards in Keyv, turns and channel states in the ledger on
 * the store engine's own primitives) and its runner, not yet started. `namespace`: where the
 * ledger's tables or keys live (tests give each run its own).
 */
export async function openFeed(
  config: Config,
  stores: Stores,
  reader: FeedReader,
  slack: FeedRunnerDeps["slack"],
  logger: Logger,
  options: { clock?: Clock; namespace?: string; leaseMs?: number } = {},
): Promise<{ feeds: FeedStore; runner: FeedRunner }> {
  const { store } = stores;
  const ledger = await openFeedLedger(store, options.namespace, config.store.timeoutMs);
  const feeds = new FeedStore(store.namespace("feedsubs"), ledger, store.namespace("feedcards"), () =>
    openClaimBoard(store, options.namespace ?? DEFAULT_PREFIX, config.store.timeoutMs),
  );
  const runner = new FeedRunner(
    {
      feeds,
      ledger,
      reader,
      // Each register's feed is a turn of its own (one register's failing key never holds up another's);
      // Slack is its workspace's.
      slack: (key) => slack(registerOfKey(key).team),
      registers: (key) => stores.registers.shown(key),
      logger,
      ...(options.clock ? { clock: options.clock } : {}),
    },
    {
      intervalMs: config.feedIntervalMs,
      concurrency: config.feedConcurrency,
      ...(options.leaseMs ? { leaseMs: options.leaseMs } : {}),
    },
  );
  return { feeds, runner };
}

/** What the feed reads: each register's (by its key), and its workspace's language (its settings; English when unset). */
export function feedReaderOf(
  payments: Pick<FeedReader, "history" | "invoice" | "methodFor">,
  settings: Stores["settings"],
): FeedReader {
  return {
    history: (team, page, items, priority) => payments.history(team, page, items, priority),
    invoice: (team, id) => payments.invoice(team, id),
    methodFor: (team, code) => payments.methodFor(team, code),
    languageOf: async (key) => (await settings.get(registerOfKey(key).team)).language ?? "en",
  };
}
