import type { z } from "zod";
import { requireKeyOffSqlite, serverEnvSchema, variablesSchema } from "./schema.js";
import { decodeKey } from "./values.js";

export { LOG_LEVELS } from "./schema.js";
export { decodeKey } from "./values.js";

/** How the app gets a token for a workspace. */
export type SlackAuth =
  | { kind: "single-workspace"; botToken: string }
  | { kind: "oauth"; clientId: string; clientSecret: string; stateSecret: string };

/** Everything Kassa reads from its environment, typed and grouped (see toConfig). */
export type Config = ReturnType<typeof toConfig>;

/** The variables the server and the CLI read; the table in docs/operating.md lists the same names. */
export const CONFIG_VARIABLES = Object.keys(variablesSchema.shape);

export class ConfigError extends Error {
  override readonly name = "ConfigError";
}

/** What the `getAll` of an env needs: anything with string values (process.env, a test's object). */
export type Env = Record<string, string | undefined>;

/**
 * Parses the environment once. A bad value throws a ConfigError whose message is one line naming
 * the variable and what is expected, without echoing the value (it may be a secret).
 */
export function loadConfig(env: Env, options: { requireSlack?: boolean } = {}): Config {
  const requireSlack = options.requireSlack ?? true;
  const schema = (requireSlack ? serverEnvSchema : variablesSchema).superRefine(requireKeyOffSqlite);
  const result = schema.safeParse(env);
  if (!result.success) {
    const problems = result.error.issues.map(
      (issue) => `${String(issue.path[0] ?? "environment")} ${issue.message}`,
    );
    throw new ConfigError(`Configuration error: ${problems.join("; ")}`);
  }
  return toConfig(result.data);
}

type Parsed = z.output<typeof variablesSchema>;

/** The parsed variables, grouped the way the app reads them; Config is this function's type. */
function toConfig(parsed: Parsed) {
  return {
    port: parsed.PORT,
    /** How long a client may take to send its headers, and its whole request, before it is cut off. */
    http: {
      headersTimeoutMs: parsed.HTTP_HEADERS_TIMEOUT_MS,
      requestTimeoutMs: parsed.HTTP_REQUEST_TIMEOUT_MS,
    },
    slack: slackConfig(parsed),
    payments: paymentsConfig(parsed),
    /** timeoutMs: STORE_TIMEOUT_MS, the deadline of every store call. */
    store: {
      url: parsed.STORE_URL,
      credentialsKey: parsed.CREDENTIALS_KEY === undefined ? undefined : decodeKey(parsed.CREDENTIALS_KEY),
      timeoutMs: parsed.STORE_TIMEOUT_MS,
    },
    /** Where /invoice cards go by default: the channel, or privately to the asker with a Share button. */
    replyVisibility: parsed.REPLY_VISIBILITY,
    /** Commands (and button presses) per minute, per user and per workspace; 0 disables a limit. */
    rateLimits: {
      userPerMinute: parsed.RATE_LIMIT_USER_PER_MIN,
      teamPerMinute: parsed.RATE_LIMIT_TEAM_PER_MIN,
    },
    /** How long a workspace's method list is reused (0: not cached). */
    paymethodsCacheTtlMs: parsed.PAYMETHODS_CACHE_TTL_MS,
    ...backgroundConfig(parsed),
    logLevel: parsed.LOG_LEVEL,
  };
}

/** How Kassa talks to Slack: its credentials (one workspace's bot token, or OAuth), its limits, admins. */
function slackConfig(parsed: Parsed) {
  const auth: SlackAuth =
    parsed.SLACK_CLIENT_ID && parsed.SLACK_CLIENT_SECRET && parsed.SLACK_STATE_SECRET
      ? {
          kind: "oauth",
          clientId: parsed.SLACK_CLIENT_ID,
          clientSecret: parsed.SLACK_CLIENT_SECRET,
          stateSecret: parsed.SLACK_STATE_SECRET,
        }
      : { kind: "single-workspace", botToken: parsed.SLACK_BOT_TOKEN ?? "" };
  return {
    auth,
    /** Verifies HTTP requests; unset only in Socket Mode. */
    signingSecret: parsed.SLACK_SIGNING_SECRET,
    /** Set: Socket Mode (no public URL); events arrive over a WebSocket. */
    appToken: parsed.SLACK_APP_TOKEN,
    apiUrl: parsed.SLACK_API_URL,
    /** SLACK_TIMEOUT_MS: the longest any one Slack Web API call may take, retries included. */
    timeoutMs: parsed.SLACK_TIMEOUT_MS,
    /** ADMIN_USER_IDS: may connect the cash register besides workspace admins and the installer. */
    adminUserIds: parsed.ADMIN_USER_IDS,
  };
}

