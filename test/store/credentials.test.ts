import { randomBytes } from "node:crypto";
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config/index.js";
import { CredentialsKeyError, CredentialsStore, StoreValueError } from "../../src/store/credentials.js";
import { keyId, SecretBox } from "../../src/store/crypto.js";
import { StoreCallError } from "../../src/store/deadline.js";
import { openStores } from "../../src/store/index.js";
import { resolveCredentialsKey } from "../../src/store/key-file.js";
import { type KeyvStore, openStore } from "../../src/store/keyv.js";
import type { SqliteKeyvAdapter } from "../../src/store/sqlite.js";
import { createLogger } from "../../src/util/logger.js";

const SECRET = "PLAINTEXT-SECRET-a7c3e9f1-MARKER";
const OTHER_SECRET = "PLAINTEXT-SECRET-0b4d6e82-SECOND";
const LOGIN = "login-marker-5521";
const TEAM = "T123ABC";
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

let dir: string;
let dbPath: string;
let store: KeyvStore | undefined;
const key = randomBytes(32);

function credentialsIn(opened: KeyvStore, box = new SecretBox(key)): CredentialsStore {
  return new CredentialsStore(opened.namespace("credentials"), box);
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    const value = await promise;
    return new Error(`expected a rejection, got ${JSON.stringify(value)}`);
  } catch (error) {
    return error;
  }
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "kassa-store-"));
  dbPath = join(dir, "kassa.sqlite");
});

afterEach(async () => {
  await store?.close();
  store = undefined;
  rmSync(dir, { recursive: true, force: true });
});

