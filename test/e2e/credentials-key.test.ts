import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SANDBOX_LOGIN, SANDBOX_SECRET } from "../../sandbox/fake-payments.js";
import { SANDBOX_TEAM } from "../../sandbox/slack.js";
import { SANDBOX_CREDENTIALS_KEY, Stack } from "../../sandbox/stack.js";
import { expectWithinBlockKitLimits } from "../support/block-kit-limits.js";

const ADMIN = "U0ADMIN";
const MEMBER = "U0MEMBER";
const OTHER_KEY = randomBytes(32).toString("base64");
const text = (body: Record<string, unknown>) => JSON.stringify(body);

/**
 * README step 3 once made a fresh random CREDENTIALS_KEY in every shell: after a restart from another
 * shell every command said "Something went wrong". Kassa stores the key id with each sealed secret,
 * so it can say what is wrong, to whom, and what gets it working again.
 */
describe("credentials sealed with another CREDENTIALS_KEY", () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await Stack.start({ storeMemoMs: 0 });
    stack.slack.users[ADMIN] = { is_admin: true };
    stack.env.CREDENTIALS_KEY = OTHER_KEY;
    await stack.restart();
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it("logs one line at start with how many workspaces are affected", () => {
    const lines = stack.logEntries().filter((entry) => String(entry.msg).includes("another CREDENTIALS_KEY"));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: "warn", workspaces: 1 });
    expect(text(lines[0] ?? {})).not.toContain(OTHER_KEY);
    expect(text(lines[0] ?? {})).not.toContain(SANDBOX_CREDENTIALS_KEY);
  });

  it("a lookup says so plainly to finance staff, with who can fix it; never 'something went wrong'", async () => {
    const { reply } = await stack.ask("715308958_rPwTzvsvCm", { userId: MEMBER });
    expectWithinBlockKitLimits(reply.body);
    const all = text(reply.body);
    expect(all).toContain("saved with a different encryption key");
    expect(all).toContain("A workspace admin can fix it by reconnecting the cash register");
    expect(all).not.toMatch(/something went wrong|CREDENTIALS_KEY|npm run/i);
    expect(all).not.toContain("Reconnect"); // no button for someone who may not use it
    // The log line is written once the reply is sent.
    const lineOf = () =>
      stack
        .logEntries()
        .filter((entry) => entry.command === "/invoice")
        .at(-1);
    await expect.poll(() => lineOf()?.outcome).toBe("credentials_key");
    const line = lineOf();
    expect(String(line?.hint)).toContain("restore the CREDENTIALS_KEY with key id");
  });

  it("an admin gets both ways out and a Reconnect button; /invoice status and /balance say the same", async () => {
    const lookup = await stack.ask("715308958_rPwTzvsvCm", { userId: ADMIN });
    expect(text(lookup.reply.body)).toContain("Two ways out");
    expect(text(lookup.reply.body)).toContain("Reconnect");
    const status = await stack.ask("status", { userId: ADMIN });
    const said = text(status.reply.body);
    expect(said).toContain("*Connected* to cash register");
    expect(said).toContain("Kassa cannot open this cash register's secret");
    expect(said).toContain("Two ways out");
    const balance = await stack.ask("", { command: "/balance", userId: ADMIN });
    expect(text(balance.reply.body)).toContain("saved with a different encryption key");
  });

  it("credentials list marks the row; reconnecting under the new key gets it working", async () => {
    const listed = await stack.cli(["credentials", "list"]);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toContain(`${SANDBOX_TEAM.id}\tmain\t${SANDBOX_LOGIN}`);
    expect(listed.stdout).toContain("SEALED WITH ANOTHER KEY");
    expect(listed.stdout).toContain("1 register's credentials were sealed with another CREDENTIALS_KEY");

    const set = await stack.cli(
      ["credentials", "set", "--team", SANDBOX_TEAM.id, "--login", SANDBOX_LOGIN, "--secret", "-"],
      SANDBOX_SECRET,
    );
    expect(set.code).toBe(0);
    const { reply } = await stack.ask("715308958_rPwTzvsvCm", { userId: MEMBER });
    expect(text(reply.body)).toContain("Invoice 715308958_rPwTzvsvCm");
    expect((await stack.cli(["credentials", "list"])).stdout).not.toContain("ANOTHER KEY");
  });
});
