/**
 * The audit trail read in Slack, through the real app: an admin lists what was done (in words,
 * newest first, narrowed to a subject), a member is refused (and that refusal is itself recorded),
 * and `/invoice audit verify` says the chain holds, then names the first entry altered in the store.
 */
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SANDBOX_TEAM } from "../../sandbox/slack.js";
import { Stack } from "../../sandbox/stack.js";
import { sqlitePath } from "../../src/store/keyv.js";

const ADMIN = "U0ADMIN";
const MEMBER = "U0MEMBER";
const text = (body: unknown) => JSON.stringify(body);

describe("/invoice audit", () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await Stack.start({ storeMemoMs: 0 });
    stack.slack.users[ADMIN] = { is_admin: true };
    await stack.ask("language ru", { userId: ADMIN });
    await stack.ask("language en", { userId: ADMIN });
    await stack.ask("disconnect", { userId: MEMBER });
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it("shows an admin what was done, in words, newest first", async () => {
    const { reply } = await stack.ask("audit today", { userId: ADMIN });
    expect(reply.body.response_type).toBe("ephemeral");
    const all = text(reply.body);
    const refused = all.indexOf("<@U0MEMBER> was refused: /invoice disconnect (not an admin)");
    const changed = all.indexOf("<@U0ADMIN> changed the language · language");
    expect(refused).toBeGreaterThan(0);
    expect(changed).toBeGreaterThan(refused);
    expect(all).toContain("Today · the 3 newest, newest first");
  });

  it("narrows to a subject, and refuses a member (recording the refusal)", async () => {
    const settings = await stack.ask("audit settings", { userId: ADMIN });
    expect(text(settings.reply.body)).not.toContain("was refused");
    expect(text(settings.reply.body)).toContain("the 2 newest");
    const member = await stack.ask("audit", { userId: MEMBER });
    expect(text(member.reply.body)).toContain("Only workspace admins and owners");
    const refusals = await stack.ask("audit act", { userId: ADMIN });
    expect(text(refusals.reply.body)).toContain("<@U0MEMBER> was refused: /invoice audit all");
    const usage = await stack.ask("audit yesterday", { userId: ADMIN });
    expect(text(usage.reply.body)).toContain("`/invoice audit` takes a period");
  });

  it("verify says the chain holds, then names the first entry altered in the store", async () => {
    const holds = await stack.ask("audit verify", { userId: ADMIN });
    expect(text(holds.reply.body)).toMatch(/The audit trail holds: \d+ entries/);
    const db = new Database(sqlitePath(stack.env.STORE_URL ?? ""));
    try {
      db.prepare(
        "UPDATE kassa_audit_entries SET entry = replace(entry, 'U0MEMBER', 'U0SOMEONE') WHERE team = ? AND seq = 3",
      ).run(SANDBOX_TEAM.id);
    } finally {
      db.close();
    }
    const broken = await stack.ask("audit verify", { userId: ADMIN });
    expect(text(broken.reply.body)).toContain("does not hold from entry 3");
  });
});
