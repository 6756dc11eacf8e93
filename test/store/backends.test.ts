/**
 * The store's contract on every backend STORE_URL accepts (test/support/engines.ts): SQLite always;
 * Redis and PostgreSQL when the run has them (TEST_REDIS_URL, TEST_POSTGRES_URL: the run's own
 * databases). A backend the run lacks is skipped, and says so.
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import KeyvPostgres from "@keyv/postgres";
import KeyvRedis from "@keyv/redis";
import Keyv, { type DeserializedData, type KeyvStoreAdapter } from "keyv";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import {
  type FakePayments,
  SANDBOX_LOGIN,
  SANDBOX_SECRET,
  startFakePayments,
} from "../../sandbox/fake-payments.js";
import { PaymentsClient } from "../../src/payments/client.js";
import { WorkspacePayments } from "../../src/registers/workspace-payments.js";
import { Cache } from "../../src/store/cache.js";
import { redactedUrl } from "../../src/store/connection.js";
import { CredentialsStore, StoreValueError } from "../../src/store/credentials.js";
import { SecretBox } from "../../src/store/crypto.js";
import { type KeyvStore, openStore, StoreUnavailableError } from "../../src/store/keyv.js";
import { POSTGRES_TABLE } from "../../src/store/schema/names.js";
import { openSqliteDatabase, SqliteKeyvAdapter } from "../../src/store/sqlite.js";
import { contractEngines, type StoreEngineName, sayWhatIsSkipped } from "../support/engines.js";

/** Namespaces of this run: several CI runs may share one Redis or PostgreSQL server. */
const RUN = `t${randomBytes(5).toString("hex")}`;
const SECRET = "PLAINTEXT-SECRET-5d1e77c2-MARKER";
const OTHER_SECRET = "PLAINTEXT-SECRET-93ab04f6-SECOND";
const LOGIN = "login-marker-8830";
const key = randomBytes(32);

const sqliteDir = mkdtempSync(join(tmpdir(), "kassa-backends-"));

/** How each backend is read from outside. */
type Layout = {
  /**
   * A plain adapter on the same database, for a Keyv that reads what is really stored. Built here,
   * not taken from the store: it checks the layout (key prefixes, table) from outside.
   */
  plainAdapter(url: string): KeyvStoreAdapter;
  /** Redis' adapter prefixes keys with the namespace itself; Keyv must not add its own as well. */
  useKeyPrefix: boolean;
};

