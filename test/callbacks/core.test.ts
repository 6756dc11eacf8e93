import { createHash } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { callbackUrl } from "../../src/callbacks/keys.js";
import { parseCallback } from "../../src/callbacks/payload.js";
import { CALLBACK_PATH_PREFIX, callbackListener } from "../../src/callbacks/receive.js";
import { callbackSignature, signatureMatches } from "../../src/callbacks/signature.js";
import { callbackKeysFor } from "../../src/store/callback-keys.js";
import { type KeyvStore, openStore } from "../../src/store/keyv.js";
import { createLogger } from "../../src/util/logger.js";
import { RefusalSummary } from "../../src/util/refusal-summary.js";

const SALT = "second-key-of-the-register";

const dir = mkdtempSync(join(tmpdir(), "kassa-callbacks-"));
const opened: KeyvStore[] = [];
let stores = 0;
afterAll(async () => {
  for (const store of opened) await store.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Callback keys in an SQLite store of their own (the engines are tested in test/store/). */
async function freshKeys() {
  stores += 1;
  const store = await openStore(`sqlite://${join(dir, `keys-${stores}.sqlite`)}`);
  opened.push(store);
  return callbackKeysFor(store, 3000);
}

describe("callback signature", () => {
  it("is sha1(id:salt) in lowercase hex, as the service's own sample computes it", () => {
    const id = "123456789_abcdefghij";
    const expected = createHash("sha1").update(`${id}:${SALT}`).digest("hex");
    expect(callbackSignature(id, SALT)).toBe(expected);
    expect(callbackSignature(id, SALT)).toMatch(/^[0-9a-f]{40}$/);
  });

  it("matches only the right id and salt; upper-case hex is the same signature", () => {
    const signature = callbackSignature("700_a", SALT);
    expect(signatureMatches("700_a", signature, SALT)).toBe(true);
    expect(signatureMatches("700_a", signature.toUpperCase(), SALT)).toBe(true);
    expect(signatureMatches("700_b", signature, SALT)).toBe(false);
    expect(signatureMatches("700_a", signature, "other salt")).toBe(false);
    expect(signatureMatches("700_a", signature.slice(0, 39), SALT)).toBe(false);
    expect(signatureMatches("700_a", "", SALT)).toBe(false);
  });
});

describe("callback body", () => {
  const signature = callbackSignature("700_a", SALT);
  it("reads the id and the signature from a v2 JSON body, ignoring its amounts", () => {
    const body = JSON.stringify({ id: "700_a", state: "payed", amount: 1500, rub_amount: 1500, signature });
    expect(parseCallback("application/json", body)).toEqual({
      ok: true,
      callback: { invoiceId: "700_a", signature },
    });
  });

  it("reads a v3-shaped body (strings, nulls) and a form-encoded one", () => {
    const v3 = JSON.stringify({ id: "700_a", amount: "15.5", final_at: null, method: null, signature });
    expect(parseCallback("application/json; charset=utf-8", v3)).toMatchObject({ ok: true });
    expect(
      parseCallback("application/x-www-form-urlencoded", `id=700_a&state=payed&signature=${signature}`),
    ).toEqual({ ok: true, callback: { invoiceId: "700_a", signature } });
  });

  it("refuses a body without an id or signature, with a bad one, or that is not JSON", () => {
    expect(parseCallback("application/json", JSON.stringify({ id: "700_a" }))).toEqual({
      ok: false,
      reason: "no valid signature",
    });
    expect(parseCallback("application/json", JSON.stringify({ signature }))).toMatchObject({ ok: false });
    expect(parseCallback("application/json", JSON.stringify({ id: "../x", signature }))).toMatchObject({
      ok: false,
    });
    expect(parseCallback("application/json", "<html>")).toEqual({
      ok: false,
      reason: "body is neither JSON nor a form",
    });
    expect(parseCallback("application/json", "null")).toMatchObject({ ok: false });
  });
});

describe("callback keys", () => {
  it("gives each workspace a random key, routes it back, and rotates it (the old one stops at once)", async () => {
    const keys = await freshKeys();
    const first = await keys.keyOf("T0A");
    expect(first).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(first).not.toContain("T0A");
    expect(await keys.keyOf("T0A")).toBe(first);
    expect(await keys.keyOf("T0B")).not.toBe(first);
    expect(await keys.teamOf(first)).toBe("T0A");
    const second = await keys.rotate("T0A");
    expect(second).not.toBe(first);
    expect(await keys.teamOf(first)).toBeUndefined();
    expect(await keys.teamOf(second)).toBe("T0A");
    await keys.remove("T0A");
    expect(await keys.teamOf(second)).toBeUndefined();
    expect(await keys.teamOf("T0A")).toBeUndefined();
  });

  it("builds the address under PUBLIC_URL, with or without a path or a trailing slash", () => {
    expect(callbackUrl("https://kassa.example.com", "k".repeat(32))).toBe(
      `https://kassa.example.com/crystalpay/callback/${"k".repeat(32)}`,
    );
    expect(callbackUrl("https://example.com/kassa/", "abc")).toBe(
      "https://example.com/kassa/crystalpay/callback/abc",
    );
  });
});

describe("receiving a callback (a real HTTP server)", () => {
  let server: Server | undefined;
  const summaries: RefusalSummary[] = [];
  afterEach(async () => {
    for (const summary of summaries.splice(0)) summary.close();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    server = undefined;
  });

  async function start(salt: string | null = SALT) {
    const keys = await freshKeys();
    const key = await keys.keyOf("T0A");
    const nudges: string[] = [];
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const lines: Array<Record<string, unknown>> = [];
    const logger = createLogger("info", { write: (line: string) => void lines.push(JSON.parse(line)) });
    const refusals = new RefusalSummary(logger, 3_600_000);
    summaries.push(refusals);
    const listener = callbackListener({
      keys,
      saltOf: async (team) => (team === "T0A" ? (salt ?? undefined) : undefined),
      nudgePayout: async (register, payout) => {
        nudges.push(`${register}:payout:${payout}`);
      },
      nudge: async (team, invoice) => {
        nudges.push(`${team}:${invoice}`);
        await gate;
      },
      logger,
      refusals,
    });
    server = createServer(listener);
    await new Promise<void>((resolve) => server?.listen(0, "127.0.0.1", resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}${CALLBACK_PATH_PREFIX}`;
    const post = (path: string, body: string, type = "application/json") =>
      fetch(base + path, { method: "POST", body, headers: { "content-type": type } });
    return { key, nudges, release, lines, post, refusals };
  }

  it("answers 200 at once to a signed callback, then nudges once per invoice in flight", async () => {
    const { key, nudges, release, post } = await start();
    const body = JSON.stringify({ id: "700_a", state: "payed", signature: callbackSignature("700_a", SALT) });
    const first = await post(key, body);
    expect(first.status).toBe(200);
    expect(await first.text()).toBe("OK");
    // Delivered again while the first is being looked at: answered, and joined.
    expect((await post(key, body)).status).toBe(200);
    expect(nudges).toEqual(["T0A:700_a"]);
    release();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect((await post(key, body)).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(nudges).toEqual(["T0A:700_a", "T0A:700_a"]);
  });

  it("404 for an unknown key or a workspace without Secret 2; 403 for a wrong or missing signature, summed up in one warning", async () => {
    const { key, nudges, lines, post, refusals } = await start();
    const good = callbackSignature("700_a", SALT);
    expect((await post("x".repeat(32), JSON.stringify({ id: "700_a", signature: good }))).status).toBe(404);
    expect(
      (await post(key, JSON.stringify({ id: "700_a", signature: callbackSignature("700_a", "x") }))).status,
    ).toBe(403);
    expect((await post(key, JSON.stringify({ id: "700_a" }))).status).toBe(403);
    // Signed for another invoice: the signature covers the id only, so it proves nothing for this one.
    expect((await post(key, JSON.stringify({ id: "700_b", signature: good }))).status).toBe(403);
    expect(nudges).toEqual([]);
    // Nothing is written per request: a flood of bad callbacks is not a flood of lines.
    expect(lines.filter((line) => line.level !== "info" || line.outcome !== "callback_accepted")).toEqual([]);
    refusals.flush();
    expect(lines).toEqual([
      expect.objectContaining({
        level: "warn",
        outcome: "callbacks_refused",
        teamId: "T0A",
        refused: 3,
        reasons: { "wrong signature": 2, "no valid signature": 1 },
      }),
      expect.objectContaining({
        level: "info",
        outcome: "requests_refused",
        refused: 1,
        reasons: { "unknown callback address": 1 },
      }),
    ]);
    expect(JSON.stringify(lines)).not.toContain(SALT);
    // Nothing more counted: the next summary writes nothing.
    refusals.flush();
    expect(lines).toHaveLength(2);
  });

  it("refuses a body over 64 KB with 413, and a workspace that has no Secret 2 with 404", async () => {
    const { key, post } = await start();
    const big = JSON.stringify({
      id: "700_a",
      signature: callbackSignature("700_a", SALT),
      pad: "x".repeat(70_000),
    });
    expect((await post(key, big)).status).toBe(413);
    await new Promise<void>((resolve) => server?.close(() => resolve()));
    const other = await start(null);
    expect((await other.post(other.key, JSON.stringify({ id: "700_a" }))).status).toBe(404);
  });
});
