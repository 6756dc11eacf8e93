import { randomBytes } from "node:crypto";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable, Writable } from "node:stream";
import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openAuditTrail } from "../src/audit/index.js";
import { runCli, USAGE } from "../src/cli.js";
import type { Env } from "../src/config/index.js";
import { callbackKeysFor } from "../src/store/callback-keys.js";
import { CredentialsStore } from "../src/store/credentials.js";
import { SecretBox } from "../src/store/crypto.js";
import { openStore } from "../src/store/keyv.js";
import { databaseBytes } from "./support/database-bytes.js";

const SECRET = "cli-secret-3e7a91c4-NEVER-PRINT";
const TEAM = "T123ABC";

let dir: string;
let dbPath: string;
let env: Env;
const key = randomBytes(32);

class TextSink extends Writable {
  text = "";
  override _write(
    chunk: Buffer | string,
    _encoding: BufferEncoding,
    callback: (error?: Error | null) => void,
  ) {
    this.text += Buffer.isBuffer(chunk) ? chunk.toString("utf8") : chunk;
    callback();
  }
}

type Run = { code: number; stdout: string; stderr: string };

async function cli(argv: string[], stdin = "", runEnv: Env = env): Promise<Run> {
  const stdout = new TextSink();
  const stderr = new TextSink();
  const code = await runCli(argv, {
    env: runEnv,
    stdin: Readable.from([Buffer.from(stdin)]),
    stdout,
    stderr,
  });
  return { code, stdout: stdout.text, stderr: stderr.text };
}

function expectNoSecret(run: Run, secret = SECRET): void {
  expect(run.stdout).not.toContain(secret);
  expect(run.stderr).not.toContain(secret);
}

/** Reads what the CLI stored, through the store itself. */
async function stored(teamId: string) {
  const store = await openStore(`sqlite://${dbPath}`);
  try {
    return await new CredentialsStore(store.namespace("credentials"), new SecretBox(key)).get(teamId);
  } finally {
    await store.close();
  }
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "kassa-cli-"));
  dbPath = join(dir, "kassa.sqlite");
  env = { STORE_URL: `sqlite://${dbPath}`, CREDENTIALS_KEY: key.toString("base64") };
});

afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe("kassa credentials", () => {
  it("set reads the secret from stdin and stores it encrypted", async () => {
    const run = await cli(
      ["credentials", "set", "--team", TEAM, "--login", "shop", "--secret", "-"],
      `${SECRET}\n`,
    );
    expect(run).toEqual({
      code: 0,
      stdout: `Connected ${TEAM} to cash register "shop". The secret is stored encrypted.\n`,
      stderr: "",
    });
    const connection = await stored(TEAM);
    expect(connection?.account).toEqual({ login: "shop", secret: SECRET, apiVersion: undefined });
    expect(connection?.connectedBy).toBe("cli");
    const bytes = databaseBytes(dbPath);
    expect(bytes.includes(SECRET)).toBe(false);
  });

  it("set takes Secret 2 with --salt - from stdin, keeps it on a later set without --salt, and lists it", async () => {
    const SALT = "callback-salt-3e9a";
    const run = await cli(
      ["credentials", "set", "--team", TEAM, "--login", "shop", "--secret", SECRET, "--salt", "-"],
      `${SALT}\n`,
    );
    expect(run).toEqual({
      code: 0,
      stdout: `Connected ${TEAM} to cash register "shop". The secret and Secret 2 are stored encrypted.\n`,
      stderr: "",
    });
    expectNoSecret(run, SALT);
    expect((await stored(TEAM))?.salt).toBe(SALT);
    expect(databaseBytes(dbPath).includes(SALT)).toBe(false);
    expect(
      (await cli(["credentials", "set", "--team", TEAM, "--login", "shop", "--secret", SECRET])).code,
    ).toBe(0);
    expect((await stored(TEAM))?.salt).toBe(SALT);
    const list = await cli(["credentials", "list"]);
    expect(list.stdout).toContain("with Secret 2 (callbacks)");
    expectNoSecret(list, SALT);
  });

  it("refuses --secret - with --salt - (one standard input), and an empty salt, storing nothing", async () => {
    const both = await cli(
      ["credentials", "set", "--team", TEAM, "--login", "shop", "--secret", "-", "--salt", "-"],
      "x\ny\n",
    );
    expect(both.code).toBe(2);
    expect(both.stderr).toContain("--secret - and --salt - cannot both read standard input");
    const empty = await cli([
      "credentials",
      "set",
      "--team",
      TEAM,
      "--login",
      "shop",
      "--secret",
      SECRET,
      "--salt",
      " ",
    ]);
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain("the salt (Secret 2) is empty");
    expect(await stored(TEAM)).toBeUndefined();
  });

  it("set strips only the final line break of a stdin secret (CRLF too)", async () => {
    const secret = `  ${SECRET} with spaces  `;
    const run = await cli(
      ["credentials", "set", "--team", TEAM, "--login", "shop", "--secret", "-"],
      `${secret}\r\n`,
    );
    expect(run.code).toBe(0);
    expectNoSecret(run);
    expect((await stored(TEAM))?.account.secret).toBe(secret);
  });

  it("set takes --secret on the command line and --api-version", async () => {
    const run = await cli([
      "credentials",
      "set",
      "--team",
      TEAM,
      "--login",
      "shop",
      "--secret",
      SECRET,
      "--api-version",
      "v3",
    ]);
    expect(run).toEqual({
      code: 0,
      stdout: `Connected ${TEAM} to cash register "shop" (API v3). The secret is stored encrypted.\n`,
      stderr: "",
    });
    expect((await stored(TEAM))?.account).toEqual({ login: "shop", secret: SECRET, apiVersion: "v3" });
  });

  it("list shows team and login, never the secret", async () => {
    await cli(["credentials", "set", "--team", TEAM, "--login", "shop", "--secret", "-"], SECRET);
    await cli([
      "credentials",
      "set",
      "--team",
      "E0ORG1",
      "--login",
      "org-shop",
      "--secret",
      "other-secret-77",
    ]);
    const run = await cli(["credentials", "list"]);
    expect(run.code).toBe(0);
    expect(run.stderr).toBe("");
    expectNoSecret(run);
    expectNoSecret(run, "other-secret-77");
    const lines = run.stdout.trimEnd().split("\n");
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(
      /^E0ORG1\tmain\torg-shop\tdefault API\tconnected \d{4}-\d{2}-\d{2}T[\d:.]+Z by cli$/,
    );
    expect(lines[1]).toMatch(
      /^T123ABC\tmain\tshop\tdefault API\tconnected \d{4}-\d{2}-\d{2}T[\d:.]+Z by cli$/,
    );
  });

  it("connects several registers to one workspace by name; each is listed, and removing one leaves the rest", async () => {
    await cli(["credentials", "set", "--team", TEAM, "--login", "shop", "--secret", "-"], SECRET);
    const second = await cli(
      ["credentials", "set", "--team", TEAM, "--register", "Shop2", "--login", "shop-two", "--secret", "-"],
      "second-secret-42",
    );
    expect(second).toEqual({
      code: 0,
      stdout: `Connected ${TEAM} (register shop2) to cash register "shop-two". The secret is stored encrypted.\n`,
      stderr: "",
    });
    await cli(["credentials", "set", "--team", "T999XYZ", "--login", "elsewhere", "--secret", "-"], SECRET);
    expect((await stored(TEAM))?.login).toBe("shop");
    expect((await stored(`${TEAM}~shop2`))?.account.secret).toBe("second-secret-42");
    expect(databaseBytes(dbPath).includes("second-secret-42")).toBe(false);
    const listed = await cli(["credentials", "list", "--team", TEAM]);
    expect(
      listed.stdout
        .trimEnd()
        .split("\n")
        .map((line) => line.split("\t").slice(0, 3)),
    ).toEqual([
      [TEAM, "main", "shop"],
      [TEAM, "shop2", "shop-two"],
    ]);
    expectNoSecret(listed, "second-secret-42");
    expect(await cli(["credentials", "remove", "--team", TEAM, "--register", "shop2"])).toEqual({
      code: 0,
      stdout: `Removed the credentials of ${TEAM}'s register shop2.\n`,
      stderr: "",
    });
    expect(await stored(`${TEAM}~shop2`)).toBeUndefined();
    expect((await stored(TEAM))?.login).toBe("shop");
    expect((await cli(["credentials", "list", "--team", "T404NOPE"])).stdout).toBe(
      "T404NOPE has no register connected.\n",
    );
  });

  it.each([
    ["a sub-command's word", "list", "that word is one of Kassa's own command words"],
    ["a name with a space", "shop 2", "a letter, then letters, digits or -"],
    ["a digit first", "2shop", "a letter, then letters, digits or -"],
  ])("refuses --register as %s and stores nothing", async (_what, name, why) => {
    const run = await cli(
      ["credentials", "set", "--team", TEAM, "--register", name, "--login", "shop", "--secret", "-"],
      SECRET,
    );
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`--register must be a register's name: ${why}`);
    expect(existsSync(dbPath)).toBe(false);
  });

  it("list only reads: with no store it says so, exits 0, and creates no database or key file", async () => {
    const nested = join(dir, "not-yet", "kassa.sqlite");
    for (const runEnv of [env, { STORE_URL: `sqlite://${nested}` }]) {
      const path = (runEnv.STORE_URL ?? "").slice("sqlite://".length);
      expect(await cli(["credentials", "list"], "", runEnv)).toEqual({
        code: 0,
        stdout: `No store at ${path}, so no workspace is connected.\n`,
        stderr: "",
      });
      expect(existsSync(path)).toBe(false);
      expect(existsSync(`${path}.key`)).toBe(false);
    }
    expect(existsSync(join(dir, "not-yet"))).toBe(false);
  });

  it("list says so when the store exists and nothing is connected", async () => {
    await cli(["credentials", "set", "--team", TEAM, "--login", "shop", "--secret", "-"], SECRET);
    await cli(["credentials", "remove", "--team", TEAM]);
    expect(await cli(["credentials", "list"])).toEqual({
      code: 0,
      stdout: "No workspace is connected.\n",
      stderr: "",
    });
  });

  it("remove forgets the workspace", async () => {
    await cli(["credentials", "set", "--team", TEAM, "--login", "shop", "--secret", "-"], SECRET);
    expect(await cli(["credentials", "remove", "--team", TEAM])).toEqual({
      code: 0,
      stdout: `Removed the credentials of ${TEAM}.\n`,
      stderr: "",
    });
    expect((await cli(["credentials", "list"])).stdout).toBe("No workspace is connected.\n");
    expect(await stored(TEAM)).toBeUndefined();
  });

  it("remove forgets the workspace's payment notification address too, as Disconnect does", async () => {
    await cli(["credentials", "set", "--team", TEAM, "--login", "shop", "--secret", "-"], SECRET);
    const keysOf = async <T>(work: (keys: ReturnType<typeof callbackKeysFor>) => Promise<T>): Promise<T> => {
      const store = await openStore(`sqlite://${dbPath}`);
      try {
        return await work(callbackKeysFor(store, 3000));
      } finally {
        await store.close();
      }
    };
    const key = await keysOf((keys) => keys.keyOf(TEAM));
    expect(await keysOf((keys) => keys.teamOf(key))).toBe(TEAM);
    expect((await cli(["credentials", "remove", "--team", TEAM])).code).toBe(0);
    expect(await keysOf((keys) => keys.teamOf(key))).toBeUndefined();
  });

  it("remove of an unknown workspace still exits 0 and says so", async () => {
    expect(await cli(["credentials", "remove", "--team", TEAM])).toEqual({
      code: 0,
      stdout: `${TEAM} had no credentials; nothing to remove.\n`,
      stderr: "",
    });
  });

  it("list with another key reports the entry unreadable, exit 0, no secret", async () => {
    await cli(["credentials", "set", "--team", TEAM, "--login", "shop", "--secret", "-"], SECRET);
    const otherEnv = { ...env, CREDENTIALS_KEY: randomBytes(32).toString("hex") };
    const run = await cli(["credentials", "list"], "", otherEnv);
    expect(run.code).toBe(0);
    // list does not decrypt, so the login is still shown.
    expect(run.stdout).toMatch(/^T123ABC\tmain\tshop\t/);
    expectNoSecret(run);
  });

  it("--help prints the usage on stdout and exits 0", async () => {
    expect(await cli(["--help"])).toEqual({ code: 0, stdout: `${USAGE}\n`, stderr: "" });
    expect(await cli(["-h"])).toEqual({ code: 0, stdout: `${USAGE}\n`, stderr: "" });
  });

  it("a configuration error exits 1 with one line on stderr, no usage", async () => {
    const run = await cli(["credentials", "list"], "", { ...env, CREDENTIALS_KEY: "not-a-key" });
    expect(run.code).toBe(1);
    expect(run.stdout).toBe("");
    expect(run.stderr).toBe(
      "kassa: Configuration error: CREDENTIALS_KEY must be 32 bytes written as 64 hex digits or base64 (try: openssl rand -base64 32)\n",
    );
  });
});