describe("CredentialsStore over SQLite", () => {
  beforeEach(async () => {
    store = await openStore(`sqlite://${dbPath}`);
  });

  function open(): { opened: KeyvStore; credentials: CredentialsStore } {
    if (!store) throw new Error("store not open");
    return { opened: store, credentials: credentialsIn(store) };
  }

  it("stores and reads back a connection", async () => {
    const { credentials } = open();
    const info = await credentials.set(TEAM, {
      login: LOGIN,
      secret: SECRET,
      apiVersion: "v3",
      connectedBy: "U0001",
    });
    expect(info).toEqual({
      teamId: TEAM,
      login: LOGIN,
      apiVersion: "v3",
      connectedBy: "U0001",
      connectedAt: expect.stringMatching(ISO_TIME),
      hasSalt: false,
      otherKey: null,
    });
    const connection = await credentials.get(TEAM);
    expect(connection).toEqual({
      ...info,
      account: { login: LOGIN, secret: SECRET, apiVersion: "v3" },
      salt: undefined,
    });
  });

  it("seals Secret 2 apart from the secret, keeps it when left out, and removes it with null", async () => {
    const { credentials } = open();
    const SALT = "salt-for-callbacks-9f1c";
    expect((await credentials.set(TEAM, { login: LOGIN, secret: SECRET, salt: SALT })).hasSalt).toBe(true);
    expect((await credentials.get(TEAM))?.salt).toBe(SALT);
    const files = [dbPath, `${dbPath}-wal`].filter((path) => existsSync(path));
    expect(Buffer.concat(files.map((path) => readFileSync(path))).includes(SALT)).toBe(false);
    // Reconnected without typing it again (a blank field, no --salt): the stored one stays.
    await credentials.set(TEAM, { login: LOGIN, secret: "new-secret" });
    expect((await credentials.get(TEAM))?.salt).toBe(SALT);
    expect((await credentials.list())[0]).toMatchObject({ teamId: TEAM, hasSalt: true });
    await credentials.set(TEAM, { login: LOGIN, secret: SECRET, salt: null });
    expect(await credentials.get(TEAM)).toMatchObject({ hasSalt: false, salt: undefined });
  });

  it("leaves optional fields unset as null / undefined", async () => {
    const { credentials } = open();
    await credentials.set(TEAM, { login: LOGIN, secret: SECRET });
    const connection = await credentials.get(TEAM);
    expect(connection?.apiVersion).toBeNull();
    expect(connection?.connectedBy).toBeNull();
    expect(connection?.account).toEqual({ login: LOGIN, secret: SECRET, apiVersion: undefined });
  });

  it("returns undefined for a workspace that was never connected", async () => {
    const { credentials } = open();
    expect(await credentials.get("T000NONE")).toBeUndefined();
  });

  it("reads the data back after the store is reopened", async () => {
    const { credentials } = open();
    await credentials.set(TEAM, { login: LOGIN, secret: SECRET });
    await store?.close();
    store = await openStore(`sqlite://${dbPath}`);
    expect((await credentialsIn(store).get(TEAM))?.account.secret).toBe(SECRET);
  });

  it("overwrites a workspace's previous credentials", async () => {
    const { credentials } = open();
    await credentials.set(TEAM, { login: "old-login", secret: OTHER_SECRET });
    await credentials.set(TEAM, { login: LOGIN, secret: SECRET, apiVersion: "v2" });
    expect((await credentials.get(TEAM))?.account).toEqual({
      login: LOGIN,
      secret: SECRET,
      apiVersion: "v2",
    });
    expect(await credentials.list()).toHaveLength(1);
  });

  it("lists workspaces sorted, with logins and never secrets", async () => {
    const { credentials } = open();
    const second = await credentials.set("T9ZZZ", { login: "second-login", secret: OTHER_SECRET });
    const first = await credentials.set(TEAM, { login: LOGIN, secret: SECRET, apiVersion: "v3" });
    const list = await credentials.list();
    expect(list).toEqual([first, second]);
    expect(list.map((entry) => entry.teamId)).toEqual([TEAM, "T9ZZZ"]);
    const text = JSON.stringify(list);
    expect(text).not.toContain(SECRET);
    expect(text).not.toContain(OTHER_SECRET);
    for (const entry of list) {
      expect(Object.keys(entry).sort()).toEqual([
        "apiVersion",
        "connectedAt",
        "connectedBy",
        "hasSalt",
        "login",
        "otherKey",
        "teamId",
      ]);
    }
  });

  it("lists nothing when nothing is stored", async () => {
    const { credentials } = open();
    expect(await credentials.list()).toEqual([]);
  });

  it("removes a workspace", async () => {
    const { credentials } = open();
    await credentials.set(TEAM, { login: LOGIN, secret: SECRET });
    await credentials.set("T9ZZZ", { login: "second-login", secret: OTHER_SECRET });
    expect(await credentials.remove(TEAM)).toBe(true);
    expect(await credentials.get(TEAM)).toBeUndefined();
    expect((await credentials.list()).map((entry) => entry.teamId)).toEqual(["T9ZZZ"]);
    expect(await credentials.remove(TEAM)).toBe(false);
  });

  it("never writes the secret's plaintext into the database files", async () => {
    const { credentials } = open();
    await credentials.set(TEAM, { login: LOGIN, secret: SECRET });
    await credentials.set("T9ZZZ", { login: "second-login", secret: OTHER_SECRET });
    const files = [dbPath, `${dbPath}-wal`].filter((path) => existsSync(path));
    expect(files).toContain(dbPath);
    const bytes = Buffer.concat(files.map((path) => readFileSync(path)));
    // The plain login is there, so these are the bytes that hold the record.
    expect(bytes.includes(LOGIN)).toBe(true);
    expect(bytes.includes(SECRET)).toBe(false);
    expect(bytes.includes(OTHER_SECRET)).toBe(false);
    expect(bytes.includes(Buffer.from(SECRET).toString("base64"))).toBe(false);
    expect(bytes.includes(Buffer.from(SECRET).toString("hex"))).toBe(false);
  });

  it("stores the secret sealed, tagged with the key id", async () => {
    const { opened, credentials } = open();
    await credentials.set(TEAM, { login: LOGIN, secret: SECRET });
    const raw = (await opened.namespace("credentials").get(TEAM)) as { secret: { kid: string; alg: string } };
    expect(raw.secret.alg).toBe("A256GCM");
    expect(raw.secret.kid).toBe(keyId(key));
    expect(JSON.stringify(raw)).not.toContain(SECRET);
  });

  it("throws StoreValueError for a tampered secret instead of returning undefined", async () => {
    const { opened, credentials } = open();
    await credentials.set(TEAM, { login: LOGIN, secret: SECRET });
    const keyv = opened.namespace("credentials");
    const raw = (await keyv.get(TEAM)) as { secret: { data: string } };
    const data = Buffer.from(raw.secret.data, "base64");
    data[0] = (data[0] ?? 0) ^ 0xff;
    await keyv.set(TEAM, { ...raw, secret: { ...raw.secret, data: data.toString("base64") } });

    const error = await rejection(credentials.get(TEAM));
    expect(error).toBeInstanceOf(StoreValueError);
    expect((error as Error).message).toContain(TEAM);
    expect((error as Error).message).toContain("cannot be decrypted");
    expect((error as Error).message).not.toContain(SECRET);
  });

  it("throws StoreValueError for a sealed value copied to another workspace", async () => {
    const { opened, credentials } = open();
    await credentials.set(TEAM, { login: LOGIN, secret: SECRET });
    const keyv = opened.namespace("credentials");
    await keyv.set("T0THER", await keyv.get(TEAM));
    expect(await rejection(credentials.get("T0THER"))).toBeInstanceOf(StoreValueError);
  });

  it("throws StoreValueError naming both key ids when read with another key", async () => {
    const { opened, credentials } = open();
    await credentials.set(TEAM, { login: LOGIN, secret: SECRET });
    const otherKey = randomBytes(32);
    const error = await rejection(credentialsIn(opened, new SecretBox(otherKey)).get(TEAM));
    expect(error).toBeInstanceOf(StoreValueError);
    expect((error as Error).message).toContain(keyId(key));
    expect((error as Error).message).toContain(keyId(otherKey));
  });

  it("tells another key apart: CredentialsKeyError, info() and list() without opening, a count for start-up", async () => {
    const { opened, credentials } = open();
    await credentials.set(TEAM, { login: LOGIN, secret: SECRET, salt: OTHER_SECRET });
    await credentials.set("T0SECOND", { login: LOGIN, secret: SECRET });
    const otherKey = randomBytes(32);
    const other = credentialsIn(opened, new SecretBox(otherKey));
    const error = await rejection(other.get(TEAM));
    expect(error).toBeInstanceOf(CredentialsKeyError);
    expect(error).toMatchObject({ teamId: TEAM, sealedWith: keyId(key), configured: keyId(otherKey) });
    expect(await other.info(TEAM)).toMatchObject({ login: LOGIN, hasSalt: true, otherKey: keyId(key) });
    expect((await credentials.info(TEAM))?.otherKey).toBeNull();
    expect(await other.sealedWithOtherKeys()).toEqual({ count: 2, keyIds: [keyId(key)] });
    expect(await credentials.sealedWithOtherKeys()).toEqual({ count: 0, keyIds: [] });
    expect(JSON.stringify(await other.list())).not.toContain(SECRET);
  });

  it("reconnecting under a new key drops a Secret 2 the new key could never open", async () => {
    const { opened, credentials } = open();
    await credentials.set(TEAM, { login: LOGIN, secret: SECRET, salt: OTHER_SECRET });
    const other = credentialsIn(opened, new SecretBox(randomBytes(32)));
    // Blank Secret 2 means "keep": kept only when this key sealed it.
    const info = await other.set(TEAM, { login: LOGIN, secret: SECRET });
    expect(info).toMatchObject({ hasSalt: false, otherKey: null });
    expect(await other.get(TEAM)).toMatchObject({ account: { secret: SECRET }, salt: undefined });
  });

  it.each([
    ["an object of another shape", { foo: 1 }],
    ["a string", "not an object"],
    ["a number", 42],
    ["a future version", { v: 2, login: LOGIN, secret: {}, connectedAt: new Date().toISOString() }],
    ["a plaintext secret", { v: 1, login: LOGIN, secret: SECRET, connectedAt: new Date().toISOString() }],
    ["no login", { v: 1, login: "", secret: {}, connectedAt: new Date().toISOString() }],
  ])("throws StoreValueError for %s", async (_label, value) => {
    const { opened, credentials } = open();
    await opened.namespace("credentials").set(TEAM, value);
    const error = await rejection(credentials.get(TEAM));
    expect(error).toBeInstanceOf(StoreValueError);
    expect((error as Error).message).toBe(`credentials of ${TEAM} are not in the expected form`);
    expect((error as Error).message).not.toContain(SECRET);
  });

  it("lists an unreadable entry with its problem rather than hiding it", async () => {
    const { opened, credentials } = open();
    const good = await credentials.set(TEAM, { login: LOGIN, secret: SECRET });
    await opened.namespace("credentials").set("T0BROKEN", { foo: 1 });
    expect(await credentials.list()).toEqual([
      { teamId: "T0BROKEN", problem: "credentials of T0BROKEN are not in the expected form" },
      good,
    ]);
  });

  it("keeps namespaces apart and hands out one Keyv per namespace", async () => {
    const { opened, credentials } = open();
    expect(opened.namespace("credentials")).toBe(opened.namespace("credentials"));
    expect(opened.namespace("cache")).not.toBe(opened.namespace("credentials"));
    await opened.namespace("cache").set(TEAM, { cached: true });
    expect(await credentials.get(TEAM)).toBeUndefined();
    expect(await credentials.list()).toEqual([]);
    await credentials.set(TEAM, { login: LOGIN, secret: SECRET });
    expect(await opened.namespace("cache").get(TEAM)).toEqual({ cached: true });
  });

  it("reports the absolute database path as its location", () => {
    const { opened } = open();
    expect(opened.location).toBe(dbPath);
    expect(opened.kind).toBe("sqlite");
  });

  it("puts the database in WAL mode (seen from a fresh connection)", async () => {
    const { credentials } = open();
    await credentials.set(TEAM, { login: LOGIN, secret: SECRET });
    const fresh = new Database(dbPath, { readonly: true });
    try {
      expect(fresh.pragma("journal_mode")).toEqual([{ journal_mode: "wal" }]);
    } finally {
      fresh.close();
    }
  });

  it("sets a busy timeout on the namespace's connection", async () => {
    const { opened } = open();
    const adapter = opened.namespace("credentials").store as SqliteKeyvAdapter;
    expect(adapter.db.pragma("busy_timeout")).toEqual([{ timeout: 5000 }]);
  });

  it("answers ping while open", async () => {
    const { opened } = open();
    await expect(opened.ping()).resolves.toBeUndefined();
  });

  it("throws, never reads as empty, once the store is closed", async () => {
    const { opened, credentials } = open();
    await credentials.set(TEAM, { login: LOGIN, secret: SECRET });
    await opened.close();
    const errors = [
      await rejection(credentials.get(TEAM)),
      await rejection(credentials.list()),
      await rejection(credentials.set("T9ZZZ", { login: LOGIN, secret: SECRET })),
      await rejection(credentials.remove(TEAM)),
      await rejection(opened.ping()),
    ];
    for (const error of errors) {
      expect(error).toBeInstanceOf(Error);
      // Reads and writes say it was the store (StoreCallError), with the driver's own error as the cause.
      const cause = error instanceof StoreCallError ? error.cause : error;
      expect((cause as Error).message).toBe("The database connection is not open");
    }
    store = undefined;
  });
});

