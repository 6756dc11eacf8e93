import { createServer, type Server } from "node:http";
import {
  App,
  type AppOptions,
  type CustomRoute,
  HTTPReceiver,
  type HTTPReceiverOptions,
  SocketModeReceiver,
} from "@slack/bolt";
import type { AuditLog } from "../audit/index.js";
import { notInstalledMessage } from "../blocks/replies.js";
import type { CallbackAddresses } from "../callbacks/keys.js";
import { CALLBACK_PATH_PREFIX } from "../callbacks/receive.js";
import type { Config } from "../config/index.js";
import type { DigestStore } from "../digests/store.js";
import type { ExportJobs } from "../exports/jobs.js";
import type { FeedStore } from "../feed/store.js";
import type { KeptHistory } from "../history/kept.js";
import type { ScheduleBook } from "../link-schedules/book.js";
import type { LinkBook } from "../links/book.js";
import type { MethodWatches } from "../method-watch/index.js";
import type { PayoutWork } from "../payouts/runner.js";
import type { WorkspacePayments } from "../registers/workspace-payments.js";
import { slackClientOptions } from "../slack/client.js";
import type { CancelMarks } from "../store/cancels.js";
import { withStoreDeadline } from "../store/deadline.js";
import type { Stores } from "../store/index.js";
import { SingleUseStateStore } from "../store/oauth-state.js";
import type { Clock } from "../util/clock.js";
import { boltLogger, type Logger } from "../util/logger.js";
import type { RefusalSummary } from "../util/refusal-summary.js";
import type { WatchRegistry } from "../watch/registry.js";
import { dispatchErrorHandler, httpServerOptions } from "./http-server.js";
import { guardSlackEndpoint } from "./request-guard.js";

/** Bolt's default endpoint for commands, interactivity and events (the manifest's URLs end in it). */
export const SLACK_EVENTS_PATH = "/slack/events";

/** /readyz answers within this even when the store stalls (load balancers wait about 2 s). */
export const READY_TIMEOUT_MS = 1500;

/** Larger bodies are refused (413): Slack's own payloads, a modal included, stay far below this. */
export const BODY_LIMIT_BYTES = 1024 * 1024;

/**
 * Bot scopes requested at install: slash commands, users.info to recognise workspace admins, and
 * chat:write (+ .public, to post in public channels Kassa was not invited to) for live cards, and
 * link_shared / chat.unfurl to unfurl payment links; files:write and im:write to send exports and
 * charts (files.uploadV2) into the asker's messages with Kassa (conversations.open).
 */
export const BOT_SCOPES = [
  "commands",
  "users:read",
  "chat:write",
  "chat:write.public",
  "links:read",
  "links:write",
  "files:write",
  "im:write",
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
  /** Exports under way (one per workspace). */
  exports: ExportJobs;
  /** Each register's kept history, which reports and exports read. */
  history: KeptHistory;
  /** Cancel presses on long reads, shared by the replicas. */
  cancels: CancelMarks;
  /** The weekly and monthly digests. */
  digests: DigestStore;
  /** The audit trail: every act done through Kassa, hash-chained per workspace. */
  audit: AuditLog;
  /** Payout requests: their board, the policies, and the worker that sends and follows them. */
  payouts: PayoutWork;
  /** The payment links' records (issue 51); their pass runs apart from the app. */
  links: LinkBook;
  schedules: ScheduleBook;
  /** Each register's payment methods watch, on the board its runner checks (server.ts opens both). */
  methodWatches: MethodWatches;
  /** Bot identity from auth.test (single workspace), so Bolt does not call it again on its own. */
  bot?: { botId: string; botUserId: string } | undefined;
  /** The time and timers of the app's background work (the system's clock by default). */
  clock?: Clock;
  /** PUBLIC_URL set, HTTP mode: the workspaces' callback addresses and the route that receives them. */
  callbacks?: { addresses: CallbackAddresses; receive: CustomRoute["handler"] } | undefined;
  /** Requests refused at the edge (bad callbacks, unknown or malformed paths): counted, summed up in the log. */
  refusals: Pick<RefusalSummary, "count">;
};

export async function tellNotInstalled(responseUrl: string, logger: Logger): Promise<void> {
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
    dispatchErrorHandler: dispatchErrorHandler(deps.refusals, deps.logger),
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
export function singleWorkspaceApp(deps: AppDeps, botToken: string): App {
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
export function oauthApp(
  deps: AppDeps,
  auth: Extract<AppDeps["config"]["slack"]["auth"], { kind: "oauth" }>,
): App {
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
export function socketModeApp(
  deps: AppDeps,
  botToken: string,
  appToken: string,
): { app: App; probeServer: Server } {
  const receiver = new SocketModeReceiver({
    appToken,
    logger: boltLogger(deps.logger),
    installerOptions: { clientOptions: slackClientOptions(deps.config.slack) },
  });
  const probes = routes(deps);
  const probeServer = createServer(httpServerOptions(deps.config.http), (req, res) => {
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