const LAYOUTS: Record<StoreEngineName, Layout> = {
  sqlite: {
    plainAdapter: (url) => new SqliteKeyvAdapter(openSqliteDatabase(url.replace(/^sqlite:\/\//, ""), 5000)),
    useKeyPrefix: true,
  },
  redis: { plainAdapter: (url) => new KeyvRedis(url), useKeyPrefix: false },
  postgres: {
    plainAdapter: (url) => new KeyvPostgres({ uri: url, table: POSTGRES_TABLE }),
    useKeyPrefix: true,
  },
};

const BACKENDS = contractEngines({ sqlite: join(sqliteDir, "kassa.sqlite") }).map((engine) => ({
  ...engine,
  ...LAYOUTS[engine.name],
}));
sayWhatIsSkipped("store backends", BACKENDS);

afterAll(() => {
  rmSync(sqliteDir, { recursive: true, force: true });
});

/** The error a promise rejects with; fails the test when it resolves (a broken store read as empty). */
async function rejection(promise: Promise<unknown>): Promise<unknown> {
  let value: unknown;
  try {
    value = await promise;
  } catch (error) {
    return error;
  }
  throw new Error(`expected a rejection, got ${JSON.stringify(value)}`);
}

/** Keyv hands the stored text to `deserialize`: kept here as it came, it shows exactly what is stored. */
function storedTexts() {
  const seen: string[] = [];
  const deserialize = <Value>(text: string): DeserializedData<Value> => {
    seen.push(text);
    return {};
  };
  return { deserialize, last: () => seen.at(-1) };
}

for (const backend of BACKENDS) {
  const title = backend.skipped ? `${backend.name} (skipped: ${backend.skipped})` : backend.name;

  describe.skipIf(backend.skipped !== undefined)(title, () => {
    const url = backend.url ?? "";
    const stores: KeyvStore[] = [];
    const namespaces = new Set<string>();
    let store: KeyvStore;
    let fake: FakePayments;

    async function open(): Promise<KeyvStore> {
      const opened = await openStore(url);
      stores.push(opened);
      return opened;
    }

    /** A namespace of this run only, removed afterwards. */
    function ns(name: string): string {
      const full = `${RUN}-${name}`;
      namespaces.add(full);
      return full;
    }

    function payments(opened: KeyvStore, names: { credentials: string; cache: string }): WorkspacePayments {
      const client = new PaymentsClient({
        baseUrl: fake.url,
        defaultVersion: "v2",
        timeoutMs: 5000,
        timeZone: "Europe/Moscow",
        retries: 0,
      });
      return new WorkspacePayments(
        new CredentialsStore(opened.namespace(names.credentials), new SecretBox(key)),
        client,
        new Cache(opened.namespace(names.cache)),
        { defaultVersion: "v2", methodsTtlMs: 60_000, balanceTtlMs: 15_000 },
      );
    }

    const methodListCalls = () => fake.requests.filter((request) => /\/method\/list\/?$/.test(request.path));

    beforeAll(async () => {
      store = await open();
      fake = await startFakePayments({ slowMs: 300 });
    });

    afterAll(async () => {
      // Leave nothing behind on a shared server; then close every connection this suite opened.
      if (store) for (const name of namespaces) await store.namespace(name).clear();
      for (const opened of stores) await opened.close();
      await fake?.close();
    });

    it("opens with its kind and a location without password", async () => {
      expect(store.kind).toBe(backend.name);
      if (backend.name === "sqlite") {
        expect(store.location).toBe(join(sqliteDir, "kassa.sqlite"));
      } else {
        expect(store.location).toBe(redactedUrl(url));
        expect(new URL(store.location).password).toBe("");
      }
      await expect(store.ping()).resolves.toBeUndefined();
    });

    it("credentials: set, get, list and remove round trip", async () => {
      const credentials = new CredentialsStore(store.namespace(ns("credentials-trip")), new SecretBox(key));
      expect(await credentials.list()).toEqual([]);
      const second = await credentials.set("T9ZZZ", { login: "second-login", secret: OTHER_SECRET });
      const first = await credentials.set("T123ABC", {
        login: LOGIN,
        secret: SECRET,
        apiVersion: "v3",
        connectedBy: "U0001",
      });
      expect(await credentials.get("T123ABC")).toEqual({
        ...first,
        account: { login: LOGIN, secret: SECRET, apiVersion: "v3" },
      });
      expect((await credentials.get("T9ZZZ"))?.account.secret).toBe(OTHER_SECRET);
      expect(await credentials.get("T000NONE")).toBeUndefined();

      // The listing goes through Keyv's iterator on this backend: sorted, no secrets.
      const list = await credentials.list();
      expect(list).toEqual([first, second]);
      expect(JSON.stringify(list)).not.toContain(SECRET);

      // Another namespace holds nothing of these, and lists nothing of them.
      const other = new CredentialsStore(store.namespace(ns("credentials-other")), new SecretBox(key));
      await store.namespace(ns("credentials-other")).set("T5OTHER", { not: "credentials" });
      expect(await other.get("T123ABC")).toBeUndefined();
      expect(await credentials.get("T5OTHER")).toBeUndefined();
      expect((await other.list()).map((entry) => entry.teamId)).toEqual(["T5OTHER"]);

      expect(await credentials.remove("T9ZZZ")).toBe(true);
      expect(await credentials.remove("T9ZZZ")).toBe(false);
      expect(await credentials.get("T9ZZZ")).toBeUndefined();
      expect(await credentials.list()).toEqual([first]);
    });

    it("lists more workspaces than one page of the backend's listing", async () => {
      const credentials = new CredentialsStore(store.namespace(ns("credentials-many")), new SecretBox(key));
      const teams = Array.from({ length: 130 }, (_, index) => `T${String(index).padStart(4, "0")}`);
      for (const team of teams) await credentials.set(team, { login: `login-${team}`, secret: SECRET });
      expect((await credentials.list()).map((entry) => entry.teamId)).toEqual(teams);
    });

    it("keeps only the sealed secret: the stored text holds the login, never the secret", async () => {
      const name = ns("credentials-raw");
      const credentials = new CredentialsStore(store.namespace(name), new SecretBox(key));
      await credentials.set("T123ABC", { login: LOGIN, secret: SECRET });

      const stored = storedTexts();
      const plain = new Keyv<string>({
        store: backend.plainAdapter(url),
        namespace: name,
        useKeyPrefix: backend.useKeyPrefix,
        deserialize: stored.deserialize,
      });
      plain.on("error", () => {});
      try {
        await plain.get("T123ABC");
        const text = stored.last();
        expect(typeof text).toBe("string");
        // The plain login is there, so this is the text that holds the record.
        expect(text).toContain(LOGIN);
        expect(text).toContain("A256GCM");
        expect(text).not.toContain(SECRET);
        expect(text).not.toContain(Buffer.from(SECRET).toString("base64"));
        expect(text).not.toContain(Buffer.from(SECRET).toString("hex"));
      } finally {
        await plain.disconnect();
      }
    });

    it("throws StoreValueError for a damaged value, never reads it as empty", async () => {
      const keyv = store.namespace(ns("credentials-damaged"));
      const credentials = new CredentialsStore(keyv, new SecretBox(key));
      await credentials.set("T123ABC", { login: LOGIN, secret: SECRET });

      const raw = z
        .object({ secret: z.object({ data: z.string() }).loose() })
        .loose()
        .parse(await keyv.get("T123ABC"));
      const data = Buffer.from(raw.secret.data, "base64");
      data[0] = (data[0] ?? 0) ^ 0xff;
      await keyv.set("T123ABC", { ...raw, secret: { ...raw.secret, data: data.toString("base64") } });
      const tampered = await rejection(credentials.get("T123ABC"));
      expect(tampered).toBeInstanceOf(StoreValueError);
      expect((tampered as Error).message).toContain("cannot be decrypted");

      await keyv.set("T0BROKEN", { foo: 1 });
      const broken = await rejection(credentials.get("T0BROKEN"));
      expect(broken).toBeInstanceOf(StoreValueError);
      expect((broken as Error).message).toBe("credentials of T0BROKEN are not in the expected form");
      expect(await credentials.list()).toEqual([
        { teamId: "T0BROKEN", problem: "credentials of T0BROKEN are not in the expected form" },
        expect.objectContaining({ teamId: "T123ABC", login: LOGIN }),
      ]);
    });

    it("cache: forgets a value after its time to live", async () => {
      const keyv = store.namespace(ns("cache-ttl"));
      const cache = new Cache(keyv);
      const schema = z.object({ n: z.number() });
      await cache.set("methods:T123", { n: 1 }, 150);
      expect(await cache.get("methods:T123", schema)).toEqual({ n: 1 });
      await sleep(400);
      expect(await cache.get("methods:T123", schema)).toBeUndefined();
      expect(await keyv.get("methods:T123")).toBeUndefined();
    });

    it("30 simultaneous method lists of one workspace on a cold cache make one request", async () => {
      const names = { credentials: ns("burst-credentials"), cache: ns("burst-cache") };
      const workspace = payments(store, names);
      await new CredentialsStore(store.namespace(names.credentials), new SecretBox(key)).set("T0BURST", {
        login: SANDBOX_LOGIN,
        secret: SANDBOX_SECRET,
      });
      fake.methodsFault = "slow";
      try {
        const before = methodListCalls().length;
        const lists = await Promise.all(Array.from({ length: 30 }, () => workspace.methods("T0BURST")));
        expect(methodListCalls().length - before).toBe(1);
        expect(new Set(lists.map((list) => list.fetchedAt.getTime())).size).toBe(1);
        expect(lists[0]?.methods.length).toBeGreaterThan(0);
      } finally {
        fake.methodsFault = null;
      }
    });

    it("an invoice card's method lookup waits no longer than its budget, and fills the cache", async () => {
      const names = { credentials: ns("lookup-credentials"), cache: ns("lookup-cache") };
      const workspace = payments(store, names);
      await new CredentialsStore(store.namespace(names.credentials), new SecretBox(key)).set("T0LOOKUP", {
        login: SANDBOX_LOGIN,
        secret: SANDBOX_SECRET,
      });
      fake.methodsFault = "slow";
      try {
        // The list takes 300 ms; the card gives it 20: no method, no error.
        expect(await workspace.methodFor("T0LOOKUP", "BITCOIN", 20)).toBeUndefined();
      } finally {
        fake.methodsFault = null;
      }
      // The read went on in the background; once it lands, the next card names the method at once.
      await workspace.methods("T0LOOKUP");
      const before = methodListCalls().length;
      // A budget a stalled machine cannot miss (a store round trip comes first on Redis and
      // PostgreSQL); that nothing was asked of the service is what shows the cache served it.
      expect(await workspace.methodFor("T0LOOKUP", "BITCOIN", 2000)).toMatchObject({
        name: "Bitcoin",
        currency: "BTC",
      });
      expect(await workspace.methodFor("T0LOOKUP", "NOSUCH", 20)).toBeUndefined();
      expect(methodListCalls().length).toBe(before);
      // A workspace without credentials: undefined, never a thrown error.
      expect(await workspace.methodFor("T0NOBODY", "BITCOIN", 20)).toBeUndefined();
    });

    it("two replicas share it: one fills the cache, the other serves from it without a request", async () => {
      const names = { credentials: ns("replica-credentials"), cache: ns("replica-cache") };
      // Each replica opens the store itself, as two processes behind a load balancer would.
      const [first, second] = [payments(await open(), names), payments(await open(), names)];
      // Connected through one replica (e.g. the connect modal), used through the other.
      await new CredentialsStore((await open()).namespace(names.credentials), new SecretBox(key)).set(
        "T0SHARED",
        { login: SANDBOX_LOGIN, secret: SANDBOX_SECRET },
      );

      const before = methodListCalls().length;
      const filled = await first.methods("T0SHARED");
      expect(filled.fromCache).toBe(false);
      expect(methodListCalls().length - before).toBe(1);

      const served = await second.methods("T0SHARED");
      expect(served.fromCache).toBe(true);
      expect(served.methods).toEqual(filled.methods);
      expect(served.fetchedAt.getTime()).toBe(filled.fetchedAt.getTime());
      expect(methodListCalls().length - before).toBe(1);

      // A disconnect through one replica drops the list from the shared store and that replica at
      // once; the other may serve it from memory for a few seconds more (bounded staleness).
      await second.forgetCached("T0SHARED");
      expect((await second.methods("T0SHARED")).fromCache).toBe(false);
      expect(methodListCalls().length - before).toBe(2);
    });

    it("claimOnce: of 20 simultaneous claims from two replicas exactly one wins, until it lapses", async () => {
      const [first, second] = [await open(), await open()];
      const claim = `${RUN}-event-Ev123`;
      // A claim long enough to outlast the 20 calls on a loaded machine (their connections included):
      // with a short one, a later call may rightly find the first claim lapsed.
      const results = await Promise.all(
        Array.from({ length: 20 }, (_, i) => (i % 2 ? first : second).claimOnce(claim, 60_000)),
      );
      expect(results.filter(Boolean)).toHaveLength(1);
      expect(await first.claimOnce(`${RUN}-another`, 300)).toBe(true);
      const lapsing = `${RUN}-event-Ev124`;
      expect(await first.claimOnce(lapsing, 300)).toBe(true);
      await new Promise((resolve) => setTimeout(resolve, 450));
      // Lapsed: the key can be claimed again, once.
      const again = await Promise.all([first.claimOnce(lapsing, 60_000), second.claimOnce(lapsing, 60_000)]);
      expect(again.filter(Boolean)).toHaveLength(1);
    });

    it("claimOnce with an owner: the owner that claimed takes its claim up again (after a crash), nobody else", async () => {
      const [first, second] = [await open(), await open()];
      const claim = `${RUN}-feed-message`;
      const results = await Promise.all([
        first.claimOnce(claim, 60_000, "owner-a"),
        second.claimOnce(claim, 60_000, "owner-b"),
      ]);
      expect(results.filter(Boolean)).toHaveLength(1);
      const [winner, loser] = results[0] ? ["owner-a", "owner-b"] : ["owner-b", "owner-a"];
      // The winner's process died before writing down that it claimed: the next one, with the token
      // it wrote down first, finds the claim its own. The other owner, and an ownerless claim, do not.
      expect(await second.claimOnce(claim, 60_000, winner)).toBe(true);
      expect(await first.claimOnce(claim, 60_000, winner)).toBe(true);
      expect(await first.claimOnce(claim, 60_000, loser)).toBe(false);
      expect(await first.claimOnce(claim, 60_000)).toBe(false);
      // An ownerless claim belongs to nobody: no owner takes it up.
      expect(await first.claimOnce(`${RUN}-ownerless`, 60_000)).toBe(true);
      expect(await second.claimOnce(`${RUN}-ownerless`, 60_000, "owner-a")).toBe(false);
    });

    it("throws, never reads as empty, once closed", async () => {
      const opened = await open();
      const credentials = new CredentialsStore(opened.namespace(ns("closed")), new SecretBox(key));
      await credentials.set("T123ABC", { login: LOGIN, secret: SECRET });
      await opened.close();
      const errors = [
        await rejection(credentials.get("T123ABC")),
        await rejection(credentials.list()),
        await rejection(credentials.set("T9ZZZ", { login: LOGIN, secret: SECRET })),
        await rejection(credentials.remove("T123ABC")),
        await rejection(opened.ping()),
      ];
      for (const error of errors) expect(error).toBeInstanceOf(Error);
      // Closing twice is harmless (shutdown paths may overlap).
      await expect(opened.close()).resolves.toBeUndefined();
    });
  });
}

describe("a store that cannot be reached at start-up", () => {
  it.each([
    ["redis://127.0.0.1:1", "cannot reach the store at redis://127.0.0.1:1: ECONNREFUSED"],
    ["redis://:hunter2@127.0.0.1:1/0", "cannot reach the store at redis://127.0.0.1:1/0: ECONNREFUSED"],
    [
      "postgres://kassa:hunter2@127.0.0.1:1/kassa",
      "cannot reach the store at postgres://kassa@127.0.0.1:1/kassa: ECONNREFUSED",
    ],
  ])("%s rejects at once with one clear line, password left out", async (url, message) => {
    const started = Date.now();
    const error = await rejection(openStore(url));
    expect(error).toBeInstanceOf(StoreUnavailableError);
    expect((error as Error).message).toBe(message);
    expect((error as Error).message).not.toContain("hunter2");
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it("gives up on a server that accepts the connection but never answers", async () => {
    const sockets = new Set<Socket>();
    const silent = createServer((socket) => sockets.add(socket));
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    const { port } = silent.address() as { port: number };
    try {
      const started = Date.now();
      const error = await rejection(openStore(`redis://127.0.0.1:${port}`));
      expect(error).toBeInstanceOf(StoreUnavailableError);
      expect((error as Error).message).toBe(
        `cannot reach the store at redis://127.0.0.1:${port}: no answer within 10 s`,
      );
      expect(Date.now() - started).toBeLessThan(15_000);
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  });

  it("names only the scheme of an unsupported URL", async () => {
    const error = await rejection(openStore("mysql://kassa:hunter2@db/kassa"));
    expect(error).toBeInstanceOf(StoreUnavailableError);
    expect((error as Error).message).toBe(
      'STORE_URL scheme "mysql" is not supported (sqlite, redis, rediss, postgres, postgresql)',
    );
  });
});

describe("redactedUrl", () => {
  it.each([
    ["redis://:hunter2@cache:6379/2", "redis://cache:6379/2"],
    ["rediss://default:hunter2@cache:6380", "rediss://default@cache:6380"],
    [
      "postgres://kassa:hunter2@db:5432/kassa?sslmode=require",
      "postgres://kassa@db:5432/kassa?sslmode=require",
    ],
    ["postgresql://db/kassa?user=kassa&password=hunter2", "postgresql://db/kassa?user=kassa"],
    ["postgres://postgres@127.0.0.1:5432/test", "postgres://postgres@127.0.0.1:5432/test"],
  ])("%s -> %s", (url, expected) => {
    expect(redactedUrl(url)).toBe(expected);
  });
});
