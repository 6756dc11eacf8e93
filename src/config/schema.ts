// The environment Kassa reads: every variable, its default and range, and the rules between them.
import { z } from "zod";
import {
  decodeKey,
  emptyAsUndefined,
  httpUrl,
  integer,
  isPublicUrl,
  isStoreUrl,
  isTimeZone,
  optionalString,
  withTrailingSlash,
} from "./values.js";

export const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;

export const variablesSchema = z.object({
  PORT: integer(3000, 0, 65535),
  HTTP_HEADERS_TIMEOUT_MS: integer(10_000, 100, 600_000),
  HTTP_REQUEST_TIMEOUT_MS: integer(30_000, 100, 3_600_000),
  SLACK_SIGNING_SECRET: optionalString,
  SLACK_BOT_TOKEN: z.preprocess(
    emptyAsUndefined,
    z.string().startsWith("xoxb-", { error: "must be a bot token starting with xoxb-" }).optional(),
  ),
  SLACK_API_URL: httpUrl("https://slack.com/api/"),
  SLACK_TIMEOUT_MS: integer(10_000, 1000, 120_000),
  SLACK_CLIENT_ID: optionalString,
  SLACK_CLIENT_SECRET: optionalString,
  SLACK_STATE_SECRET: z.preprocess(
    emptyAsUndefined,
    z.string().min(16, { error: "must be at least 16 characters (try: openssl rand -hex 16)" }).optional(),
  ),
  SLACK_APP_TOKEN: z.preprocess(
    emptyAsUndefined,
    z.string().startsWith("xapp-", { error: "must be an app-level token starting with xapp-" }).optional(),
  ),
  ADMIN_USER_IDS: z.preprocess(
    (value) =>
      typeof value === "string"
        ? value
            .split(",")
            .map((id) => id.trim())
            .filter(Boolean)
        : value,
    z
      .array(
        z.string().regex(/^[UW][A-Z0-9]{2,20}$/, {
          error: "must be Slack user ids such as U0123ABCD, comma-separated",
        }),
      )
      .default([]),
  ),
  PAYMENTS_API_URL: httpUrl("https://api.crystalpay.io/"),
  PAYMENTS_API_VERSION: z.preprocess(
    emptyAsUndefined,
    z.enum(["v2", "v3"], { error: "must be v2 or v3" }).default("v2"),
  ),
  PAYMENTS_TIMEOUT_MS: integer(8000, 100, 120_000),
  PAYMENTS_RATE_PER_SECOND: integer(5, 0, 100_000),
  PAYMENTS_MAX_CONCURRENT: integer(10, 0, 1000),
  PAYMENTS_MAX_QUEUE_MS: integer(10_000, 0, 600_000),
  PAYMENTS_TIMEZONE: z.preprocess(
    emptyAsUndefined,
    z
      .string()
      .refine(isTimeZone, { error: "must be an IANA time zone such as Europe/Moscow or UTC" })
      .default("Europe/Moscow"),
  ),
  PAYMETHODS_CACHE_TTL_MS: integer(60_000, 0, 86_400_000),
  BALANCE_CACHE_TTL_MS: integer(15_000, 0, 300_000),
  RATE_LIMIT_USER_PER_MIN: integer(30, 0, 100_000),
  RATE_LIMIT_TEAM_PER_MIN: integer(300, 0, 1_000_000),
  WATCH_INTERVAL_MS: integer(30_000, 100, 600_000),
  WATCH_MAX_HOURS: integer(24, 1, 720),
  WATCH_MAX_PER_WORKSPACE: integer(200, 0, 100_000),
  WATCH_MAX_RPS: integer(2, 1, 100),
  FEED_INTERVAL_MS: integer(30_000, 100, 3_600_000),
  FEED_CONCURRENCY: integer(8, 1, 1000),
  DIGEST_INTERVAL_MS: integer(60_000, 100, 3_600_000),
  BALANCE_CHECK_MS: integer(900_000, 100, 86_400_000),
  PAYOUT_CHECK_MS: integer(300_000, 100, 3_600_000),
  METHOD_CHECK_MS: integer(300_000, 100, 3_600_000),
  METHOD_CALM_MS: integer(1_800_000, 0, 86_400_000),
  AUDIT_RETENTION_DAYS: integer(1825, 1, 36_500),
  AUDIT_CHECK_MS: integer(3_600_000, 100, 86_400_000),
  PAYOUT_RUN_MS: integer(5_000, 100, 600_000),
  LINKS_CHECK_MS: integer(60_000, 100, 3_600_000),
  REPLY_VISIBILITY: z.preprocess(
    emptyAsUndefined,
    z.enum(["channel", "private"], { error: "must be channel or private" }).default("channel"),
  ),
  PUBLIC_URL: z.preprocess(
    emptyAsUndefined,
    z
      .string()
      .refine(isPublicUrl, { error: "must be Kassa's public https address, e.g. https://kassa.example.com" })
      .transform(withTrailingSlash)
      .optional(),
  ),
  STORE_URL: z.preprocess(
    emptyAsUndefined,
    z
      .string()
      .refine(isStoreUrl, {
        error:
          "must be a sqlite://, redis://, rediss://, postgres:// or postgresql:// URL, e.g. sqlite://data/kassa.sqlite",
      })
      .default("sqlite://data/kassa.sqlite"),
  ),
  STORE_TIMEOUT_MS: integer(3000, 100, 60_000),
  JOURNAL_GRACE_MS: integer(10_000, 100, 600_000),
  JOURNAL_AFTER_MS: integer(250, 0, 10_000),
  CREDENTIALS_KEY: z.preprocess(
    emptyAsUndefined,
    z
      .string()
      .refine((value) => decodeKey(value) !== undefined, {
        error: "must be 32 bytes written as 64 hex digits or base64 (try: openssl rand -base64 32)",
      })
      .optional(),
  ),
  LOG_LEVEL: z.preprocess(
    (value) => (typeof value === "string" ? value.trim().toLowerCase() || undefined : value),
    z.enum(LOG_LEVELS, { error: `must be one of ${LOG_LEVELS.join(", ")}` }).default("info"),
  ),
});

