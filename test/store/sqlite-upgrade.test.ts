import { spawn } from "node:child_process";
import { copyFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type KeyvStore, openStore } from "../../src/store/keyv.js";
import { SchemaTooOldError, UPGRADING_RELEASE } from "../../src/store/schema/version.js";
import { openSqliteDatabase } from "../../src/store/sqlite.js";

// test/fixtures/sqlite3-5.1.7-killed.db (+ -wal) was written by Kassa at 3556f5d with the old driver
// (sqlite3 5.1.7 under @keyv/sqlite 4.0.8): two workspaces' sealed credentials (key: 32 bytes of 7),
// one workspace's settings, a cache entry and a claim; then the process was killed with SIGKILL before
// closing, so the last commits were still in the -wal file, as after a crash.
const FIXTURE = join(import.meta.dirname, "../fixtures/sqlite3-5.1.7-killed.db");

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
  // Written before the schema version (3556f5d, before c6ce3d1): this release no longer upgrades it.
  it("is refused with the release that upgrades it, its rows kept and the file sound", async () => {
    const path = join(dir, "kassa.sqlite");
    copyFileSync(FIXTURE, path);
    copyFileSync(`${FIXTURE}-wal`, `${path}-wal`);
    const refusal = await openStore(`sqlite://${path}`).then(
      (opened) => {
        store = opened;
        return undefined;
      },
      (error: unknown) => error,
    );
    expect(refusal).toBeInstanceOf(SchemaTooOldError);
    expect((refusal as Error).message).toContain(`start release ${UPGRADING_RELEASE} on it once`);
    const db = new Database(path, { readonly: true });
    try {
      expect(db.pragma("integrity_check")).toEqual([{ integrity_check: "ok" }]);
      const keys = db.prepare("SELECT key FROM keyv ORDER BY key").all() as Array<{ key: string }>;
      expect(keys.map((row) => row.key)).toEqual(
        expect.arrayContaining(["credentials:T0OLDDRIVER", "credentials:T0SECOND", "settings:T0OLDDRIVER"]),
      );
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
