import { mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { openStore } from "../../src/store/keyv.js";

const dir = mkdtempSync(join(tmpdir(), "kassa-mode-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const modeOf = (path: string) => statSync(path).mode & 0o777;

describe("the SQLite database's file modes", () => {
  it("creates the database, -wal and -shm readable by their owner only, whatever the umask", async () => {
    const path = join(dir, "new.sqlite");
    const previous = process.umask(0o022);
    try {
      const store = await openStore(`sqlite://${path}`);
      await store.namespace("t").set("k", "v");
      for (const file of [path, `${path}-wal`, `${path}-shm`]) expect(modeOf(file)).toBe(0o600);
      await store.close();
    } finally {
      process.umask(previous);
    }
  });

  it("tightens a database an older version left world-readable", async () => {
    const path = join(dir, "old.sqlite");
    writeFileSync(path, "", { mode: 0o644 });
    writeFileSync(`${path}-wal`, "", { mode: 0o644 });
    const store = await openStore(`sqlite://${path}`);
    await store.namespace("t").set("k", "v");
    expect(modeOf(path)).toBe(0o600);
    expect(modeOf(`${path}-wal`)).toBe(0o600);
    expect(modeOf(`${path}-shm`)).toBe(0o600);
    await store.close();
  });
});