const OAUTH_VARIABLES = ["SLACK_CLIENT_ID", "SLACK_CLIENT_SECRET", "SLACK_STATE_SECRET"] as const;

/**
 * The server needs one way to authorise: SLACK_BOT_TOKEN (one workspace) or the three OAuth
 * variables (many workspaces), never both; and the signing secret unless Socket Mode carries events.
 */
export const serverEnvSchema = variablesSchema.superRefine((env, ctx) => {
  const problem = (variable: string, message: string) =>
    ctx.addIssue({ code: "custom", path: [variable], message });
  const oauthSet = OAUTH_VARIABLES.filter((name) => env[name] !== undefined);
  if (env.SLACK_BOT_TOKEN && oauthSet.length > 0) {
    problem(
      "SLACK_BOT_TOKEN",
      `cannot be combined with ${oauthSet.join(", ")}: set SLACK_BOT_TOKEN for one workspace, or SLACK_CLIENT_ID, SLACK_CLIENT_SECRET and SLACK_STATE_SECRET to install in many`,
    );
  } else if (oauthSet.length > 0 && oauthSet.length < OAUTH_VARIABLES.length) {
    for (const name of OAUTH_VARIABLES.filter((variable) => env[variable] === undefined)) {
      problem(
        name,
        `is required with ${oauthSet.join(" and ")} (installing in many workspaces through OAuth)`,
      );
    }
  } else if (!env.SLACK_BOT_TOKEN && oauthSet.length === 0) {
    problem(
      "SLACK_BOT_TOKEN",
      "is required (Slack app settings, OAuth & Permissions, Bot User OAuth Token, xoxb-...), or set SLACK_CLIENT_ID, SLACK_CLIENT_SECRET and SLACK_STATE_SECRET to install in many workspaces",
    );
  }
  if (env.SLACK_APP_TOKEN && oauthSet.length > 0) {
    problem(
      "SLACK_APP_TOKEN",
      "(Socket Mode) works with SLACK_BOT_TOKEN only; OAuth installs need the HTTP endpoints",
    );
  }
  if (env.PUBLIC_URL && env.SLACK_APP_TOKEN) {
    problem(
      "PUBLIC_URL",
      "is for HTTP mode: with SLACK_APP_TOKEN (Socket Mode) Kassa has no public address for the payment service's callbacks",
    );
  }
  if (env.HTTP_HEADERS_TIMEOUT_MS > env.HTTP_REQUEST_TIMEOUT_MS) {
    problem(
      "HTTP_HEADERS_TIMEOUT_MS",
      "must not be longer than HTTP_REQUEST_TIMEOUT_MS (the headers are part of the request)",
    );
  }
  if (!env.SLACK_SIGNING_SECRET && !env.SLACK_APP_TOKEN) {
    problem("SLACK_SIGNING_SECRET", "is required (Slack app settings, Basic Information, Signing Secret)");
  }
});

/**
 * The key file fallback lives beside an SQLite database. A Redis or PostgreSQL store is shared by
 * replicas that must all seal and open secrets with the same key, so it has to come from the
 * environment. Applies to the server and the CLI alike.
 */
export function requireKeyOffSqlite(env: z.output<typeof variablesSchema>, ctx: z.RefinementCtx): void {
  // An invalid STORE_URL is reported on its own; naming the key as well would only confuse.
  if (env.CREDENTIALS_KEY !== undefined || !isStoreUrl(env.STORE_URL)) return;
  if (!env.STORE_URL.startsWith("sqlite://")) {
    ctx.addIssue({
      code: "custom",
      path: ["CREDENTIALS_KEY"],
      message:
        "is required when STORE_URL is Redis or PostgreSQL (the key file fallback is for SQLite only; try: openssl rand -base64 32)",
    });
  }
}