/** The payment service: where, which API version, its time zone, and each register's pace. */
function paymentsConfig(parsed: Parsed) {
  return {
    apiUrl: parsed.PAYMENTS_API_URL,
    apiVersion: parsed.PAYMENTS_API_VERSION,
    timeoutMs: parsed.PAYMENTS_TIMEOUT_MS,
    timeZone: parsed.PAYMENTS_TIMEZONE,
    /** Per cash register: requests started per second, at once, and the longest wait for a turn (0: no limit). */
    perRegister: {
      ratePerSecond: parsed.PAYMENTS_RATE_PER_SECOND,
      concurrency: parsed.PAYMENTS_MAX_CONCURRENT,
      maxWaitMs: parsed.PAYMENTS_MAX_QUEUE_MS,
    },
  };
}

/** The background work's pace: live cards, feeds, digests, money alerts, the audit day, payouts, the journal. */
function backgroundConfig(parsed: Parsed) {
  return {
    /** Live cards: the read interval of their first hour, for at most maxHours, per workspace and register. */
    watch: {
      intervalMs: parsed.WATCH_INTERVAL_MS,
      maxHours: parsed.WATCH_MAX_HOURS,
      maxPerWorkspace: parsed.WATCH_MAX_PER_WORKSPACE,
      maxReadsPerSecond: parsed.WATCH_MAX_RPS,
    },
    /** How long a workspace's balances (and the rates read for them) are reused (0: not cached). */
    balanceCacheTtlMs: parsed.BALANCE_CACHE_TTL_MS,
    /** FEED_INTERVAL_MS: how often the history of a register with a payment feed is read. */
    feedIntervalMs: parsed.FEED_INTERVAL_MS,
    /** FEED_CONCURRENCY: workspaces' feeds one replica works on at once. */
    feedConcurrency: parsed.FEED_CONCURRENCY,
    /** DIGEST_INTERVAL_MS: how often the weekly and monthly digests are looked at. */
    digestIntervalMs: parsed.DIGEST_INTERVAL_MS,
    /** BALANCE_CHECK_MS: each register's balance alerts are checked this often; PAYOUT_CHECK_MS: its payout history. */
    moneyAlerts: { balanceCheckMs: parsed.BALANCE_CHECK_MS, payoutCheckMs: parsed.PAYOUT_CHECK_MS },
    /**
     * METHOD_CHECK_MS: each register's payment methods watch reads this often; METHOD_CALM_MS: how long
     * a method stays below half the threshold before its alert is closed.
     */
    methodWatch: { checkMs: parsed.METHOD_CHECK_MS, calmMs: parsed.METHOD_CALM_MS },
    /** AUDIT_RETENTION_DAYS: how many days of each workspace's audit trail are kept (today counts as one). */
    /** AUDIT_CHECK_MS: how often each replica looks for workspaces whose audit day is due (retention, head post). */
    audit: { retentionDays: parsed.AUDIT_RETENTION_DAYS, checkMs: parsed.AUDIT_CHECK_MS },
    /** PAYOUT_RUN_MS: how often each replica looks for payout requests due (to expire, send or follow). */
    payoutRunMs: parsed.PAYOUT_RUN_MS,
    /** LINKS_CHECK_MS: how often each replica looks at the payment links due (a lost answer's invoice looked for). */
    linksCheckMs: parsed.LINKS_CHECK_MS,
    /** PUBLIC_URL: Kassa's public origin (ends with "/"), where the payment service's callbacks arrive; unset: none. */
    publicUrl: parsed.PUBLIC_URL,
    /** JOURNAL_GRACE_MS: an unanswered command whose process has not renewed it this long is a stopped process's. */
    journalGraceMs: parsed.JOURNAL_GRACE_MS,
    /** JOURNAL_AFTER_MS: a command still unanswered this long after its ack is journaled (0: at once). */
    journalAfterMs: parsed.JOURNAL_AFTER_MS,
  };
}
