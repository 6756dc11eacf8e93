import { EventEmitter } from "node:events";
import { describe, expect, it } from "vitest";
import { MAX_CLOCK_SKEW_SECONDS, screenSlackRequest } from "../../src/edge/request-guard.js";
import { installCrashGuards } from "../../src/process/crash-guard.js";
import { createLogger } from "../../src/util/logger.js";

const FORM = "application/x-www-form-urlencoded";
const NOW = 1_800_000_000;

describe("screenSlackRequest", () => {
  it("lets slash commands, interactivity payloads and event objects through", () => {
    expect(screenSlackRequest(FORM, "command=%2Finvoice&text=1&team_id=T0A", String(NOW), NOW)).toEqual({
      ok: true,
    });
    expect(
      screenSlackRequest(FORM, `payload=${encodeURIComponent('{"type":"block_actions"}')}`, String(NOW), NOW),
    ).toEqual({
      ok: true,
    });
    expect(screenSlackRequest("application/json", '{"type":"event_callback"}', String(NOW), NOW)).toEqual({
      ok: true,
    });
  });

  it("reads a form whatever the case of its Content-Type, and with a charset", () => {
    for (const type of [
      `${FORM}; charset=utf-8`,
      "Application/X-WWW-Form-Urlencoded",
      ` ${FORM} ;charset=UTF-8`,
    ])
      expect(
        screenSlackRequest(type, "command=%2Finvoice&text=1&team_id=T0A", String(NOW), NOW),
        type,
      ).toEqual({
        ok: true,
      });
    expect(
      screenSlackRequest(`${FORM}; charset=utf-8`, "command=%2Finvoice&text=1", String(NOW), NOW),
    ).toEqual({
      ok: false,
      status: 400,
      reason: "slash command without a team_id",
    });
  });

  it("refuses a slash command that names no workspace (no team_id) as a bad request", () => {
    for (const body of [
      "command=%2Finvoice&text=1",
      "command=%2Finvoice&team_id=",
      "command=%2Finvoice&team_id=a&team_id=b",
    ]) {
      expect(screenSlackRequest(FORM, body, String(NOW), NOW), body).toEqual({
        ok: false,
        status: 400,
        reason: "slash command without a team_id",
      });
    }
  });

  it("refuses bodies that are not a JSON object: null, arrays, strings, numbers, broken JSON", () => {
    for (const body of ["null", "[]", '"x"', "1", "{", ""]) {
      expect(screenSlackRequest("application/json", body, String(NOW), NOW)).toMatchObject({
        ok: false,
        status: 400,
      });
      expect(screenSlackRequest(FORM, `payload=${encodeURIComponent(body)}`, String(NOW), NOW)).toMatchObject(
        {
          ok: false,
          status: 400,
        },
      );
    }
    expect(screenSlackRequest(FORM, "payload=a&payload=b", String(NOW), NOW)).toMatchObject({
      ok: false,
      status: 400,
    });
  });

  it("refuses a timestamp more than five minutes ahead and leaves the past to Bolt", () => {
    const ahead = String(NOW + MAX_CLOCK_SKEW_SECONDS + 1);
    expect(screenSlackRequest(FORM, "text=1", ahead, NOW)).toMatchObject({ ok: false, status: 401 });
    expect(screenSlackRequest(FORM, "text=1", String(NOW + MAX_CLOCK_SKEW_SECONDS), NOW)).toEqual({
      ok: true,
    });
    expect(screenSlackRequest(FORM, "text=1", String(NOW - 3600), NOW)).toEqual({ ok: true });
    expect(screenSlackRequest(FORM, "text=1", undefined, NOW)).toEqual({ ok: true });
  });
});

describe("installCrashGuards", () => {
  it("logs a stray rejection or exception with a reference instead of letting it end the process", () => {
    const lines: string[] = [];
    const logger = createLogger("info", { write: (line: string) => void lines.push(line) });
    const target = new EventEmitter();
    const remove = installCrashGuards(logger, target);
    target.emit("unhandledRejection", new Error("boom"), Promise.resolve());
    target.emit("uncaughtException", new Error("bang"));
    const entries = lines.map(
      (line) => JSON.parse(line) as { msg: string; reference?: string; err?: { message?: string } },
    );
    expect(entries.map((entry) => entry.msg)).toEqual([
      "unhandled rejection; still serving",
      "uncaught exception; still serving",
    ]);
    expect(entries.every((entry) => /^[0-9a-f]{8}$/.test(entry.reference ?? ""))).toBe(true);
    expect(entries[1]?.err?.message).toBe("bang");
    remove();
    expect(target.listenerCount("uncaughtException")).toBe(0);
  });
});
