import { webApi } from "@slack/bolt";
import type { Config } from "../config/index.js";
import { DEFAULT_LANG } from "../i18n/lang.js";
import { payoutsOn } from "../payouts/policy.js";
import { payoutPoliciesFor } from "../payouts/policy-store.js";
import { slackClientOptions } from "../slack/client.js";
import { openClaimBoard } from "../store/claims/index.js";
import type { Stores } from "../store/index.js";
import { DEFAULT_PREFIX } from "../store/schema/names.js";
import type { Clock } from "../util/clock.js";
import type { Logger } from "../util/logger.js";
import { BoardWatchQueue } from "./board-queue.js";
import type { WatchQueue } from "./model.js";
import type { InvoiceReader, SlackClients } from "./registry.js";
import { Watcher } from "./watcher.js";

export type { WatchRegistry } from "./registry.js";
export { Watcher } from "./watcher.js";

/**
 * A claimed watch is left alone this long. The watcher renews it every third of that while it works
 * (lease-renewal.ts), so it need not outlast a slow read: a replica killed with kill -9 holds its
 * watches up for seconds only.
 */
const LEASE_MS = 10_000;

/**
 * The queue on the store's claim board (every engine), under `namespace` (tests give each run its
 * own). Its calls are left unbounded here: the registry bounds each step but tell (timed-queue.ts).
 */
async function openQueue(stores: Stores, namespace: string | undefined, logger: Logger): Promise<WatchQueue> {
  const board = await openClaimBoard(stores.store, namespace ?? DEFAULT_PREFIX, Number.POSITIVE_INFINITY);
  return new BoardWatchQueue(board, (dropped) =>
    logger.warn({ dropped }, "dropped stored watches that could not be read"),
  );
}

/**
 * Web API clients with each workspace's bot token: SLACK_BOT_TOKEN for one workspace, the stored
 * installation's token with OAuth: the workspace's own, or its Enterprise Grid org's org-wide one
 * (then every call names the workspace, team_id, as Slack asks of org tokens). The live cards, the
 * feed and its digests all get their clients here. Clients are kept per token and workspace (a
 * rotated token gets a new one).
 */
export function slackClients(config: Config, stores: Pick<Stores, "installations">): SlackClients {
  const clients = new Map<string, webApi.WebClient>();
  const clientFor = (token: string, teamId?: string) => {
    const key = teamId ? `${token} ${teamId}` : token;
    let client = clients.get(key);
    if (!client) {
      if (clients.size >= 1000) clients.clear();
      client = new webApi.WebClient(token, {
        ...slackClientOptions(config.slack),
        ...(teamId ? { teamId } : {}),
      });
      clients.set(key, client);
    }
    return client;
  };
  const auth = config.slack.auth;
  if (auth.kind === "single-workspace") return async () => clientFor(auth.botToken);
  return async (teamId) => {
    const found = await stores.installations.forWorkspace(teamId);
    const token = found?.installation.bot?.token;
    if (!token) return undefined;
    return found.orgWide ? clientFor(token, teamId) : clientFor(token);
  };
}

/** The watcher for this store, started; `close()` it before the store. */
export async function startWatcher(
  config: Config,
  stores: Stores,
  reader: InvoiceReader,
  logger: Logger,
  options: { clock?: Clock; namespace?: string; replacementOf?: InvoiceReader["replacementOf"] } = {},
): Promise<Watcher> {
  const queue = await openQueue(stores, options.namespace, logger);
  // The payout policies (read, never written here): a paid card offers Refund where payouts are on.
  const policies = payoutPoliciesFor(stores.store, config.store.timeoutMs);
  // The watcher writes each workspace's cards in its language (a setting; English when unset).
  const workspaces: InvoiceReader = {
    invoice: (team, id) => reader.invoice(team, id),
    methodFor: (team, code) => reader.methodFor(team, code),
    languageOf: async (team) => (await stores.settings.get(team)).language ?? DEFAULT_LANG,
    refundOffered: async (registerKey) => payoutsOn(await policies.get(registerKey)),
    // What replaced a re-issued link's invoice: the links' records, handed in (the watch never imports them).
    ...(options.replacementOf ? { replacementOf: options.replacementOf } : {}),
  };
  const watcher = new Watcher(
    queue,
    workspaces,
    slackClients(config, stores),
    { ...config.watch, leaseMs: LEASE_MS, storeTimeoutMs: config.store.timeoutMs },
    logger,
    options.clock,
  );
  watcher.start();
  logger.info({ watchQueue: stores.store.kind }, "watching invoices of live cards");
  return watcher;
}
