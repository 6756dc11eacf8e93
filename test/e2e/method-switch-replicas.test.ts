/**
 * A method switch's confirmation submitted to two replicas of one Redis or PostgreSQL store at once
 * (Slack redelivering it, or a double click landing on both): one `method/edit` reaches the service,
 * one act is recorded, and both modals say what happened. Each run uses a workspace of its own.
 */
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SANDBOX_LOGIN, SANDBOX_SECRET } from "../../sandbox/fake-payments.js";
import { Stack } from "../../sandbox/stack.js";
import { POSTGRES, REDIS } from "../support/engines.js";
import { ADMIN, asked, confirmedOn, methodActs, shown } from "../support/method-switch.js";

const run = randomBytes(4).toString("hex").toUpperCase();

for (const engine of [REDIS, POSTGRES]) {
  if (engine.skipped)
    console.log(`method switch on two replicas: skipping ${engine.name} (${engine.skipped})`);
  const title = engine.skipped ? `${engine.name} (skipped: ${engine.skipped})` : engine.name;
  describe.skipIf(engine.skipped !== undefined)(`a method switch on two replicas, ${title}`, () => {
    const team = `T0SW${engine.name === "redis" ? "R" : "P"}${run}`;
    let first: Stack;
    let second: Stack;
    beforeAll(async () => {
      first = await Stack.start({ connect: false, storeMemoMs: 0, env: { STORE_URL: engine.url ?? "" } });
      first.slack.users[ADMIN] = { is_admin: true };
      const connected = await first.cli(
        ["credentials", "set", "--team", team, "--login", SANDBOX_LOGIN, "--secret", "-"],
        SANDBOX_SECRET,
      );
      expect(connected.code).toBe(0);
      second = await first.replica();
    });
    afterAll(async () => {
      await first?.cli(["credentials", "remove", "--team", team]);
      await second?.stopApp();
      await first?.stop();
    });

    it("sends one edit for the same confirmation submitted to both, and records one act", async () => {
      const modal = await asked(first, () =>
        first.command("off BITCOIN", { command: "/paymethods", userId: ADMIN, teamId: team }),
      );
      const both = await confirmedOn([first, second], modal, team);
      expect(first.fake.methodEdits).toHaveLength(1);
      const answers = both.views.map(shown).join(" ");
      expect(answers).toContain("The payment service now shows *Bitcoin* `BITCOIN` *off*");
      expect(answers).toMatch(/under way|was handled|handled already/);
      await expect
        .poll(async () => (await methodActs(first, team)).map((entry) => [entry.action, entry.outcome]))
        .toEqual([["method.switched", "done"]]);
    });
  });
}
