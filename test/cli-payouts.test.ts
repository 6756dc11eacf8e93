/** `payouts policy`: the operators set and print a register's payout policy (same checks as /payout setup). */
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable, Writable } from "node:stream";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runCli } from "../src/cli.js";
import type { Env } from "../src/config/index.js";
import { payoutPoliciesFor } from "../src/payouts/policy-store.js";
import { openStore } from "../src/store/keyv.js";

const TEAM = "T123ABC";
const SALT = "secret-two-9c1e-NEVER-PRINT";
let dir: string;
let env: Env;

class TextSink extends Writable {
  text = "";
  override _write(chunk: Buffer | string, _encoding: BufferEncoding, callback: () => void) {
    this.text += Buffer.isBuffer(chunk) ? chunk.toString("utf8") : chunk;
    callback();
  }
}

async function cli(argv: string[], stdin = "") {
  const stdout = new TextSink();
  const stderr = new TextSink();
  const code = await runCli(argv, { env, stdin: Readable.from([Buffer.from(stdin)]), stdout, stderr });
  expect(stdout.text + stderr.text).not.toContain(SALT);
  return { code, stdout: stdout.text, stderr: stderr.text };
}

async function storedPolicy(key: string) {
  const store = await openStore(env.STORE_URL ?? "");
  try {
    const policies = payoutPoliciesFor(store, 2000);
    return { policy: await policies.get(key), history: await policies.history(key) };
  } finally {
    await store.close();
  }
}

const SET = [
  "payouts",
  "policy",
  "--team",
  TEAM,
  "--approvers",
  "U0AAA1,U0BBB2",
  "--channel",
  "C0PAY1",
  "--two-from",
  "50000",
  "--person-day",
  "100 000",
  "--register-day",
  "300000.50",
  "--expire",
  "24h",
];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "kassa-cli-payouts-"));
  env = {
    STORE_URL: `sqlite://${join(dir, "kassa.sqlite")}`,
    CREDENTIALS_KEY: randomBytes(32).toString("base64"),
  };
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const connect = (...more: string[]) =>
  cli(["credentials", "set", "--team", TEAM, "--login", "shop", "--secret", "s1", ...more], SALT);

describe("kassa payouts policy", () => {
  it("sets a policy by cli, prints it, and writes the change down", async () => {
    await connect("--salt", "-");
    const set = await cli([...SET, "--methods", "BITCOIN,CARDRUBP2P", "--requesters", "U0CCC3"]);
    expect(set.stderr).toBe("");
    expect(set.code).toBe(0);
    expect(set.stdout).toContain(`Saved the payout policy of ${TEAM}, version 1`);
    const { policy, history } = await storedPolicy(TEAM);
    expect(policy).toMatchObject({
      enabled: true,
      approvers: ["U0AAA1", "U0BBB2"],
      channel: "C0PAY1",
      twoApproversFrom: "50000",
      requesterDaily: "100000",
      registerDaily: "300000.5",
      expiryMinutes: 1440,
      methods: ["BITCOIN", "CARDRUBP2P"],
      requesters: ["U0CCC3"],
      version: 1,
      changedBy: "cli",
    });
    expect(history.map((change) => [change.version, change.by, change.before])).toEqual([[1, "cli", null]]);
    const shown = await cli(["payouts", "policy", "--team", TEAM]);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain("approvers: U0AAA1, U0BBB2");
    expect(shown.stdout).toContain("two approvers from: 50000 RUB");
    expect(shown.stdout).toContain("per register per day: 300000.5 RUB");
    expect(shown.stdout).toContain("a request waits: 24h");
    expect(shown.stdout).toContain("may request: U0CCC3");
  });

  it("changes one register's policy, leaving main's alone, and says what changed", async () => {
    await connect("--salt", "-");
    await connect("--register", "shop2", "--salt", "-");
    expect((await cli(SET)).code).toBe(0);
    expect((await cli([...SET, "--register", "shop2"])).code).toBe(0);
    const again = await cli([...SET, "--register", "shop2", "--expire", "30m", "--off"]);
    expect(again.stdout).toContain("version 2 (changed: enabled, expiryMinutes)");
    expect((await storedPolicy(`${TEAM}~shop2`)).policy).toMatchObject({ enabled: false, expiryMinutes: 30 });
    expect((await storedPolicy(TEAM)).policy).toMatchObject({
      enabled: true,
      expiryMinutes: 1440,
      version: 1,
    });
    const shown = await cli(["payouts", "policy", "--team", TEAM, "--register", "shop2"]);
    expect(shown.stdout).toContain("payouts: off");
  });

  it("says there is none: payouts are off", async () => {
    const shown = await cli(["payouts", "policy", "--team", TEAM]);
    expect(shown).toMatchObject({ code: 0, stdout: `${TEAM} has no payout policy: payouts are off.\n` });
  });

  it("refuses a register without Secret 2, and one not connected", async () => {
    expect((await cli(SET)).stderr).toContain("has no register connected");
    await connect();
    const refused = await cli(SET);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("has no Secret 2 stored");
    expect((await storedPolicy(TEAM)).policy).toBeUndefined();
  });

  it.each([
    [["--approvers", "U0AAA1"], "--approvers needs at least two different people"],
    [["--two-from", "0"], "--two-from must be an amount"],
    [["--person-day", "1000000"], "--person-day cannot be more than --register-day"],
    [["--expire", "73h"], "--expire must be from 5m to 72h"],
    [["--expire", "2m"], "--expire must be from 5m to 72h"],
    [["--channel", "general"], "--channel must be a channel id"],
    [["--requesters", "alice"], "--requesters must be Slack user ids"],
  ])("refuses %j, nothing stored", async (change, said) => {
    await connect("--salt", "-");
    const refused = await cli([...SET, ...change]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(said);
    expect((await storedPolicy(TEAM)).policy).toBeUndefined();
  });

  it("asks for every setting when setting one", async () => {
    const refused = await cli(["payouts", "policy", "--team", TEAM, "--approvers", "U0AAA1,U0BBB2"]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain("--channel is required to set a policy");
    expect((await cli(["payouts", "policy"])).stderr).toContain("--team is required");
    expect((await cli(["payouts", "pay", "--team", TEAM])).stderr).toContain("unknown command: payouts pay");
  });
});
