import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Keyv from "keyv";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { CredentialsStore, StoreValueError } from "../../src/store/credentials.js";
import { SecretBox } from "../../src/store/crypto.js";
import { type KeyvStore, openStore } from "../../src/store/keyv.js";
import { Memo } from "../../src/store/memo.js";
import { RateLimiter } from "../../src/store/rate-limit.js";
import { SettingsStore } from "../../src/store/settings.js";

describe("Memo", () => {
  it("remembers for its time, then forgets; delete and ttl 0 work", () => {
    let now = 1000;
    const memo = new Memo<string | undefined>(100, () => now);
    expect(memo.get("a", "missing")).toBe("missing");
    memo.set("a", undefined);
    expect(memo.get("a", "missing")).toBeUndefined();
    now += 99;
    expect(memo.get("a", "missing")).toBeUndefined();
    now += 1;
    expect(memo.get("a", "missing")).toBe("missing");
    memo.set("b", "x");
    memo.delete("b");
    expect(memo.get("b", "missing")).toBe("missing");
    memo.set("c", "x", 0);
    expect(memo.get("c", "missing")).toBe("missing");
  });
});

describe("RateLimiter", () => {
  let dir: string;
  let store: KeyvStore;
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), "kassa-limits-"));
    store = await openStore(`sqlite://${join(dir, "kassa.sqlite")}`);
  });
  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  for (const mode of ["memory", "store"] as const) {
    it(`${mode}: limits per user and per workspace, refusals use no quota, a new minute resets`, async () => {
      let now = 60_000 * 1000 + 15_000;
      const limiter = new RateLimiter(
        mode === "store" ? store.namespace("rate") : undefined,
        { userPerMinute: 2, teamPerMinute: 3 },
        () => now,
      );
      expect(await limiter.hit("T1", "U1")).toEqual({ limited: false });
      expect(await limiter.hit("T1", "U1")).toEqual({ limited: false });
      expect(await limiter.hit("T1", "U1")).toEqual({ limited: true, scope: "user", retryAfterSeconds: 45 });
      expect(await limiter.hit("T1", "U2")).toEqual({ limited: false });
      expect(await limiter.hit("T1", "U3")).toEqual({ limited: true, scope: "team", retryAfterSeconds: 45 });
      expect(await limiter.hit("T2", "U1")).toEqual({ limited: false });
      now += 45_000;
      expect(await limiter.hit("T1", "U1")).toEqual({ limited: false });
    });

    it(`${mode}: 0 disables a limit`, async () => {
      const limiter = new RateLimiter(mode === "store" ? store.namespace("rate") : undefined, {
        userPerMinute: 0,
        teamPerMinute: 0,
      });
      for (let index = 0; index < 50; index += 1) expect((await limiter.hit("T1", "U1")).limited).toBe(false);
    });
  }

  it("store: when the store fails, the hits that were waiting fail with it at once; a later hit asks again", async () => {
    let failing = true;
    let asked = 0;
    // A store whose every call fails after 100 ms, as a hung one does once STORE_TIMEOUT_MS runs out.
    const adapter = new Map<string, unknown>();
    const keyv = new Keyv({
      store: {
        get: async (key: string) => {
          asked += 1;
          if (failing)
            await new Promise((_, reject) => setTimeout(() => reject(new Error("store timed out")), 100));
          return adapter.get(key);
        },
        set: async (key: string, value: unknown) => void adapter.set(key, value),
        delete: async (key: string) => adapter.delete(key),
        clear: async () => adapter.clear(),
      },
      throwOnErrors: true,
    });
    const limiter = new RateLimiter(keyv, { userPerMinute: 100, teamPerMinute: 1000 });
    const started = performance.now();
    const results = await Promise.allSettled(
      Array.from({ length: 20 }, (_, index) => limiter.hit("T1", `U${index}`)),
    );
    expect(results.every((result) => result.status === "rejected")).toBe(true);
    // One turn of the store's time-out, not twenty in a row; only the first hit asked the store.
    expect(performance.now() - started).toBeLessThan(1000);
    expect(asked).toBe(2);
    failing = false;
    expect(await limiter.hit("T1", "U1")).toEqual({ limited: false });
  });

  it("store: simultaneous hits in one process are counted one by one", async () => {
    const limiter = new RateLimiter(store.namespace("rate"), { userPerMinute: 5, teamPerMinute: 0 });
    const verdicts = await Promise.all(Array.from({ length: 8 }, () => limiter.hit("T1", "U1")));
    expect(verdicts.filter((verdict) => !verdict.limited)).toHaveLength(5);
  });
});

describe("SettingsStore", () => {
  it("reads a damaged value as an error, never as defaults, and forgets on update", async () => {
    const dir = mkdtempSync(join(tmpdir(), "kassa-settings-"));
    const store = await openStore(`sqlite://${join(dir, "kassa.sqlite")}`);
    try {
      const settings = new SettingsStore(store.namespace("settings"), 60_000);
      expect(await settings.get("T1")).toEqual({});
      await settings.update("T1", { replyVisibility: "private" });
      expect(await settings.get("T1")).toEqual({ replyVisibility: "private" });
      await store.namespace("settings").set("T2", { replyVisibility: "everywhere" });
      await expect(settings.get("T2")).rejects.toThrow(StoreValueError);
    } finally {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("CredentialsStore memory", () => {
  it("reuses a read for its time, and forgets at once on set and remove", async () => {
    const dir = mkdtempSync(join(tmpdir(), "kassa-memo-"));
    const store = await openStore(`sqlite://${join(dir, "kassa.sqlite")}`);
    try {
      const box = new SecretBox(Buffer.alloc(32, 4));
      const remembering = new CredentialsStore(store.namespace("credentials"), box, 60_000);
      const other = new CredentialsStore(store.namespace("credentials"), box);
      expect(await remembering.get("T1")).toBeUndefined();
      // Another process connects it: the remembered "not connected" holds until it expires...
      await other.set("T1", { login: "a", secret: "s1" });
      expect(await remembering.get("T1")).toBeUndefined();
      // ...but a change through this store applies at once.
      await remembering.set("T1", { login: "b", secret: "s2" });
      expect((await remembering.get("T1"))?.account).toEqual({
        login: "b",
        secret: "s2",
        apiVersion: undefined,
      });
      await remembering.remove("T1");
      expect(await remembering.get("T1")).toBeUndefined();
    } finally {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
