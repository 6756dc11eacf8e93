import { once } from "node:events";
import type { Server } from "node:http";
import { type App, type CodedError, ErrorCode } from "@slack/bolt";
import {
  type AppDeps,
  oauthApp,
  singleWorkspaceApp,
  socketModeApp,
  tellNotInstalled,
} from "./edge/bolt-apps.js";
import { answerCommandsOnce } from "./edge/command-once.js";
import { httpServerOptions } from "./edge/http-server.js";
import { noteOrgWorkspaces } from "./edge/org-workspaces.js";
import { journalCommands, type Recovery, startRecovery } from "./edge/recovery.js";
import { registerListeners } from "./listeners/index.js";
import { balanceAlertsFor } from "./money-alerts/index.js";
import { PaymethodsPages } from "./paymethods/pages.js";
import { methodSwitchesFor } from "./paymethods/switch.js";
import { registerSteps } from "./steps/index.js";
import { withOneStoreWait } from "./store/deadline.js";
import { CommandJournal } from "./store/journal.js";
import { RateLimiter } from "./store/rate-limit.js";
import { InFlight } from "./util/in-flight.js";

export type { AppDeps } from "./edge/bolt-apps.js";
export {
  BODY_LIMIT_BYTES,
  BOT_SCOPES,
  READY_TIMEOUT_MS,
  SLACK_EVENTS_PATH,
} from "./edge/bolt-apps.js";

import { dateOf, systemClock } from "./util/clock.js";

export type KassaApp = {
  app: App;
  /** Listens on `port` (0: any free port) and resolves to the port in use. */
  start(port: number): Promise<number>;
  /** Stops accepting requests, then waits up to `graceMs` for replies still being worked on. */
  stop(graceMs?: number): Promise<{ drained: boolean; pending: number }>;
};

export function createApp(deps: AppDeps): KassaApp {
  const { config, logger } = deps;
  const slack = config.slack;
  const { app, probeServer } = boltApp(deps);
  answerListenerErrors(app, logger);
  const inFlight = new InFlight();
  const journal = new CommandJournal(
    deps.stores.store.namespace("journal", { durability: "process" }),
    (key, ttlMs) => deps.stores.store.claimOnce(key, ttlMs),
  );
  // Each request waits for a stalled store once: its later store calls then fail at once.
  app.use(({ next }) => withOneStoreWait(next));
  // Before the journal: a replayed command is acknowledged and checked; its handler answers the first only.
  app.use(answerCommandsOnce((key, ttlMs) => deps.stores.store.claimOnce(key, ttlMs), logger));
  const clock = deps.clock ?? systemClock;
  const now = dateOf(clock);
  app.use(journalCommands(journal, logger, inFlight, config.journalAfterMs, config.journalGraceMs, clock));
  if (slack.auth.kind === "oauth") app.use(noteOrgWorkspaces(deps.stores.installations, logger));
  let recovery: Recovery | undefined;
  registerHandlers(app, deps, inFlight, now);

  return {
    app,
    async start(port) {
      // Bolt creates its HTTP server in start(): the time limits on slow clients go in here.
      const started = await app.start(port, httpServerOptions(config.http));
      const server = probeServer ?? (started as Server | undefined);
      if (probeServer) probeServer.listen(port);
      if (server && !server.listening) await once(server, "listening");
      recovery = startRecovery(app, journal, logger, {
        graceMs: config.journalGraceMs,
        shared: deps.stores.store.kind !== "sqlite",
        others: [() => deps.exports.tellLapsed()],
        clock,
      });
      const address = server?.address();
      return typeof address === "object" && address !== null ? address.port : port;
    },
    async stop(graceMs = 10_000) {
      // New requests are refused from here on; replies already acknowledged still go out.
      recovery?.stop();
      await app.stop();
      const drained = await inFlight.drain(graceMs);
      if (probeServer?.listening) await new Promise((resolve) => probeServer?.close(resolve));
      return { drained, pending: inFlight.size };
    },
  };
}

/** The listeners (commands, buttons, forms, events) and the workflow steps, with what they use. */
function registerHandlers(app: App, deps: AppDeps, inFlight: InFlight, now: () => Date): void {
  const { config, logger } = deps;
  const switching = { payments: deps.payments, audit: deps.audit, logger, clock: deps.clock ?? systemClock };
  const claimOnce = (key: string, ttlMs: number) => deps.stores.store.claimOnce(key, ttlMs);
  registerListeners(app, {
    rateLimiter: new RateLimiter(deps.stores.store, config.rateLimits, { timeoutMs: config.store.timeoutMs }),
    inFlight,
    payments: deps.payments,
    paymethodsPages: new PaymethodsPages(),
    stores: deps.stores,
    logger,
    timeoutMs: config.payments.timeoutMs,
    replyVisibility: config.replyVisibility,
    adminUserIds: config.slack.adminUserIds,
    defaultApiVersion: config.payments.apiVersion,
    now,
    watches: deps.watches,
    feeds: deps.feeds,
    exports: deps.exports,
    history: deps.history,
    cancels: deps.cancels,
    digests: deps.digests,
    audit: deps.audit,
    serviceTimeZone: config.payments.timeZone,
    claimOnce,
    callbacks: deps.callbacks?.addresses,
    payoutPolicies: deps.payouts.policies,
    payouts: deps.payouts.deps,
    balanceAlerts: balanceAlertsFor(deps.stores.store, config.store.timeoutMs),
    links: deps.links,
    schedules: deps.schedules,
    methodWatches: deps.methodWatches,
    methodCheckMs: config.methodWatch.checkMs,
    methodSwitches: methodSwitchesFor(deps.stores.store, config.store.timeoutMs, switching),
  });
  registerSteps(app, {
    payments: deps.payments,
    stores: deps.stores,
    watches: deps.watches,
    feeds: deps.feeds,
    audit: deps.audit,
    logger,
    now,
    claimOnce,
    inFlight,
    links: deps.links,
  });
}

/** The Bolt app for this way of running (OAuth, Socket Mode with its probe server, one workspace). */
function boltApp(deps: AppDeps): { app: App; probeServer?: Server | undefined } {
  const slack = deps.config.slack;
  if (slack.auth.kind === "oauth") return { app: oauthApp(deps, slack.auth) };
  if (slack.appToken) return socketModeApp(deps, slack.auth.botToken, slack.appToken);
  return { app: singleWorkspaceApp(deps, slack.auth.botToken) };
}

/** What a listener did not handle: a workspace without an installation is told so; the rest is logged. */
function answerListenerErrors(app: App, logger: AppDeps["logger"]): void {
  app.error(async ({ error, body }: { error: CodedError; body: unknown }) => {
    const payload = body as { team_id?: string; team?: { id?: string }; response_url?: string } | undefined;
    const team = payload?.team_id ?? payload?.team?.id;
    if (error.code === ErrorCode.AuthorizationError) {
      // OAuth mode, no installation for this workspace (never installed, or uninstalled): Bolt has
      // acknowledged and calls no listener; without this the user would get silence.
      logger.warn({ team, outcome: "not_installed" }, "request from a workspace without an installation");
      if (payload?.response_url) await tellNotInstalled(payload.response_url, logger);
      return;
    }
    logger.error({ team, err: error }, "unhandled error in a listener");
  });
}
