import { z } from "zod";

/** Zones accepted by PAYMENTS_TIMEZONE: whatever this Node's Intl knows (IANA names). */
function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** Decodes CREDENTIALS_KEY: 32 bytes written as 64 hex digits or as base64. */
export function decodeKey(text: string): Buffer | undefined {
  const trimmed = text.trim();
  if (/^[0-9a-fA-F]{64}$/.test(trimmed)) return Buffer.from(trimmed, "hex");
  if (/^[A-Za-z0-9+/_-]{43}=?$/.test(trimmed)) {
    const bytes = Buffer.from(trimmed, "base64");
    if (bytes.length === 32) return bytes;
  }
  return undefined;
}

/**
 * STORE_URL: an SQLite file (one process, or several on one host), or Redis / PostgreSQL, which
 * several replicas behind a load balancer can share.
 */
function isStoreUrl(value: string): boolean {
  if (/^sqlite:\/\/./.test(value)) return true;
  return /^(rediss?|postgres(ql)?):\/\/./.test(value) && URL.canParse(value);
}

const emptyAsUndefined = (value: unknown) =>
  typeof value === "string" && value.trim() === "" ? undefined : value;
const optionalString = z.preprocess(emptyAsUndefined, z.string().optional());
const withTrailingSlash = (url: string) => (url.endsWith("/") ? url : `${url}/`);
const httpUrl = (fallback: string) =>
  z.preprocess(
    emptyAsUndefined,
    z
      .url({ protocol: /^https?$/, error: "must be an http(s) URL" })
      .default(fallback)
      .transform(withTrailingSlash),
  );
/** Kassa's own public origin: https, or http on a loopback address (tests, the demo). */
function isPublicUrl(value: string): boolean {
  try {
    const url = new URL(value);
    if (url.search || url.hash || url.username || url.password) return false;
    return (
      url.protocol === "https:" ||
      (url.protocol === "http:" && /^(127\.\d+\.\d+\.\d+|localhost|\[::1\])$/.test(url.hostname))
    );
  } catch {
    return false;
  }
}

const integer = (fallback: number, min: number, max: number) =>
  z.preprocess(
    emptyAsUndefined,
    z.coerce
      .number({ error: "must be a whole number" })
      .int({ error: "must be a whole number" })
      .min(min, { error: `must be at least ${min}` })
      .max(max, { error: `must be at most ${max}` })
      .default(fallback),
  );

export const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;

