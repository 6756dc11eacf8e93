/**
 * Atomic keys on every engine: one winner among concurrent callers on two connections (two
 * replicas), one take per put, expiry. Redis and PostgreSQL when TEST_REDIS_URL / TEST_POSTGRES_URL
 * are set; SQLite's are in memory (one process serves a database file).
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { type KeyvStore, openStore } from "../../src/store/keyv.js";

const dir = mkdtempSync(join(tmpdir(), "kassa-atomic-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const redisUrl = process.env.TEST_REDIS_URL?.trim() || undefined;
const postgresUrl = process.env.TEST_POSTGRES_URL?.trim() || undefined;
const ENGINES = [
  { name: "sqlite", url: `sqlite://${join(dir, "kassa.sqlite")}`, shared: false },
  { name: "redis", url: redisUrl, shared: true },
  { name: "postgres", url: postgresUrl, shared: true },
];
for (const engine of ENGINES) {
  if (!engine.url)
    console.log(`atomic keys: skipping ${engine.name} (TEST_${engine.name.toUpperCase()}_URL not set)`);
}

describe.each(ENGINES)("atomic keys on $name", ({ url, shared }) => {
  const open = async (): Promise<[KeyvStore, KeyvStore]> => {
    const first = await openStore(url ?? "");
    return [first, shared ? await openStore(url ?? "") : first];
  };
  // Each run uses fresh names: the servers are shared with other tests and engineers.
  const name = `test-atomic-${randomBytes(4).toString("hex")}`;

  it.skipIf(!url)("lets exactly one of many concurrent claims win, across connections", async () => {
    const [a, b] = await open();
    try {
      const claims = await Promise.all(
        Array.from({ length: 20 }, (_, i) => (i % 2 ? a : b).atomic(name).claim("Ev123", 60_000)),
      );
      expect(claims.filter(Boolean)).toHaveLength(1);
      expect(await a.atomic(name).claim("Ev124", 60_000)).toBe(true);
      expect(await b.atomic(`${name}-other`).claim("Ev123", 60_000)).toBe(true);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  it.skipIf(!url)("hands a value out once, and a claim again once it expired", async () => {
    const [a, b] = await open();
    try {
      await a.atomic(name).put("state1", '{"scopes":["commands"]}', 60_000);
      const takes = await Promise.all([a.atomic(name).take("state1"), b.atomic(name).take("state1")]);
      expect(takes.filter((value) => value !== undefined)).toEqual(['{"scopes":["commands"]}']);
      expect(await a.atomic(name).take("never-put")).toBeUndefined();

      await a.atomic(name).put("short", "v", 30);
      expect(await a.atomic(name).claim("brief", 30)).toBe(true);
      await new Promise((resolve) => setTimeout(resolve, 80));
      expect(await b.atomic(name).take("short")).toBeUndefined();
      expect(await b.atomic(name).claim("brief", 60_000)).toBe(true);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });
});