describe("the SQLite files' modes", () => {
  it("creates the database and its -wal and -shm files readable by their owner only", async () => {
    const path = join(dir, "modes", "kassa.sqlite");
    const opened = await openStore(`sqlite://${path}`);
    await opened.namespace("probe").set("k", "v");
    for (const file of [path, `${path}-wal`, `${path}-shm`]) {
      expect(existsSync(file)).toBe(true);
      expect(statSync(file).mode & 0o777).toBe(0o600);
    }
    await opened.close();
  });

  it("tightens files an older version left readable by others", async () => {
    const path = join(dir, "loose", "kassa.sqlite");
    mkdirSync(join(dir, "loose"));
    writeFileSync(path, "");
    chmodSync(path, 0o644);
    const opened = await openStore(`sqlite://${path}`);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    await opened.close();
  });
});

describe("openStore with an unusable path", () => {
  it("throws when the database directory cannot be created (a file is in the way)", async () => {
    writeFileSync(join(dir, "plain-file"), "not a directory");
    const error = await rejection(openStore(`sqlite://${join(dir, "plain-file", "db", "kassa.sqlite")}`));
    expect(error).toBeInstanceOf(Error);
    expect((error as NodeJS.ErrnoException).code).toMatch(/^(EEXIST|ENOTDIR)$/);
  });

  it("throws when the database path is a directory", async () => {
    const error = await rejection(openStore(`sqlite://${dir}`));
    expect(error).toBeInstanceOf(Error);
  });
});

