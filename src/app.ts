import type { AddressInfo } from "node:net";
import { App } from "@slack/bolt";
import type { Config } from "./config.js";
import { registerListeners } from "./listeners/index.js";
import { boltLogger, type Logger } from "./logger.js";
import type { KeyvStore } from "./store/keyv.js";
import type { WorkspacePayments } from "./workspace-payments.js";

export type AppDeps = {
  config: Config;
  logger: Logger;
  store: KeyvStore;
  payments: WorkspacePayments;
  /** Bot identity from auth.test, so Bolt does not call it again on its own. */
  bot: { botId: string; botUserId: string };
  now?: () => Date;
};

export type KassaApp = {
  app: App;
  /** Listens on `port` (0: any free port) and resolves to the port in use. */
  start(port: number): Promise<number>;
  stop(): Promise<void>;
};

/** Builds the Bolt app (HTTP receiver on /slack/events, GET /healthz) from its dependencies. */
export function createApp(deps: AppDeps): KassaApp {
  const { config, logger } = deps;
  const app = new App({
    token: config.slack.botToken,
    botId: deps.bot.botId,
    botUserId: deps.bot.botUserId,
    signingSecret: config.slack.signingSecret,
    logger: boltLogger(logger),
    clientOptions: { slackApiUrl: config.slack.apiUrl },
    // Long-running server: ack() answers Slack at once, the handler goes on afterwards.
    processBeforeResponse: false,
    customRoutes: [
      {
        path: "/healthz",
        method: ["GET"],
        handler: (_req, res) => {
          res.writeHead(200, { "content-type": "application/json" });
          res.end(JSON.stringify({ status: "ok" }));
        },
      },
    ],
  });
  app.error(async (error) => {
    logger.error({ err: error }, "unhandled error in a listener");
  });
  registerListeners(app, {
    payments: deps.payments,
    logger,
    timeoutMs: config.payments.timeoutMs,
    replyVisibility: config.replyVisibility,
    now: deps.now ?? (() => new Date()),
  });

  return {
    app,
    async start(port) {
      const server = (await app.start(port)) as { address(): AddressInfo | string | null };
      const address = server.address();
      return typeof address === "object" && address !== null ? address.port : port;
    },
    async stop() {
      await app.stop();
    },
  };
}
