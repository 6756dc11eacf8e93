import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { CONFIG_VARIABLES, ConfigError, decodeKey, type Env, loadConfig } from "../src/config/index.js";

const SLACK: Env = { SLACK_SIGNING_SECRET: "signing-secret-value", SLACK_BOT_TOKEN: "xoxb-1-2-abc" };

function configError(env: Env, options?: { requireSlack?: boolean }): ConfigError {
  try {
    loadConfig(env, options);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    const configError = error as ConfigError;
    expect(configError.name).toBe("ConfigError");
    expect(configError.message).not.toContain("\n");
    expect(configError.message.startsWith("Configuration error: ")).toBe(true);
    return configError;
  }
  throw new Error(`expected a ConfigError for ${JSON.stringify(env)}`);
}

describe("loadConfig", () => {
  it("fills every default", () => {
    expect(loadConfig(SLACK)).toEqual({
      port: 3000,
      http: { headersTimeoutMs: 10_000, requestTimeoutMs: 30_000 },
      slack: {
        auth: { kind: "single-workspace", botToken: "xoxb-1-2-abc" },
        signingSecret: "signing-secret-value",
        appToken: undefined,
        apiUrl: "https://slack.com/api/",
        timeoutMs: 10_000,
        adminUserIds: [],
      },
      payments: {
        apiUrl: "https://api.crystalpay.io/",
        apiVersion: "v2",
        timeoutMs: 8000,
        timeZone: "Europe/Moscow",
        perRegister: { ratePerSecond: 5, concurrency: 10, maxWaitMs: 10_000 },
      },
      store: { url: "sqlite://data/kassa.sqlite", credentialsKey: undefined, timeoutMs: 3000 },
      replyVisibility: "channel",
      rateLimits: { userPerMinute: 30, teamPerMinute: 300 },
      paymethodsCacheTtlMs: 60_000,
      watch: { intervalMs: 30_000, maxHours: 24, maxPerWorkspace: 200, maxReadsPerSecond: 2 },
      balanceCacheTtlMs: 15_000,
      feedIntervalMs: 30_000,
      feedConcurrency: 8,
      digestIntervalMs: 60_000,
      moneyAlerts: { balanceCheckMs: 900_000, payoutCheckMs: 300_000 },
      methodWatch: { checkMs: 300_000, calmMs: 1_800_000 },
      audit: { retentionDays: 1825, checkMs: 3_600_000 },
      payoutRunMs: 5000,
      linksCheckMs: 60_000,
      journalGraceMs: 10_000,
      journalAfterMs: 250,
      logLevel: "info",
    });
  });

  it("treats empty and blank values as unset", () => {
    const config = loadConfig({
      ...SLACK,
      PORT: "",
      PAYMENTS_API_VERSION: " ",
      PAYMENTS_TIMEOUT_MS: "",
      PAYMENTS_TIMEZONE: "",
      PAYMETHODS_CACHE_TTL_MS: "",
      JOURNAL_GRACE_MS: "",
      PAYMENTS_API_URL: "",
      SLACK_API_URL: "  ",
      STORE_URL: "",
      CREDENTIALS_KEY: "",
      LOG_LEVEL: "",
    });
    expect(config).toEqual(loadConfig(SLACK));
  });

  it("reads every variable it is given", () => {
    const key = randomBytes(32);
    expect(
      loadConfig({
        ...SLACK,
        PORT: "8080",
        HTTP_HEADERS_TIMEOUT_MS: "5000",
        HTTP_REQUEST_TIMEOUT_MS: "20000",
        SLACK_API_URL: "http://127.0.0.1:4000/api/",
        SLACK_TIMEOUT_MS: "2500",
        PAYMENTS_API_URL: "http://127.0.0.1:4001/",
        PAYMENTS_API_VERSION: "v3",
        PAYMENTS_TIMEOUT_MS: "1500",
        PAYMENTS_RATE_PER_SECOND: "0",
        PAYMENTS_MAX_CONCURRENT: "20",
        PAYMENTS_MAX_QUEUE_MS: "2500",
        PAYMENTS_TIMEZONE: "UTC",
        STORE_URL: "sqlite:///var/lib/kassa/kassa.sqlite",
        CREDENTIALS_KEY: key.toString("hex"),
        PAYMETHODS_CACHE_TTL_MS: "0",
        BALANCE_CACHE_TTL_MS: "5000",
        FEED_INTERVAL_MS: "60000",
        FEED_CONCURRENCY: "3",
        DIGEST_INTERVAL_MS: "120000",
        BALANCE_CHECK_MS: "60000",
        PAYOUT_CHECK_MS: "30000",
        METHOD_CHECK_MS: "60000",
        METHOD_CALM_MS: "0",
        AUDIT_RETENTION_DAYS: "365",
        PAYOUT_RUN_MS: "2000",
        LINKS_CHECK_MS: "30000",
        AUDIT_CHECK_MS: "60000",
        JOURNAL_GRACE_MS: "5000",
        JOURNAL_AFTER_MS: "0",
        REPLY_VISIBILITY: "private",
        RATE_LIMIT_USER_PER_MIN: "0",
        RATE_LIMIT_TEAM_PER_MIN: "1000",
        ADMIN_USER_IDS: " U0ADMIN1, W0ADMIN2 ,",
        WATCH_INTERVAL_MS: "5000",
        WATCH_MAX_HOURS: "2",
        WATCH_MAX_PER_WORKSPACE: "0",
        WATCH_MAX_RPS: "3",
        LOG_LEVEL: "debug",
      }),
    ).toEqual({
      port: 8080,
      http: { headersTimeoutMs: 5000, requestTimeoutMs: 20_000 },
      slack: {
        auth: { kind: "single-workspace", botToken: "xoxb-1-2-abc" },
        signingSecret: "signing-secret-value",
        appToken: undefined,
        apiUrl: "http://127.0.0.1:4000/api/",
        timeoutMs: 2500,
        adminUserIds: ["U0ADMIN1", "W0ADMIN2"],
      },
      payments: {
        apiUrl: "http://127.0.0.1:4001/",
        apiVersion: "v3",
        timeoutMs: 1500,
        timeZone: "UTC",
        perRegister: { ratePerSecond: 0, concurrency: 20, maxWaitMs: 2500 },
      },
      store: { url: "sqlite:///var/lib/kassa/kassa.sqlite", credentialsKey: key, timeoutMs: 3000 },
      replyVisibility: "private",
      rateLimits: { userPerMinute: 0, teamPerMinute: 1000 },
      paymethodsCacheTtlMs: 0,
      watch: { intervalMs: 5000, maxHours: 2, maxPerWorkspace: 0, maxReadsPerSecond: 3 },
      balanceCacheTtlMs: 5000,
      feedIntervalMs: 60_000,
      feedConcurrency: 3,
      digestIntervalMs: 120_000,
      moneyAlerts: { balanceCheckMs: 60_000, payoutCheckMs: 30_000 },
      methodWatch: { checkMs: 60_000, calmMs: 0 },
      audit: { retentionDays: 365, checkMs: 60_000 },
      payoutRunMs: 2000,
      linksCheckMs: 30_000,
      journalGraceMs: 5000,
      journalAfterMs: 0,
      logLevel: "debug",
    });
  });

  it("takes PUBLIC_URL as an https origin (http only on loopback) and refuses it with Socket Mode", () => {
    expect(loadConfig({ ...SLACK, PUBLIC_URL: "https://kassa.example.com" }).publicUrl).toBe(
      "https://kassa.example.com/",
    );
    expect(loadConfig({ ...SLACK, PUBLIC_URL: "http://127.0.0.1:3000" }).publicUrl).toBe(
      "http://127.0.0.1:3000/",
    );
    expect(loadConfig(SLACK).publicUrl).toBeUndefined();
    for (const bad of [
      "http://kassa.example.com",
      "kassa.example.com",
      "https://x.example.com/?a=1",
      "ftp://x",
    ]) {
      expect(() => loadConfig({ ...SLACK, PUBLIC_URL: bad }), bad).toThrow(
        "PUBLIC_URL must be Kassa's public https address, e.g. https://kassa.example.com",
      );
    }
    expect(() =>
      loadConfig({ ...SLACK, PUBLIC_URL: "https://kassa.example.com", SLACK_APP_TOKEN: "xapp-1-a" }),
    ).toThrow("PUBLIC_URL is for HTTP mode");
  });

  it("lists the variables it reads", () => {
    expect([...CONFIG_VARIABLES].sort()).toEqual(
      [
        "CREDENTIALS_KEY",
        "LOG_LEVEL",
        "PAYMENTS_API_URL",
        "PAYMENTS_API_VERSION",
        "PAYMENTS_TIMEOUT_MS",
        "PAYMENTS_RATE_PER_SECOND",
        "PAYMENTS_MAX_CONCURRENT",
        "PAYMENTS_MAX_QUEUE_MS",
        "PAYMENTS_TIMEZONE",
        "PAYMETHODS_CACHE_TTL_MS",
        "BALANCE_CACHE_TTL_MS",
        "PORT",
        "HTTP_HEADERS_TIMEOUT_MS",
        "HTTP_REQUEST_TIMEOUT_MS",
        "PUBLIC_URL",
        "REPLY_VISIBILITY",
        "RATE_LIMIT_USER_PER_MIN",
        "RATE_LIMIT_TEAM_PER_MIN",
        "ADMIN_USER_IDS",
        "SLACK_APP_TOKEN",
        "SLACK_CLIENT_ID",
        "SLACK_CLIENT_SECRET",
        "SLACK_STATE_SECRET",
        "SLACK_API_URL",
        "SLACK_BOT_TOKEN",
        "SLACK_SIGNING_SECRET",
        "SLACK_TIMEOUT_MS",
        "STORE_URL",
        "STORE_TIMEOUT_MS",
        "WATCH_INTERVAL_MS",
        "WATCH_MAX_HOURS",
        "WATCH_MAX_PER_WORKSPACE",
        "WATCH_MAX_RPS",
        "FEED_INTERVAL_MS",
        "FEED_CONCURRENCY",
        "DIGEST_INTERVAL_MS",
        "BALANCE_CHECK_MS",
        "PAYOUT_CHECK_MS",
        "METHOD_CHECK_MS",
        "METHOD_CALM_MS",
        "AUDIT_RETENTION_DAYS",
        "PAYOUT_RUN_MS",
        "LINKS_CHECK_MS",
        "AUDIT_CHECK_MS",
        "JOURNAL_GRACE_MS",
        "JOURNAL_AFTER_MS",
      ].sort(),
    );
  });

  it("documents every variable in the configuration table (docs/operating.md)", async () => {
    const { readFileSync } = await import("node:fs");
    const readme = readFileSync(new URL("../docs/operating.md", import.meta.url), "utf8");
    for (const name of CONFIG_VARIABLES) expect(readme).toMatch(new RegExp(`^\\| \`${name}\` \\|`, "m"));
  });

  it("states in docs/operating.md the range config enforces, for every numeric variable", async () => {
    const { readFileSync } = await import("node:fs");
    const readme = readFileSync(new URL("../docs/operating.md", import.meta.url), "utf8");
    const numeric = ["PORT", "PAYMENTS_TIMEOUT_MS", "PAYMETHODS_CACHE_TTL_MS", "RATE_LIMIT_USER_PER_MIN"];
    numeric.push("RATE_LIMIT_TEAM_PER_MIN", "STORE_TIMEOUT_MS");
    numeric.push("PAYMENTS_RATE_PER_SECOND", "PAYMENTS_MAX_CONCURRENT", "PAYMENTS_MAX_QUEUE_MS");
    numeric.push("AUDIT_RETENTION_DAYS", "PAYOUT_RUN_MS", "AUDIT_CHECK_MS", "LINKS_CHECK_MS");
    for (const name of numeric) {
      const row = new RegExp(`^\\| \`${name}\` \\|.*$`, "m").exec(readme)?.[0] ?? "";
      const range = /(\d+) to (\d+)/.exec(row);
      expect(range, `${name}: no "<min> to <max>" in its row`).not.toBeNull();
      const [min, max] = [Number(range?.[1]), Number(range?.[2])];
      expect(() => loadConfig({ ...SLACK, [name]: String(min) })).not.toThrow();
      expect(() => loadConfig({ ...SLACK, [name]: String(max) })).not.toThrow();
      expect(configError({ ...SLACK, [name]: String(min - 1) }).message).toContain(
        `${name} must be at least ${min}`,
      );
      expect(configError({ ...SLACK, [name]: String(max + 1) }).message).toContain(
        `${name} must be at most ${max}`,
      );
    }
  });

  it("refuses a REPLY_VISIBILITY other than channel or private", () => {
    expect(() => loadConfig({ ...SLACK, REPLY_VISIBILITY: "public" })).toThrow(
      "Configuration error: REPLY_VISIBILITY must be channel or private",
    );
  });

  describe("ways to run", () => {
    const OAUTH = {
      SLACK_SIGNING_SECRET: "signing-secret-value",
      SLACK_CLIENT_ID: "123.456",
      SLACK_CLIENT_SECRET: "client-secret-value",
      SLACK_STATE_SECRET: "state-secret-0123456789",
    };

    it("runs for many workspaces with the three OAuth variables", () => {
      expect(loadConfig(OAUTH).slack.auth).toEqual({
        kind: "oauth",
        clientId: "123.456",
        clientSecret: "client-secret-value",
        stateSecret: "state-secret-0123456789",
      });
    });

    it("refuses a bot token together with OAuth variables, naming both ways", () => {
      const error = configError({ ...OAUTH, SLACK_BOT_TOKEN: "xoxb-1" });
      expect(error.message).toContain(
        "SLACK_BOT_TOKEN cannot be combined with SLACK_CLIENT_ID, SLACK_CLIENT_SECRET, SLACK_STATE_SECRET",
      );
      expect(error.message).not.toContain("client-secret-value");
    });

    it("names each OAuth variable that is missing", () => {
      const error = configError({ SLACK_SIGNING_SECRET: "s", SLACK_CLIENT_ID: "123.456" });
      expect(error.message).toContain("SLACK_CLIENT_SECRET is required with SLACK_CLIENT_ID");
      expect(error.message).toContain("SLACK_STATE_SECRET is required with SLACK_CLIENT_ID");
      expect(error.message.split("\n")).toHaveLength(1);
    });

    it("wants a state secret of at least 16 characters", () => {
      expect(configError({ ...OAUTH, SLACK_STATE_SECRET: "short" }).message).toContain(
        "SLACK_STATE_SECRET must be at least 16 characters",
      );
    });

    it("runs in Socket Mode with an app token and a bot token, without a signing secret", () => {
      const config = loadConfig({ SLACK_BOT_TOKEN: "xoxb-1", SLACK_APP_TOKEN: "xapp-1-A1-2-abc" });
      expect(config.slack.appToken).toBe("xapp-1-A1-2-abc");
      expect(config.slack.signingSecret).toBeUndefined();
    });

    it("refuses Socket Mode with OAuth, and an app token that is not xapp-", () => {
      expect(configError({ ...OAUTH, SLACK_APP_TOKEN: "xapp-1" }).message).toContain(
        "SLACK_APP_TOKEN (Socket Mode) works with SLACK_BOT_TOKEN only",
      );
      expect(configError({ SLACK_BOT_TOKEN: "xoxb-1", SLACK_APP_TOKEN: "xoxb-2" }).message).toContain(
        "SLACK_APP_TOKEN must be an app-level token starting with xapp-",
      );
    });

    it("refuses ADMIN_USER_IDS that are not user ids", () => {
      expect(configError({ ...OAUTH, ADMIN_USER_IDS: "U0ADMIN1,alice" }).message).toContain(
        "ADMIN_USER_IDS must be Slack user ids",
      );
    });
  });

  describe("Slack variables", () => {
    it("requires SLACK_SIGNING_SECRET, naming only it", () => {
      const error = configError({ SLACK_BOT_TOKEN: "xoxb-1-2-abc" });
      expect(error.message).toContain("SLACK_SIGNING_SECRET is required");
      expect(error.message).not.toContain("SLACK_BOT_TOKEN");
    });

    it("requires SLACK_BOT_TOKEN, naming only it", () => {
      const error = configError({ SLACK_SIGNING_SECRET: "signing-secret-value" });
      expect(error.message).toContain("SLACK_BOT_TOKEN is required");
      expect(error.message).not.toContain("SLACK_SIGNING_SECRET");
      expect(error.message).not.toContain("signing-secret-value");
    });

    it("names both on one line when both are missing", () => {
      const error = configError({});
      expect(error.message).toContain("SLACK_SIGNING_SECRET is required");
      expect(error.message).toContain("SLACK_BOT_TOKEN is required");
    });

    it("treats a blank SLACK_SIGNING_SECRET as missing", () => {
      const error = configError({ ...SLACK, SLACK_SIGNING_SECRET: "   " });
      expect(error.message).toContain("SLACK_SIGNING_SECRET is required");
    });

    it("refuses a bot token that is not xoxb-, without echoing it", () => {
      const error = configError({ ...SLACK, SLACK_BOT_TOKEN: "xoxp-user-token-123" });
      expect(error.message).toContain("SLACK_BOT_TOKEN must be a bot token starting with xoxb-");
      expect(error.message).not.toContain("xoxp-user-token-123");
    });

    it("skips the Slack variables with requireSlack: false", () => {
      const config = loadConfig({}, { requireSlack: false });
      expect(config.slack).toEqual({
        auth: { kind: "single-workspace", botToken: "" },
        signingSecret: undefined,
        appToken: undefined,
        apiUrl: "https://slack.com/api/",
        timeoutMs: 10_000,
        adminUserIds: [],
      });
      expect(config.port).toBe(3000);
    });

    it("still checks the other variables with requireSlack: false", () => {
      const error = configError({ PORT: "nope" }, { requireSlack: false });
      expect(error.message).toBe("Configuration error: PORT must be a whole number");
    });
  });

  describe("PORT", () => {
    it.each(["0", "65535", " 443 "])("accepts %j", (port) => {
      expect(loadConfig({ ...SLACK, PORT: port }).port).toBe(Number(port));
    });

    it.each([
      ["abc", "PORT must be a whole number"],
      ["3.5", "PORT must be a whole number"],
      ["-1", "PORT must be at least 0"],
      ["65536", "PORT must be at most 65535"],
    ])("refuses %j", (port, message) => {
      expect(configError({ ...SLACK, PORT: port }).message).toBe(`Configuration error: ${message}`);
    });
  });

  describe("HTTP_HEADERS_TIMEOUT_MS and HTTP_REQUEST_TIMEOUT_MS", () => {
    it("take the ranges docs/operating.md states, the headers never longer than the request", async () => {
      const { readFileSync } = await import("node:fs");
      const doc = readFileSync(new URL("../docs/operating.md", import.meta.url), "utf8");
      const range = (name: string) =>
        /(\d+) to (\d+)/.exec(new RegExp(`^\\| \`${name}\` \\|.*$`, "m").exec(doc)?.[0] ?? "")?.slice(1);
      expect(range("HTTP_HEADERS_TIMEOUT_MS")).toEqual(["100", "600000"]);
      expect(range("HTTP_REQUEST_TIMEOUT_MS")).toEqual(["100", "3600000"]);
      const both = (headers: string, request: string) => ({
        ...SLACK,
        HTTP_HEADERS_TIMEOUT_MS: headers,
        HTTP_REQUEST_TIMEOUT_MS: request,
      });
      expect(loadConfig(both("100", "100")).http).toEqual({ headersTimeoutMs: 100, requestTimeoutMs: 100 });
      expect(loadConfig(both("600000", "3600000")).http.headersTimeoutMs).toBe(600_000);
      expect(configError(both("99", "30000")).message).toContain(
        "HTTP_HEADERS_TIMEOUT_MS must be at least 100",
      );
      expect(configError(both("10000", "3600001")).message).toContain(
        "HTTP_REQUEST_TIMEOUT_MS must be at most 3600000",
      );
      expect(configError(both("20000", "10000")).message).toContain(
        "HTTP_HEADERS_TIMEOUT_MS must not be longer than HTTP_REQUEST_TIMEOUT_MS",
      );
    });
  });

  describe("PAYMENTS_TIMEOUT_MS", () => {
    it.each([
      ["99", "PAYMENTS_TIMEOUT_MS must be at least 100"],
      ["120001", "PAYMENTS_TIMEOUT_MS must be at most 120000"],
      ["soon", "PAYMENTS_TIMEOUT_MS must be a whole number"],
    ])("refuses %j", (value, message) => {
      expect(configError({ ...SLACK, PAYMENTS_TIMEOUT_MS: value }).message).toBe(
        `Configuration error: ${message}`,
      );
    });
  });

  describe("per cash register limits", () => {
    it.each([
      ["PAYMENTS_RATE_PER_SECOND", "-1", "PAYMENTS_RATE_PER_SECOND must be at least 0"],
      ["PAYMENTS_RATE_PER_SECOND", "2.5", "PAYMENTS_RATE_PER_SECOND must be a whole number"],
      ["PAYMENTS_MAX_CONCURRENT", "1001", "PAYMENTS_MAX_CONCURRENT must be at most 1000"],
      ["PAYMENTS_MAX_QUEUE_MS", "a minute", "PAYMENTS_MAX_QUEUE_MS must be a whole number"],
    ])("%s refuses %j", (name, value, message) => {
      expect(configError({ ...SLACK, [name]: value }).message).toBe(`Configuration error: ${message}`);
    });
  });

  describe("PAYMETHODS_CACHE_TTL_MS", () => {
    it.each([
      ["-1", "PAYMETHODS_CACHE_TTL_MS must be at least 0"],
      ["86400001", "PAYMETHODS_CACHE_TTL_MS must be at most 86400000"],
      ["1m", "PAYMETHODS_CACHE_TTL_MS must be a whole number"],
    ])("refuses %j", (value, message) => {
      expect(configError({ ...SLACK, PAYMETHODS_CACHE_TTL_MS: value }).message).toBe(
        `Configuration error: ${message}`,
      );
    });
  });

  describe("BALANCE_CACHE_TTL_MS", () => {
    it("defaults to 15 s", () => {
      expect(loadConfig(SLACK).balanceCacheTtlMs).toBe(15_000);
    });
    it.each([
      ["-1", "BALANCE_CACHE_TTL_MS must be at least 0"],
      ["300001", "BALANCE_CACHE_TTL_MS must be at most 300000"],
      ["15s", "BALANCE_CACHE_TTL_MS must be a whole number"],
    ])("refuses %j", (value, message) => {
      expect(configError({ ...SLACK, BALANCE_CACHE_TTL_MS: value }).message).toBe(
        `Configuration error: ${message}`,
      );
    });
  });

  describe("PAYMENTS_API_VERSION", () => {
    it.each(["v2", "v3"] as const)("accepts %s", (version) => {
      expect(loadConfig({ ...SLACK, PAYMENTS_API_VERSION: version }).payments.apiVersion).toBe(version);
    });

    it.each(["v1", "v4", "V3", "3"])("refuses %j", (version) => {
      expect(configError({ ...SLACK, PAYMENTS_API_VERSION: version }).message).toBe(
        "Configuration error: PAYMENTS_API_VERSION must be v2 or v3",
      );
    });
  });

  describe("PAYMENTS_TIMEZONE", () => {
    it.each(["UTC", "Asia/Yekaterinburg", "Europe/Moscow"])("accepts %s", (zone) => {
      expect(loadConfig({ ...SLACK, PAYMENTS_TIMEZONE: zone }).payments.timeZone).toBe(zone);
    });

    it.each(["Mars/Olympus_Mons", "Moscow", "UTC+99"])("refuses %j", (zone) => {
      const error = configError({ ...SLACK, PAYMENTS_TIMEZONE: zone });
      expect(error.message).toBe(
        "Configuration error: PAYMENTS_TIMEZONE must be an IANA time zone such as Europe/Moscow or UTC",
      );
    });
  });

  describe("LOG_LEVEL", () => {
    it.each(["fatal", "error", "warn", "info", "debug", "trace", "silent"])("accepts %s", (level) => {
      expect(loadConfig({ ...SLACK, LOG_LEVEL: level }).logLevel).toBe(level);
    });

    it("accepts any case and surrounding spaces", () => {
      expect(loadConfig({ ...SLACK, LOG_LEVEL: " DEBUG " }).logLevel).toBe("debug");
    });

    it.each(["verbose", "warning", "10"])("refuses %j", (level) => {
      expect(configError({ ...SLACK, LOG_LEVEL: level }).message).toBe(
        "Configuration error: LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent",
      );
    });
  });

  describe("URLs", () => {
    it.each(["SLACK_API_URL", "PAYMENTS_API_URL"] as const)("adds a trailing slash to %s", (name) => {
      const config = loadConfig({ ...SLACK, [name]: "http://localhost:9999/base" });
      const url = name === "SLACK_API_URL" ? config.slack.apiUrl : config.payments.apiUrl;
      expect(url).toBe("http://localhost:9999/base/");
    });

    it("keeps an existing trailing slash single", () => {
      const config = loadConfig({ ...SLACK, PAYMENTS_API_URL: "https://payments.example/root/" });
      expect(config.payments.apiUrl).toBe("https://payments.example/root/");
    });

    it.each([
      ["SLACK_API_URL", "ftp://slack.example/api/"],
      ["SLACK_API_URL", "not a url"],
      ["PAYMENTS_API_URL", "file:///etc/passwd"],
      ["PAYMENTS_API_URL", "ws://payments.example/"],
      ["PAYMENTS_API_URL", "api.crystalpay.io"],
    ])("%s refuses %j", (name, value) => {
      const error = configError({ ...SLACK, [name]: value });
      expect(error.message).toBe(`Configuration error: ${name} must be an http(s) URL`);
    });
  });

  describe("STORE_URL", () => {
    const key = randomBytes(32).toString("base64");

    it.each([
      "mysql://db/kassa",
      "data/kassa.sqlite",
      "sqlite://",
      "redis://",
      "postgres://",
      "postgres://db:port/kassa",
      "REDIS://cache:6379",
    ])("refuses %j", (url) => {
      expect(configError({ ...SLACK, STORE_URL: url, CREDENTIALS_KEY: key }).message).toBe(
        "Configuration error: STORE_URL must be a sqlite://, redis://, rediss://, postgres:// or postgresql:// URL, e.g. sqlite://data/kassa.sqlite",
      );
    });

    it.each([
      "sqlite://data/kassa.sqlite",
      "redis://127.0.0.1:6379",
      "rediss://:secret@cache.example:6380/2",
      "postgres://kassa@db/kassa",
      "postgresql://kassa:secret@db:5432/kassa?sslmode=require",
    ])("accepts %j", (url) => {
      expect(loadConfig({ ...SLACK, STORE_URL: url, CREDENTIALS_KEY: key }).store.url).toBe(url);
    });

    it.each(["redis://127.0.0.1:6379", "postgres://kassa@db/kassa"])(
      "requires CREDENTIALS_KEY with %j (the key file is for SQLite only), for the CLI too",
      (url) => {
        const expected =
          "Configuration error: CREDENTIALS_KEY is required when STORE_URL is Redis or PostgreSQL (the key file fallback is for SQLite only; try: openssl rand -base64 32)";
        expect(configError({ ...SLACK, STORE_URL: url }).message).toBe(expected);
        expect(configError({ STORE_URL: url }, { requireSlack: false }).message).toBe(expected);
      },
    );

    it("leaves CREDENTIALS_KEY optional with SQLite (the key file fallback)", () => {
      expect(loadConfig({ ...SLACK, STORE_URL: "sqlite://data/kassa.sqlite" }).store.credentialsKey).toBe(
        undefined,
      );
    });
  });

  describe("CREDENTIALS_KEY", () => {
    it("accepts 64 hex digits", () => {
      const key = randomBytes(32);
      const config = loadConfig({ ...SLACK, CREDENTIALS_KEY: key.toString("hex").toUpperCase() });
      expect(config.store.credentialsKey?.equals(key)).toBe(true);
    });

    it("accepts base64, padded or not, and base64url", () => {
      const key = randomBytes(32);
      for (const text of [
        key.toString("base64"),
        key.toString("base64").replace(/=$/, ""),
        key.toString("base64url"),
        `  ${key.toString("base64")}\n`,
      ]) {
        expect(loadConfig({ ...SLACK, CREDENTIALS_KEY: text }).store.credentialsKey?.equals(key)).toBe(true);
      }
    });

    it.each([
      ["too short hex", randomBytes(31).toString("hex")],
      ["too long hex", randomBytes(33).toString("hex")],
      ["16-byte base64", randomBytes(16).toString("base64")],
      ["48-byte base64", randomBytes(48).toString("base64")],
      ["a passphrase", "correct horse battery staple, my secret key"],
    ])("refuses %s without echoing it", (_label, value) => {
      const error = configError({ ...SLACK, CREDENTIALS_KEY: value });
      expect(error.message).toBe(
        "Configuration error: CREDENTIALS_KEY must be 32 bytes written as 64 hex digits or base64 (try: openssl rand -base64 32)",
      );
      expect(error.message).not.toContain(value);
    });
  });

  it("reports several bad variables on one line, echoing none of the values", () => {
    const error = configError({ PORT: "x", LOG_LEVEL: "loud", CREDENTIALS_KEY: "hunter2-secret-ish" });
    expect(error.message).toContain("PORT must be a whole number");
    expect(error.message).toContain("LOG_LEVEL must be one of");
    expect(error.message).toContain("CREDENTIALS_KEY must be 32 bytes");
    expect(error.message).not.toContain("hunter2-secret-ish");
    expect(error.message).not.toContain("loud");
  });
});

describe("decodeKey", () => {
  it("decodes hex and base64 to the same 32 bytes", () => {
    const key = randomBytes(32);
    expect(decodeKey(key.toString("hex"))?.equals(key)).toBe(true);
    expect(decodeKey(key.toString("base64"))?.equals(key)).toBe(true);
  });

  it.each(["", "xyz", "0".repeat(63), "0".repeat(65), "!".repeat(44)])("returns undefined for %j", (text) => {
    expect(decodeKey(text)).toBeUndefined();
  });
});