describe("openStores", () => {
  function logLines(): { lines: Record<string, unknown>[]; logger: ReturnType<typeof createLogger> } {
    const lines: Record<string, unknown>[] = [];
    const logger = createLogger("info", { write: (line: string) => lines.push(JSON.parse(line)) });
    return { lines, logger };
  }

  it("uses CREDENTIALS_KEY when set and creates no key file", async () => {
    const { lines, logger } = logLines();
    const config = loadConfig(
      { STORE_URL: `sqlite://${dbPath}`, CREDENTIALS_KEY: key.toString("base64") },
      { requireSlack: false },
    );
    const opened = await openStores(config, logger);
    store = opened.store;
    await opened.credentials.set(TEAM, { login: LOGIN, secret: SECRET });
    expect((await credentialsIn(opened.store).get(TEAM))?.account.secret).toBe(SECRET);
    expect(existsSync(`${dbPath}.key`)).toBe(false);
    expect(lines).toEqual([]);
  });

  it("creates a key file with a warning, then reuses it with an info line", async () => {
    const config = loadConfig({ STORE_URL: `sqlite://${dbPath}` }, { requireSlack: false });
    const first = logLines();
    const opened = await openStores(config, first.logger);
    await opened.credentials.set(TEAM, { login: LOGIN, secret: SECRET });
    await opened.store.close();
    expect(first.lines).toHaveLength(1);
    expect(first.lines[0]).toMatchObject({ level: "warn", keyFile: `${dbPath}.key` });
    expect(statSync(`${dbPath}.key`).mode & 0o777).toBe(0o600);

    const second = logLines();
    const reopened = await openStores(config, second.logger);
    store = reopened.store;
    expect((await reopened.credentials.get(TEAM))?.account.secret).toBe(SECRET);
    expect(second.lines).toHaveLength(1);
    expect(second.lines[0]).toMatchObject({ level: "info", keyFile: `${dbPath}.key` });
  });

  it("closes the store and throws when the key file is garbage", async () => {
    writeFileSync(`${dbPath}.key`, "garbage\n", { mode: 0o600 });
    const config = loadConfig({ STORE_URL: `sqlite://${dbPath}` }, { requireSlack: false });
    const error = await rejection(openStores(config, logLines().logger));
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toBe(
      `key file ${dbPath}.key does not hold a 32-byte key (hex or base64)`,
    );
  });
});

