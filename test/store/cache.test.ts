import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { Cache } from "../../src/store/cache.js";
import { type KeyvStore, openStore } from "../../src/store/keyv.js";

const methodsSchema = z.object({
  fetchedAt: z.number().int(),
  methods: z.array(z.object({ code: z.string(), commissionPercent: z.string() })),
});

const VALUE = {
  fetchedAt: 1714564800000,
  methods: [
    { code: "BITCOIN", commissionPercent: "1.5" },
    { code: "BTCCRYPTOBOT", commissionPercent: "0.0000001" },
  ],
};

let dir: string;
let stores: KeyvStore[] = [];

async function open(): Promise<KeyvStore> {
  const store = await openStore(`sqlite://${dir}/kassa.sqlite`);
  stores.push(store);
  return store;
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "kassa-cache-"));
});

afterEach(async () => {
  for (const store of stores) await store.close();
  stores = [];
  rmSync(dir, { recursive: true, force: true });
});

describe("Cache over SQLite", () => {
  it("reads back what it stored, checked with the schema", async () => {
    const store = await open();
    const cache = new Cache(store.namespace("cache"));
    await cache.set("methods:T123", VALUE, 60_000);
    expect(await cache.get("methods:T123", methodsSchema)).toEqual(VALUE);
    expect(await cache.get("methods:T999", methodsSchema)).toBeUndefined();
  });

  it("keeps values in the SQLite file, across a reopen", async () => {
    const first = await open();
    await new Cache(first.namespace("cache")).set("methods:T123", VALUE, 60_000);
    await first.close();

    const second = await open();
    expect(await new Cache(second.namespace("cache")).get("methods:T123", methodsSchema)).toEqual(VALUE);
  });

  it("returns the schema's output (transforms applied)", async () => {
    const store = await open();
    const cache = new Cache(store.namespace("cache"));
    await cache.set("count", { n: "41" }, 60_000);
    const schema = z.object({ n: z.string().transform((text) => Number(text) + 1) });
    expect(await cache.get("count", schema)).toEqual({ n: 42 });
  });

  it("treats a value that does not match the schema as a miss and deletes it", async () => {
    const store = await open();
    const keyv = store.namespace("cache");
    const cache = new Cache(keyv);
    const old = { fetchedAt: "yesterday", methods: "BITCOIN" };
    await cache.set("methods:T123", old, 60_000);
    expect(await keyv.get("methods:T123")).toEqual(old);

    expect(await cache.get("methods:T123", methodsSchema)).toBeUndefined();
    expect(await keyv.get("methods:T123")).toBeUndefined();
    // Deleted, not merely hidden: a schema that would accept it finds nothing either.
    expect(await cache.get("methods:T123", z.unknown())).toBeUndefined();
  });

  it("leaves other keys alone when it drops a mismatching value", async () => {
    const store = await open();
    const cache = new Cache(store.namespace("cache"));
    await cache.set("bad", { wrong: true }, 60_000);
    await cache.set("good", VALUE, 60_000);
    expect(await cache.get("bad", methodsSchema)).toBeUndefined();
    expect(await cache.get("good", methodsSchema)).toEqual(VALUE);
  });

  it("forgets a value after its time to live", async () => {
    const store = await open();
    const keyv = store.namespace("cache");
    const cache = new Cache(keyv);
    await cache.set("methods:T123", VALUE, 150);
    expect(await cache.get("methods:T123", methodsSchema)).toEqual(VALUE);
    await sleep(300);
    expect(await cache.get("methods:T123", methodsSchema)).toBeUndefined();
    expect(await keyv.get("methods:T123")).toBeUndefined();
  });

  it("stores nothing with a time to live of 0", async () => {
    const store = await open();
    const keyv = store.namespace("cache");
    const cache = new Cache(keyv);
    await cache.set("methods:T123", VALUE, 0);
    expect(await keyv.get("methods:T123")).toBeUndefined();
    expect(await cache.get("methods:T123", methodsSchema)).toBeUndefined();
  });

  it("deletes on request", async () => {
    const store = await open();
    const cache = new Cache(store.namespace("cache"));
    await cache.set("methods:T123", VALUE, 60_000);
    await cache.delete("methods:T123");
    expect(await cache.get("methods:T123", methodsSchema)).toBeUndefined();
  });

  it("keeps namespaces apart", async () => {
    const store = await open();
    const cache = new Cache(store.namespace("cache"));
    await cache.set("methods:T123", VALUE, 60_000);
    expect(await store.namespace("credentials").get("methods:T123")).toBeUndefined();
  });
});
