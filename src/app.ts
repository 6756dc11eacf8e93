import { once } from "node:events";
import { createServer, type Server } from "node:http";
import {
  App,
  type AppOptions,
  type CodedError,
  type CustomRoute,
  ErrorCode,
  HTTPReceiver,
  type HTTPReceiverOptions,
  SocketModeReceiver,
} from "@slack/bolt";
import { notInstalledMessage } from "./blocks/replies.js";
import type { CallbackAddresses } from "./callbacks/keys.js";
import { CALLBACK_PATH_PREFIX } from "./callbacks/receive.js";
import type { Config } from "./config.js";
import type { FeedStore } from "./feed/store.js";
import { InFlight } from "./listeners/in-flight.js";
import { registerListeners } from "./listeners/index.js";
import { boltLogger, type Logger } from "./logger.js";
import { PaymethodsPages } from "./paymethods/pages.js";
import { journalCommands, type Recovery, startRecovery } from "./recovery.js";
import { guardSlackEndpoint } from "./request-guard.js";
import { slackClientOptions } from "./slack-client.js";
import { withStoreDeadline } from "./store/deadline.js";
import type { Stores } from "./store/index.js";
import { CommandJournal } from "./store/journal.js";
import { SingleUseStateStore } from "./store/oauth-state.js";
import { RateLimiter } from "./store/rate-limit.js";
import type { WatchRegistry } from "./watch/watcher.js";
import type { WorkspacePayments } from "./workspace-payments.js";

/** Bolt's default endpoint for commands, interactivity and events (the manifest's URLs end in it). */
export const SLACK_EVENTS_PATH = "/slack/events";

/** /readyz answers within this even when the store stalls (load balancers wait about 2 s). */
export const READY_TIMEOUT_MS = 1500;

/** Larger bodies are refused (413): Slack's own payloads, a modal included, stay far below this. */
export const BODY_LIMIT_BYTES = 1024 * 1024;

/**
 * Bot scopes requested at install: slash commands, users.info to recognise workspace admins, and
 * chat:write (+ .public, to post in public channels Kassa was not invited to) for live cards, and
 * link_shared / chat.unfurl to unfurl payment links.
 */
export const BOT_SCOPES = [
  "commands",
  "users:read",
  "chat:write",
  "chat:write.public",
  "links:read",
  "links:write",
];

export type AppDeps = {
  config: Config;
  logger: Logger;
  stores: Stores;
  payments: WorkspacePayments;
  /** Live cards: where commands register the cards to keep current. */
  watches: WatchRegistry;
  /** Payment feeds: which channels follow each workspace's cash register. */
  feeds: FeedStore;
  /** Bot identity from auth.test (single workspace), so Bolt does not call it again on its own. */
  bot?: { botId: string; botUserId: string } | undefined;
  now?: () => Date;
  /** PUBLIC_URL set, HTTP mode: the workspaces' callback addresses and the route that receives them. */
  callbacks?: { addresses: CallbackAddresses; receive: CustomRoute["handler"] } | undefined;
};

export type KassaApp = {
  app: App;
  /** Listens on `port` (0: any free port) and resolves to the port in use. */
  start(port: number): Promise<number>;
  /** Stops accepting requests, then waits up to `graceMs` for replies still being worked on. */
  stop(graceMs?: number): Promise<{ drained: boolean; pending: number }>;
};

async function tellNotInstalled(responseUrl: string, logger: Logger): Promise<void> {
  try {
    const response = await fetch(responseUrl, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(notInstalledMessage()),
      signal: AbortSignal.timeout(5000),
    });
    if (!response.ok)
      logger.warn({ status: response.status }, "could not answer a workspace without an installation");
  } catch (error) {
    logger.warn({ err: error }, "could not answer a workspace without an installation");
  }
}

function routes(deps: AppDeps): CustomRoute[] {
  return [
    {
      path: "/healthz",
      method: ["GET"],
      handler: (_req, res) => {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({ status: "ok" }));
      },
    },
    {
      // Ready only when the store answers: a load balancer sends no traffic to a replica that cannot.
      path: "/readyz",
      method: ["GET"],
      handler: (_req, res) => {
        withStoreDeadline(deps.stores.store.ping(), READY_TIMEOUT_MS, "ping").then(
          () => {
            res.writeHead(200, { "content-type": "application/json" });
            res.end(JSON.stringify({ status: "ready" }));
          },
          () => {
            res.writeHead(503, { "content-type": "application/json" });
            res.end(JSON.stringify({ status: "store unavailable" }));
          },
        );
      },
    },
  ];
}

/** Options every way of running shares. */
function commonOptions(deps: AppDeps): AppOptions {
  return {
    logger: boltLogger(deps.logger),
    clientOptions: slackClientOptions(deps.config.slack),
    // Several replicas: no in-memory conversation state.
    convoStore: false,
    // Long-running server: ack() answers Slack at once, the handler goes on afterwards.
    processBeforeResponse: false,
    // The error handler gets the request body too (to answer a workspace that is not installed).
    extendedErrorHandler: true,
  };
}

