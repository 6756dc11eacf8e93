import { spawn } from "node:child_process";
import { copyFileSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { CredentialsStore } from "../../src/store/credentials.js";
import { SecretBox } from "../../src/store/crypto.js";
import { type KeyvStore, openStore } from "../../src/store/keyv.js";
import { settingsStoreFor } from "../../src/store/settings.js";
import { openSqliteDatabase } from "../../src/store/sqlite.js";

// test/fixtures/sqlite3-5.1.7-killed.db (+ -wal) was written by Kassa at 3556f5d with the old driver
// (sqlite3 5.1.7 under @keyv/sqlite 4.0.8): two workspaces' sealed credentials (key: 32 bytes of 7),
// one workspace's settings, a cache entry and a claim; then the process was killed with SIGKILL before
// closing, so the last commits were still in the -wal file, as after a crash.
const FIXTURE = join(import.meta.dirname, "../fixtures/sqlite3-5.1.7-killed.db");
const OLD_KEY = Buffer.alloc(32, 7);

let dir: string;
let store: KeyvStore | undefined;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "kassa-upgrade-"));
});
afterEach(async () => {
  await store?.close();
  store = undefined;
  rmSync(dir, { recursive: true, force: true });
});

describe("a database written by the old SQLite driver", () => {
  it("opens with the new driver and keeps its credentials, settings, cache and claims", async () => {
    const path = join(dir, "kassa.sqlite");
    copyFileSync(FIXTURE, path);
    copyFileSync(`${FIXTURE}-wal`, `${path}-wal`);
    store = await openStore(`sqlite://${path}`);
    const credentials = new CredentialsStore(store.namespace("credentials"), new SecretBox(OLD_KEY));

    const first = await credentials.get("T0OLDDRIVER");
    expect(first).toMatchObject({ login: "old-login", apiVersion: "v3", connectedBy: "U0ADMIN" });
    expect(first?.account.secret).toBe("old-secret-value");
    expect((await credentials.get("T0SECOND"))?.account.secret).toBe("second-secret");
    expect((await credentials.list()).map((row) => row.teamId)).toEqual(["T0OLDDRIVER", "T0SECOND"]);

    expect(await settingsStoreFor(store).get("T0OLDDRIVER")).toEqual({
      replyVisibility: "private",
      invoiceCreators: "everyone",
    });
    expect(await store.namespace("cache").get("answer")).toEqual({ text: "cached" });
    // The old driver's claim is still in force: nobody claims the same event again.
    expect(await store.claimOnce("event:Ev0FIXTURE", 60_000)).toBe(false);
    expect(await store.claimOnce("event:Ev0NEW", 60_000)).toBe(true);

    // Written by the new driver, read back; the file stays the owner's only.
    await credentials.set("T0NEW", { login: "new-login", secret: "new-secret" });
    expect((await credentials.get("T0NEW"))?.account.secret).toBe("new-secret");
    expect(statSync(path).mode & 0o777).toBe(0o600);
  });

  it("passes SQLite's integrity check after the upgrade", async () => {
    const path = join(dir, "kassa.sqlite");
    copyFileSync(FIXTURE, path);
    copyFileSync(`${FIXTURE}-wal`, `${path}-wal`);
    store = await openStore(`sqlite://${path}`);
    await store.ping();
    const db = new Database(path, { readonly: true });
    try {
      expect(db.pragma("integrity_check")).toEqual([{ integrity_check: "ok" }]);
      expect(db.pragma("journal_mode")).toEqual([{ journal_mode: "wal" }]);
    } finally {
      db.close();
    }
  });
});

describe("the new driver after kill -9", () => {
  it("runs in WAL mode with synchronous=NORMAL: no commit waits for an fsync on the event loop", () => {
    const db = openSqliteDatabase(join(dir, "kassa.sqlite"), 5000);
    try {
      expect(db.pragma("journal_mode", { simple: true })).toBe("wal");
      // 1 = NORMAL (2 would be FULL, SQLite's default: an fsync per commit).
      expect(db.pragma("synchronous", { simple: true })).toBe(1);
    } finally {
      db.close();
    }
  });

  it("keeps every write that was acknowledged before the process was killed", async () => {
    const path = join(dir, "kassa.sqlite");
    // A child process writes 200 entries, says how many were written, and is killed mid-way.
    const script = `
      import { openStore } from ${JSON.stringify(new URL("../../src/store/keyv.ts", import.meta.url).href)};
      const store = await openStore(${JSON.stringify(`sqlite://${path}`)});
      const keyv = store.namespace("cache", { durability: "process" });
      for (let i = 0; ; i++) { await keyv.set("k" + i, { i }); process.stdout.write(i + "\\n"); }
    `;
    const child = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    let acknowledged = -1;
    await new Promise<void>((resolve) => {
      child.stdout.on("data", (chunk: Buffer) => {
        const lines = chunk.toString().trim().split("\n");
        acknowledged = Number(lines.at(-1));
        if (acknowledged >= 200 && child.exitCode === null) {
          child.kill("SIGKILL");
        }
      });
      child.on("exit", () => resolve());
    });
    expect(acknowledged).toBeGreaterThanOrEqual(200);

    store = await openStore(`sqlite://${path}`);
    const keyv = store.namespace("cache");
    for (let i = 0; i <= acknowledged; i += 1) expect(await keyv.get(`k${i}`), `k${i}`).toEqual({ i });
    const db = new Database(path, { readonly: true });
    try {
      expect(db.pragma("integrity_check")).toEqual([{ integrity_check: "ok" }]);
    } finally {
      db.close();
    }
  });
});
