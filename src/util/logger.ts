import { randomBytes } from "node:crypto";
import { type Logger as BoltLogger, LogLevel } from "@slack/bolt";
import pino from "pino";

export type Logger = pino.Logger;

/**
 * Field names whose values never reach a log line, at the top of a logged object or up to three
 * levels down (pino's redaction works on paths; nothing we log nests deeper).
 */
const REDACTED = [
  "auth_secret",
  "secret",
  "token",
  "botToken",
  "bot_token",
  "signingSecret",
  "credentialsKey",
  "CREDENTIALS_KEY",
  "SLACK_BOT_TOKEN",
  "SLACK_SIGNING_SECRET",
  "authorization",
  "Authorization",
];

export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  const paths = REDACTED.flatMap((name) => [name, `*.${name}`, `*.*.${name}`]);
  return pino(
    {
      level,
      base: { app: "kassa" },
      redact: { paths, censor: "[redacted]" },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
    },
    destination,
  );
}

/** Short id a user can quote and an operator can grep for. */
export function newReference(): string {
  return randomBytes(4).toString("hex");
}

const TO_BOLT: Record<string, LogLevel> = {
  trace: LogLevel.DEBUG,
  debug: LogLevel.DEBUG,
  info: LogLevel.INFO,
  warn: LogLevel.WARN,
  error: LogLevel.ERROR,
  fatal: LogLevel.ERROR,
  silent: LogLevel.ERROR,
};

/** Bolt's own messages go through the same JSON logger, under component "bolt". */
export function boltLogger(logger: Logger): BoltLogger {
  let child = logger.child({ component: "bolt" });
  const write =
    (method: "debug" | "info" | "warn" | "error") =>
    (...messages: unknown[]) => {
      child[method](
        messages.map((message) => (message instanceof Error ? message.message : String(message))).join(" "),
      );
    };
  return {
    debug: write("debug"),
    info: write("info"),
    warn: write("warn"),
    error: write("error"),
    setLevel: () => {},
    getLevel: () => TO_BOLT[logger.level] ?? LogLevel.INFO,
    setName: (name: string) => {
      child = logger.child({ component: name });
    },
  };
}