const variablesSchema = z.object({
  PORT: integer(3000, 0, 65535),
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
  JOURNAL_GRACE_MS: integer(60_000, 100, 600_000),
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
const serverEnvSchema = variablesSchema.superRefine((env, ctx) => {
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
  if (!env.SLACK_SIGNING_SECRET && !env.SLACK_APP_TOKEN) {
    problem("SLACK_SIGNING_SECRET", "is required (Slack app settings, Basic Information, Signing Secret)");
  }
});

/** How the app gets a token for a workspace. */
export type SlackAuth =
  | { kind: "single-workspace"; botToken: string }
  | { kind: "oauth"; clientId: string; clientSecret: string; stateSecret: string };

export type Config = {
  port: number;
  slack: {
    auth: SlackAuth;
    /** Verifies HTTP requests; unset only in Socket Mode. */
    signingSecret: string | undefined;
    /** Set: Socket Mode (no public URL); events arrive over a WebSocket. */
    appToken: string | undefined;
    apiUrl: string;
    /** SLACK_TIMEOUT_MS: the longest any one Slack Web API call may take, retries included. */
    timeoutMs: number;
    /** ADMIN_USER_IDS: may connect the cash register besides workspace admins and the installer. */
    adminUserIds: string[];
  };
  payments: {
    apiUrl: string;
    apiVersion: "v2" | "v3";
    timeoutMs: number;
    timeZone: string;
    /** Per cash register: requests started per second, at once, and the longest wait for a turn (0: no limit). */
    perRegister: { ratePerSecond: number; concurrency: number; maxWaitMs: number };
  };
  /** timeoutMs: STORE_TIMEOUT_MS, the deadline of every store call. */
  store: { url: string; credentialsKey: Buffer | undefined; timeoutMs: number };
  /** Where /invoice cards go by default: the channel, or privately to the asker with a Share button. */
  replyVisibility: "channel" | "private";
  /** Commands (and button presses) per minute, per user and per workspace; 0 disables a limit. */
  rateLimits: { userPerMinute: number; teamPerMinute: number };
  /** How long a workspace's method list is reused (0: not cached). */
  paymethodsCacheTtlMs: number;
  /** Live cards: first re-read after intervalMs (backing off), for at most maxHours, per workspace and register. */
  watch: { intervalMs: number; maxHours: number; maxPerWorkspace: number; maxReadsPerSecond: number };
  /** How long a workspace's balances (and the rates read for them) are reused (0: not cached). */
  balanceCacheTtlMs: number;
  /** FEED_INTERVAL_MS: how often the history of a register with a payment feed is read. */
  feedIntervalMs: number;
  /** PUBLIC_URL: Kassa's public origin (ends with "/"), where the payment service's callbacks arrive; unset: none. */
  publicUrl: string | undefined;
  /** JOURNAL_GRACE_MS: an unanswered command this old is taken to belong to a stopped process. */
  journalGraceMs: number;
  /** JOURNAL_AFTER_MS: a command still unanswered this long after its ack is journaled (0: at once). */
  journalAfterMs: number;
  logLevel: (typeof LOG_LEVELS)[number];
};

/** The variables the server and the CLI read; the table in docs/operating.md lists the same names. */
export const CONFIG_VARIABLES = Object.keys(variablesSchema.shape);

export class ConfigError extends Error {
  override readonly name = "ConfigError";
}

/** What the `getAll` of an env needs: anything with string values (process.env, a test's object). */
export type Env = Record<string, string | undefined>;

/**
 * The key file fallback lives beside an SQLite database. A Redis or PostgreSQL store is shared by
 * replicas that must all seal and open secrets with the same key, so it has to come from the
 * environment. Applies to the server and the CLI alike.
 */
function requireKeyOffSqlite(env: z.output<typeof variablesSchema>, ctx: z.RefinementCtx): void {
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
  const parsed = result.data;
  return {
    port: parsed.PORT,
    slack: {
      auth:
        parsed.SLACK_CLIENT_ID && parsed.SLACK_CLIENT_SECRET && parsed.SLACK_STATE_SECRET
          ? {
              kind: "oauth",
              clientId: parsed.SLACK_CLIENT_ID,
              clientSecret: parsed.SLACK_CLIENT_SECRET,
              stateSecret: parsed.SLACK_STATE_SECRET,
            }
          : { kind: "single-workspace", botToken: parsed.SLACK_BOT_TOKEN ?? "" },
      signingSecret: parsed.SLACK_SIGNING_SECRET,
      appToken: parsed.SLACK_APP_TOKEN,
      apiUrl: parsed.SLACK_API_URL,
      timeoutMs: parsed.SLACK_TIMEOUT_MS,
      adminUserIds: parsed.ADMIN_USER_IDS,
    },
    payments: {
      apiUrl: parsed.PAYMENTS_API_URL,
      apiVersion: parsed.PAYMENTS_API_VERSION,
      timeoutMs: parsed.PAYMENTS_TIMEOUT_MS,
      timeZone: parsed.PAYMENTS_TIMEZONE,
      perRegister: {
        ratePerSecond: parsed.PAYMENTS_RATE_PER_SECOND,
        concurrency: parsed.PAYMENTS_MAX_CONCURRENT,
        maxWaitMs: parsed.PAYMENTS_MAX_QUEUE_MS,
      },
    },
    store: {
      url: parsed.STORE_URL,
      credentialsKey: parsed.CREDENTIALS_KEY === undefined ? undefined : decodeKey(parsed.CREDENTIALS_KEY),
      timeoutMs: parsed.STORE_TIMEOUT_MS,
    },
    replyVisibility: parsed.REPLY_VISIBILITY,
    rateLimits: {
      userPerMinute: parsed.RATE_LIMIT_USER_PER_MIN,
      teamPerMinute: parsed.RATE_LIMIT_TEAM_PER_MIN,
    },
    paymethodsCacheTtlMs: parsed.PAYMETHODS_CACHE_TTL_MS,
    watch: {
      intervalMs: parsed.WATCH_INTERVAL_MS,
      maxHours: parsed.WATCH_MAX_HOURS,
      maxPerWorkspace: parsed.WATCH_MAX_PER_WORKSPACE,
      maxReadsPerSecond: parsed.WATCH_MAX_RPS,
    },
    balanceCacheTtlMs: parsed.BALANCE_CACHE_TTL_MS,
    feedIntervalMs: parsed.FEED_INTERVAL_MS,
    publicUrl: parsed.PUBLIC_URL,
    journalGraceMs: parsed.JOURNAL_GRACE_MS,
    journalAfterMs: parsed.JOURNAL_AFTER_MS,
    logLevel: parsed.LOG_LEVEL,
  };
}
