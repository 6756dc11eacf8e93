import { webApi } from "@slack/bolt";
import type { Config } from "../config/index.js";
import { PaymentsClient } from "../payments/client.js";
import { slackClientOptions } from "../slack/client.js";
import { slackErrorCode } from "../slack/error.js";
import type { Closers } from "../util/closers.js";
import type { Logger } from "../util/logger.js";

// Steps of startServer (src/server.ts) that stand on their own.

/** A start-up failure whose message is one line an operator can act on. */
export class StartupError extends Error {
  override readonly name = "StartupError";
}

/** One workspace: checks the token now, so a wrong one stops start-up instead of every command. */
export async function verifyBotToken(
  config: Config,
): Promise<{ botId: string; botUserId: string } | undefined> {
  if (config.slack.auth.kind !== "single-workspace") return undefined;
  const slack = new webApi.WebClient(config.slack.auth.botToken, slackClientOptions(config.slack));
  try {
    const auth = await slack.auth.test();
    return { botId: auth.bot_id ?? "", botUserId: auth.user_id ?? "" };
  } catch (error) {
    const reason = slackErrorCode(error);
    throw new StartupError(
      `could not verify SLACK_BOT_TOKEN with Slack (auth.test at ${config.slack.apiUrl}: ${reason})`,
    );
  }
}

export function paymentsClient(
  config: Config,
  options: { paymentsRetryDelayMs?: number | undefined },
): PaymentsClient {
  return new PaymentsClient({
    baseUrl: config.payments.apiUrl,
    defaultVersion: config.payments.apiVersion,
    timeoutMs: config.payments.timeoutMs,
    timeZone: config.payments.timeZone,
    queue: config.payments.perRegister,
    ...(options.paymentsRetryDelayMs === undefined ? {} : { retryDelayMs: options.paymentsRetryDelayMs }),
  });
}

/** One start-up step: on failure, everything started before it closes and the step says what failed. */
export async function starting<T>(closers: Closers, failure: string, step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (error) {
    await closers.closeAll();
    throw new StartupError(`${failure}: ${(error as Error).message}`);
  }
}

/** Each background job's pass, now, after the one under way; each resolves when its pass has ended. */
export type BackgroundPasses = {
  feed(): Promise<void>;
  liveCards(): Promise<void>;
  digests(): Promise<void>;
  payouts(): Promise<void>;
  moneyAlerts(): Promise<void>;
  /** The payment methods watch: the registers whose check is due. */
  methodWatch(): Promise<void>;
  auditDay(): Promise<void>;
  /** The audit entries owed by acts whose append the store or the process did not finish. */
  auditOwed(): Promise<void>;
  /** The payment links due: a lost answer's invoice looked for by its marker (issue 51). */
  links(): Promise<void>;
  /** The repeating invoices due: each run made once (issue 51). */
  schedules(): Promise<void>;
};

/** The one line an operator reads at start: where Kassa listens or connects, and to what. */
export function logListening(logger: Logger, config: Config, port: number, storeLocation: string): void {
  logger.info(
    {
      port,
      mode: config.slack.appToken ? "socket-mode" : config.slack.auth.kind,
      store: storeLocation,
      paymentsApi: config.payments.apiUrl,
      paymentsApiVersion: config.payments.apiVersion,
    },
    config.slack.appToken ? "Kassa is connected through Socket Mode" : "Kassa is listening on /slack/events",
  );
}
