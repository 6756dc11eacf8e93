import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { CredentialsStore, StoreValueError } from "../../src/store/credentials.js";
import { SecretBox } from "../../src/store/crypto.js";
import { type KeyvStore, openStore } from "../../src/store/keyv.js";
import { Memo } from "../../src/store/memo.js";
import { RateLimiter } from "../../src/store/rate-limit.js";
import { settingsStoreFor } from "../../src/store/settings.js";

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
    vi.useRealTimers();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  for (const mode of ["memory", "store"] as const) {
    it(`${mode}: limits per user and per workspace, refusals use no quota, a new minute resets`, async () => {
      // The windows (a minute from each count's first request) are timed by the clock the library reads.
      vi.useFakeTimers({ toFake: ["Date"], now: 60_000 * 1000 });
      const limiter = new RateLimiter(mode === "store" ? store : undefined, {
        userPerMinute: 2,
        teamPerMinute: 3,
      });
      expect(await limiter.hit("T1", "U1")).toEqual({ limited: false });
      expect(await limiter.hit("T1", "U1")).toEqual({ limited: false });
      vi.advanceTimersByTime(15_000);
      expect(await limiter.hit("T1", "U1")).toEqual({ limited: true, scope: "user", retryAfterSeconds: 45 });
      expect(await limiter.hit("T1", "U2")).toEqual({ limited: false });
      expect(await limiter.hit("T1", "U3")).toEqual({ limited: true, scope: "team", retryAfterSeconds: 45 });
      expect(await limiter.hit("T2", "U1")).toEqual({ limited: false });
      vi.advanceTimersByTime(45_000);
      expect(await limiter.hit("T1", "U1")).toEqual({ limited: false });
    });

    it(`${mode}: 0 disables a limit`, async () => {
      const limiter = new RateLimiter(mode === "store" ? store : undefined, {
        userPerMinute: 0,
        teamPerMinute: 0,
      });
      for (let index = 0; index < 50; index += 1) expect((await limiter.hit("T1", "U1")).limited).toBe(false);
    });
  }
});

describe("SettingsStore", () => {
  it("reads a damaged value as an error, never as defaults, and forgets on update", async () => {
    const dir = mkdtempSync(join(tmpdir(), "kassa-settings-"));
    const store = await openStore(`sqlite://${join(dir, "kassa.sqlite")}`);
    try {
      const settings = settingsStoreFor(store, { memoMs: 60_000 });
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
