import { describe, expect, it } from "vitest";
import { createLogger, newReference } from "../../src/util/logger.js";

function capture(level = "info") {
  const raw: string[] = [];
  const logger = createLogger(level, { write: (line: string) => raw.push(line) });
  const lines = () => raw.map((line) => JSON.parse(line) as Record<string, unknown>);
  return { logger, raw, lines };
}

const REDACTED = "[redacted]";

describe("createLogger", () => {
  it("writes one JSON line per entry with level label, app and ISO time", () => {
    const { logger, raw, lines } = capture();
    logger.info({ teamId: "T123ABC" }, "hello");
    expect(raw).toHaveLength(1);
    expect(raw[0]?.endsWith("\n")).toBe(true);
    expect(lines()[0]).toEqual({
      level: "info",
      time: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
      app: "kassa",
      teamId: "T123ABC",
      msg: "hello",
    });
  });

  it("drops entries below its level", () => {
    const { logger, lines } = capture("warn");
    logger.info("quiet");
    logger.debug("quieter");
    logger.warn("loud");
    expect(lines().map((line) => line.msg)).toEqual(["loud"]);
    expect(lines()[0]?.level).toBe("warn");
  });

  it.each([
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
  ])("redacts %s at the top level, one and two levels down", (name) => {
    const value = `value-of-${name}-4f1c`;
    const { logger, raw, lines } = capture();
    logger.info({ [name]: value, keep: "visible" }, "top");
    logger.info({ outer: { [name]: value, keep: "visible" } }, "nested");
    logger.info({ outer: { inner: { [name]: value, keep: "visible" } } }, "deeper");
    expect(raw.join("")).not.toContain(value);
    const [top, nested, deeper] = lines();
    expect(top?.[name]).toBe(REDACTED);
    expect(top?.keep).toBe("visible");
    expect(nested?.outer).toEqual({ [name]: REDACTED, keep: "visible" });
    expect(deeper?.outer).toEqual({ inner: { [name]: REDACTED, keep: "visible" } });
  });

  it("redacts the examples from the brief", () => {
    const { logger, raw, lines } = capture();
    logger.info({ auth_secret: "s1-secret", token: "xoxb-s2-token" }, "top");
    logger.info({ account: { login: "shop", secret: "x-secret-x" } }, "account");
    logger.info(
      { config: { slack: { signingSecret: "s3-sign" }, store: { credentialsKey: "s4-key" } } },
      "config",
    );
    const text = raw.join("");
    for (const secret of ["s1-secret", "xoxb-s2-token", "x-secret-x", "s3-sign", "s4-key"]) {
      expect(text).not.toContain(secret);
    }
    const [top, account, config] = lines();
    expect(top).toMatchObject({ auth_secret: REDACTED, token: REDACTED });
    expect(account?.account).toEqual({ login: "shop", secret: REDACTED });
    expect(config?.config).toEqual({
      slack: { signingSecret: REDACTED },
      store: { credentialsKey: REDACTED },
    });
  });

  it("redacts inside arrays of objects", () => {
    const { logger, raw, lines } = capture();
    logger.info({ accounts: [{ login: "a", secret: "array-secret-1" }] }, "list");
    expect(raw.join("")).not.toContain("array-secret-1");
    expect(lines()[0]?.accounts).toEqual([{ login: "a", secret: REDACTED }]);
  });

  it("redacts a request body logged by the payments code", () => {
    const { logger, raw, lines } = capture();
    logger.warn({ request: { auth_login: "shop", auth_secret: "body-secret-9", id: "x" } }, "request");
    expect(raw.join("")).not.toContain("body-secret-9");
    expect(lines()[0]?.request).toEqual({ auth_login: "shop", auth_secret: REDACTED, id: "x" });
  });

  it("redacts secrets in child bindings and in logged errors", () => {
    const { logger, raw, lines } = capture();
    logger.child({ token: "child-token-7" }).info("child");
    logger.error({ err: Object.assign(new Error("boom"), { secret: "error-secret-8" }) }, "failed");
    expect(raw.join("")).not.toContain("child-token-7");
    expect(raw.join("")).not.toContain("error-secret-8");
    const [child, failed] = lines();
    expect(child?.token).toBe(REDACTED);
    expect(failed?.err).toMatchObject({ message: "boom", secret: REDACTED });
  });

  it("does not mutate the logged object", () => {
    const { logger } = capture();
    const payload = { account: { secret: "kept-in-memory" } };
    logger.info(payload, "x");
    expect(payload.account.secret).toBe("kept-in-memory");
  });
});

describe("newReference", () => {
  it("is 8 hex digits and differs between calls", () => {
    const references = Array.from({ length: 50 }, () => newReference());
    for (const reference of references) expect(reference).toMatch(/^[0-9a-f]{8}$/);
    expect(new Set(references).size).toBe(50);
  });
});