/** The HTTP receiver both HTTP ways share: signature check, the screen before Bolt, probes, body limit. */
function httpReceiver(deps: AppDeps, extra: Partial<HTTPReceiverOptions> = {}): HTTPReceiver {
  const receiver = new HTTPReceiver({
    signingSecret: deps.config.slack.signingSecret ?? "",
    // The payment service's callbacks: not from Slack, so Bolt's signature check does not apply;
    // the route checks its own (sha1 of id and Secret 2) before anything else.
    customRoutes: deps.callbacks
      ? [
          ...routes(deps),
          { path: `${CALLBACK_PATH_PREFIX}:key`, method: ["POST"], handler: deps.callbacks.receive },
        ]
      : routes(deps),
    logger: boltLogger(deps.logger),
    bodyLimit: BODY_LIMIT_BYTES,
    ...extra,
  });
  guardSlackEndpoint(receiver, { path: SLACK_EVENTS_PATH, bodyLimit: BODY_LIMIT_BYTES, logger: deps.logger });
  return receiver;
}

/** The bot identity from auth.test, so Bolt does not call it again on its own. */
function botIdentity(deps: AppDeps): Partial<AppOptions> {
  return deps.bot ? { botId: deps.bot.botId, botUserId: deps.bot.botUserId } : {};
}

/** One workspace over HTTP: SLACK_BOT_TOKEN. */
function singleWorkspaceApp(deps: AppDeps, botToken: string): App {
  return new App({
    ...commonOptions(deps),
    token: botToken,
    ...botIdentity(deps),
    receiver: httpReceiver(deps),
  });
}

/**
 * Many workspaces over HTTP: the receiver carries the OAuth installer (install pages, single-use
 * state, installation store) and Bolt authorises each request with the installation it finds there.
 */
function oauthApp(deps: AppDeps, auth: Extract<AppDeps["config"]["slack"]["auth"], { kind: "oauth" }>): App {
  const slack = deps.config.slack;
  return new App({
    ...commonOptions(deps),
    receiver: httpReceiver(deps, {
      clientId: auth.clientId,
      clientSecret: auth.clientSecret,
      stateSecret: auth.stateSecret,
      scopes: BOT_SCOPES,
      installationStore: deps.stores.installations,
      // The installer's own Web API client (oauth.v2.access) must use SLACK_API_URL too.
      installerOptions: {
        directInstall: false,
        stateVerification: true,
        stateStore: new SingleUseStateStore(auth.stateSecret, (key, ttlMs) =>
          deps.stores.store.claimOnce(key, ttlMs),
        ),
        clientOptions: slackClientOptions(slack),
      },
    }),
  });
}

/**
 * Socket Mode: events arrive over a WebSocket. Nothing comes over HTTP, but operators still probe
 * /healthz and /readyz, so a small server of its own answers those.
 */
function socketModeApp(deps: AppDeps, botToken: string, appToken: string): { app: App; probeServer: Server } {
  const receiver = new SocketModeReceiver({
    appToken,
    logger: boltLogger(deps.logger),
    installerOptions: { clientOptions: slackClientOptions(deps.config.slack) },
  });
  const probes = routes(deps);
  const probeServer = createServer((req, res) => {
    const route = probes.find((entry) => entry.path === new URL(req.url ?? "/", "http://probe").pathname);
    if (route && req.method === "GET") return void route.handler(Object.assign(req, { params: {} }), res);
    res.writeHead(404).end();
  });
  const app = new App({ ...commonOptions(deps), token: botToken, ...botIdentity(deps), receiver });
  return { app, probeServer };
}

/**
 * Builds the Bolt app from its dependencies, in one of three ways: one workspace (bot token, HTTP),
 * many workspaces (OAuth install pages, installations in the store, HTTP), or Socket Mode.
 */
export function createApp(deps: AppDeps): KassaApp {
  const { config, logger } = deps;
  const slack = config.slack;
  let probeServer: Server | undefined;
  let app: App;
  if (slack.auth.kind === "oauth") {
    app = oauthApp(deps, slack.auth);
  } else if (slack.appToken) {
    ({ app, probeServer } = socketModeApp(deps, slack.auth.botToken, slack.appToken));
  } else {
    app = singleWorkspaceApp(deps, slack.auth.botToken);
  }
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
  const inFlight = new InFlight();
  const journal = new CommandJournal(
    deps.stores.store.namespace("journal", { durability: "process" }),
    (key, ttlMs) => deps.stores.store.claimOnce(key, ttlMs),
  );
  app.use(journalCommands(journal, logger, inFlight, config.journalAfterMs));
  let recovery: Recovery | undefined;
  registerListeners(app, {
    rateLimiter: new RateLimiter(
      deps.stores.store.kind === "sqlite" ? undefined : deps.stores.store.namespace("rate"),
      config.rateLimits,
    ),
    inFlight,
    payments: deps.payments,
    paymethodsPages: new PaymethodsPages(),
    stores: deps.stores,
    logger,
    timeoutMs: config.payments.timeoutMs,
    replyVisibility: config.replyVisibility,
    adminUserIds: slack.adminUserIds,
    defaultApiVersion: config.payments.apiVersion,
    now: deps.now ?? (() => new Date()),
    watches: deps.watches,
    feeds: deps.feeds,
    serviceTimeZone: config.payments.timeZone,
    claimOnce: (key, ttlMs) => deps.stores.store.claimOnce(key, ttlMs),
    callbacks: deps.callbacks?.addresses,
  });

  return {
    app,
    async start(port) {
      const started = await app.start(port);
      const server = probeServer ?? (started as Server | undefined);
      if (probeServer) probeServer.listen(port);
      if (server && !server.listening) await once(server, "listening");
      recovery = startRecovery(app, journal, logger, {
        graceMs: config.journalGraceMs,
        shared: deps.stores.store.kind !== "sqlite",
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