describe("kassa audit verify", () => {
  /** Records `count` entries in the store's audit trail, as the server would. */
  async function record(teamId: string, count: number): Promise<string[]> {
    const store = await openStore(`sqlite://${dbPath}`);
    try {
      const trail = await openAuditTrail(store, { retentionDays: 1825 });
      const hashes: string[] = [];
      for (let n = 1; n <= count; n++) {
        const link = await trail.record({
          time: `2026-11-0${n}T10:00:00.000Z`,
          team: teamId,
          actor: "U0ANNA",
          action: "export.asked",
          object: `export ${n}`,
          outcome: "done",
        });
        hashes.push(link.hash);
      }
      return hashes;
    } finally {
      await store.close();
    }
  }

  it("says the chain holds, with its count, ends and head hash, and exits 0", async () => {
    const hashes = await record(TEAM, 3);
    const run = await cli(["audit", "verify", "--team", TEAM]);
    expect(run).toEqual({
      code: 0,
      stdout: `${TEAM}: the audit trail holds: 3 entries, 1 (2026-11-01T10:00:00.000Z) to 3 (2026-11-03T10:00:00.000Z); head 3 ${hashes[2]}.\n`,
      stderr: "",
    });
  });

  it("names the first entry that does not hold and exits 3 when an entry was altered in the store", async () => {
    await record(TEAM, 3);
    const db = new Database(dbPath);
    try {
      db.prepare(
        "UPDATE kassa_audit_entries SET entry = replace(entry, 'export 2', 'export 9') WHERE seq = 2",
      ).run();
    } finally {
      db.close();
    }
    const run = await cli(["audit", "verify", "--team", TEAM]);
    expect(run.code).toBe(3);
    expect(run.stdout).toMatch(new RegExp(`^${TEAM}: the audit trail does not hold at entry 2: .*hash`));
  });

  it("says a workspace with no entries has none (exit 0), and a missing store is an error that creates nothing", async () => {
    await record(TEAM, 1);
    expect(await cli(["audit", "verify", "--team", "T0OTHER"])).toEqual({
      code: 0,
      stdout: "T0OTHER: no audit entries.\n",
      stderr: "",
    });
    rmSync(dbPath);
    const missing = await cli(["audit", "verify", "--team", TEAM]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("no store at");
    expect(existsSync(dbPath)).toBe(false);
  });

  it("fails without --head when the newest entries were deleted: the head, kept apart, names them", async () => {
    await record(TEAM, 3);
    const db = new Database(dbPath);
    try {
      db.prepare("DELETE FROM kassa_audit_entries WHERE seq >= 2").run();
    } finally {
      db.close();
    }
    expect(await cli(["audit", "verify", "--team", TEAM])).toEqual({
      code: 3,
      stdout: `${TEAM}: the audit trail does not hold at entry 2: entries 2 to 3 are missing: the chain ends at entry 1 but its head names entry 3, so the newest entries were removed.\n`,
      stderr: "",
    });
  });

  it("with --head (the audit channel's posted heads): fails when the newest entries were deleted or one was rewritten", async () => {
    const hashes = await record(TEAM, 3);
    const db = new Database(dbPath);
    try {
      // Someone with the store deletes the newest entry and moves the head back with it: the rows
      // alone still chain, and only a posted head shows what went.
      db.prepare("DELETE FROM kassa_audit_entries WHERE seq = 3").run();
      db.prepare("UPDATE kassa_audit_heads SET seq = 2, hash = ? WHERE team = ?").run(hashes[1], TEAM);
    } finally {
      db.close();
    }
    const posted = (seq: number, hash = hashes[seq - 1] ?? "") => ["--head", `${seq}:${hash.slice(0, 12)}`];
    const earlier = await cli(["audit", "verify", "--team", TEAM, ...posted(1), ...posted(2)]);
    expect(earlier.code, earlier.stdout + earlier.stderr).toBe(0);
    const newest = await cli(["audit", "verify", "--team", TEAM, ...posted(2), ...posted(3)]);
    expect(newest.code).toBe(3);
    expect(newest.stdout).toBe(
      `${TEAM}: the audit trail does not hold at entry 3: the chain ends at entry 2 but a head was posted for entry 3: the newest entries were removed.\n`,
    );
    const rewritten = await cli(["audit", "verify", "--team", TEAM, ...posted(2, hashes[0])]);
    expect(rewritten.code).toBe(3);
    expect(rewritten.stdout).toContain("at entry 2: its hash differs from the head posted for it");
    const bad = await cli(["audit", "verify", "--team", TEAM, "--head", "three:abc"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("--head must be SEQ:HASH");
  });

  it("needs --team, and knows no other audit command", async () => {
    expect((await cli(["audit", "verify"])).code).toBe(2);
    expect((await cli(["audit", "verify", "--team", "acme"])).code).toBe(2);
    const unknown = await cli(["audit", "erase", "--team", TEAM]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("unknown command: audit erase");
  });
});

describe("kassa bad usage", () => {
  it("no arguments -> usage on stderr, exit 2", async () => {
    expect(await cli([])).toEqual({ code: 2, stdout: "", stderr: `${USAGE}\n` });
  });

  it.each([
    ["an unknown command", ["payments", "list"], "unknown command: payments list"],
    ["an unknown action", ["credentials", "frobnicate"], "unknown command: credentials frobnicate"],
    ["a missing action", ["credentials"], "unknown command: credentials"],
    ["an extra positional", ["credentials", "list", "now"], "unknown command: credentials list now"],
    [
      "a missing --team (set)",
      ["credentials", "set", "--login", "shop", "--secret", SECRET],
      "--team is required",
    ],
    ["a missing --team (remove)", ["credentials", "remove"], "--team is required"],
    [
      "a bad team id",
      ["credentials", "set", "--team", "my-team", "--login", "shop", "--secret", SECRET],
      '--team must be a Slack team id such as T0123ABCD (got "my-team")',
    ],
    [
      "a lowercase team id",
      ["credentials", "remove", "--team", "t123abc"],
      '--team must be a Slack team id such as T0123ABCD (got "t123abc")',
    ],
    ["an unknown flag", ["credentials", "list", "--bogus"], "Unknown option '--bogus'"],
    ["a missing --login", ["credentials", "set", "--team", TEAM, "--secret", SECRET], "--login is required"],
    [
      "a missing --secret",
      ["credentials", "set", "--team", TEAM, "--login", "shop"],
      "--secret is required (use --secret - to read it from stdin)",
    ],
    [
      "a bad --api-version",
      ["credentials", "set", "--team", TEAM, "--login", "shop", "--secret", SECRET, "--api-version", "v4"],
      "--api-version must be v2 or v3",
    ],
  ])("%s -> usage on stderr, exit 2", async (_label, argv, problem) => {
    const run = await cli(argv);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr.startsWith(`kassa: ${problem}`)).toBe(true);
    expect(run.stderr.endsWith(`\n\n${USAGE}\n`)).toBe(true);
    expectNoSecret(run);
    expect(existsSync(dbPath)).toBe(false);
  });

  it.each([
    ["empty stdin", ""],
    ["a bare newline", "\n"],
    ["only spaces", "   \n"],
  ])("an empty secret (%s) -> usage on stderr, exit 2, nothing stored", async (_label, stdin) => {
    const run = await cli(["credentials", "set", "--team", TEAM, "--login", "shop", "--secret", "-"], stdin);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr).toBe(`kassa: the secret is empty\n\n${USAGE}\n`);
    expect(existsSync(dbPath)).toBe(false);
  });

  it.each([
    ["not an org id", "acme"],
    ["the workspace's own id", "TEAM"],
  ])("a bad --enterprise (%s) -> usage on stderr, exit 2, nothing stored", async (_label, value) => {
    const enterprise = value === "TEAM" ? TEAM : value;
    const run = await cli([
      "credentials",
      "set",
      "--team",
      TEAM,
      "--login",
      "shop",
      "--secret",
      SECRET,
      "--enterprise",
      enterprise,
    ]);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr).toContain(`--enterprise must be the Enterprise Grid org's id such as E0123ABCD`);
    expect(existsSync(dbPath)).toBe(false);
  });

  it("an empty --secret on the command line -> exit 2", async () => {
    const run = await cli(["credentials", "set", "--team", TEAM, "--login", "shop", "--secret", ""]);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(`kassa: the secret is empty\n\n${USAGE}\n`);
  });
});

describe("npm run cli before npm run build", () => {
  it("says in one line what to run first, with no stack trace", async () => {
    const { spawnSync } = await import("node:child_process");
    const root = mkdtempSync(join(tmpdir(), "kassa-unbuilt-"));
    try {
      mkdirSync(join(root, "scripts"));
      copyFileSync(
        new URL("../scripts/cli-built.mjs", import.meta.url),
        join(root, "scripts", "cli-built.mjs"),
      );
      const run = spawnSync(
        process.execPath,
        [join(root, "scripts", "cli-built.mjs"), "credentials", "list"],
        {
          encoding: "utf8",
        },
      );
      expect(run.status).toBe(1);
      expect(run.stdout).toBe("");
      expect(run.stderr).toBe(
        "kassa: the CLI runs the built app: run `npm run build` first, then this command again.\n",
      );
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