describe("resolveCredentialsKey", () => {
  it("prefers the configured key and touches no file", () => {
    const configured = randomBytes(32);
    expect(resolveCredentialsKey(configured, dbPath)).toEqual({ key: configured, source: "env" });
    expect(existsSync(`${dbPath}.key`)).toBe(false);
  });

  it("creates <db>.key with mode 0600 once, then returns the same key", () => {
    const created = resolveCredentialsKey(undefined, dbPath);
    expect(created.source).toBe("file-created");
    expect(created.path).toBe(`${dbPath}.key`);
    expect(created.key).toHaveLength(32);
    expect(statSync(`${dbPath}.key`).mode & 0o777).toBe(0o600);
    const text = readFileSync(`${dbPath}.key`, "utf8");
    expect(text).toBe(`${created.key.toString("base64")}\n`);

    const again = resolveCredentialsKey(undefined, dbPath);
    expect(again.source).toBe("file-existing");
    expect(again.path).toBe(`${dbPath}.key`);
    expect(again.key.equals(created.key)).toBe(true);
    expect(readFileSync(`${dbPath}.key`, "utf8")).toBe(text);
    expect(statSync(`${dbPath}.key`).mode & 0o777).toBe(0o600);
  });

  it("reads a hex key file", () => {
    const hexKey = randomBytes(32);
    writeFileSync(`${dbPath}.key`, `${hexKey.toString("hex")}\n`, { mode: 0o600 });
    const resolved = resolveCredentialsKey(undefined, dbPath);
    expect(resolved.source).toBe("file-existing");
    expect(resolved.key.equals(hexKey)).toBe(true);
  });

  it("tightens a key file readable by others to 0600", () => {
    const fileKey = randomBytes(32);
    writeFileSync(`${dbPath}.key`, fileKey.toString("base64"));
    chmodSync(`${dbPath}.key`, 0o644);
    expect(resolveCredentialsKey(undefined, dbPath).key.equals(fileKey)).toBe(true);
    expect(statSync(`${dbPath}.key`).mode & 0o777).toBe(0o600);
  });

  it.each([
    ["garbage", "this is not a key\n"],
    ["an empty file", ""],
    ["a short key", randomBytes(16).toString("base64")],
    ["a long hex key", randomBytes(33).toString("hex")],
  ])("throws for %s, without replacing the file", (_label, content) => {
    writeFileSync(`${dbPath}.key`, content, { mode: 0o600 });
    expect(() => resolveCredentialsKey(undefined, dbPath)).toThrow(
      `key file ${dbPath}.key does not hold a 32-byte key (hex or base64)`,
    );
    expect(readFileSync(`${dbPath}.key`, "utf8")).toBe(content);
  });
});
