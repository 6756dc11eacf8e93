/**
 * `/invoice audit`'s pages, through the real app: Older (admins only, its value only a cursor and
 * the listing's own words, checked again), a month, and a person as Slack sends a mention.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Stack } from "../../sandbox/stack.js";

const ADMIN = "U0ADMIN";
const MEMBER = "U0MEMBER";
const OLDER = "kassa_audit_older";
const text = (body: unknown) => JSON.stringify(body);
type Block = { type: string; elements?: Array<{ action_id?: string; value?: string }> };
const olderValue = (body: Record<string, unknown>) =>
  (body.blocks as Block[]).flatMap((block) => block.elements ?? []).find((el) => el.action_id === OLDER)
    ?.value;
const lines = (body: Record<string, unknown>) => (text(body).match(/ · <@U0[A-Z]+> /g) ?? []).length;

describe("/invoice audit pages", () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await Stack.start({ storeMemoMs: 0 });
    stack.slack.users[ADMIN] = { is_admin: true };
    await stack.ask("audit", { userId: MEMBER }); // refused: entry 1
    for (let i = 0; i < 16; i += 1) await stack.ask(i % 2 ? "language en" : "language ru", { userId: ADMIN });
    await stack.ask("language en", { userId: ADMIN }); // 18 entries in all
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it("shows 15, then Older shows the rest in place, with no Older after the last", async () => {
    const first = await stack.ask("audit", { userId: ADMIN });
    expect(lines(first.reply.body)).toBe(15);
    const value = olderValue(first.reply.body);
    expect(JSON.parse(value ?? "{}")).toMatchObject({ b: 4, p: "all" });
    const older = await stack.press(OLDER, value ?? "", { userId: ADMIN, ephemeral: true });
    expect(older.reply.body.replace_original).toBe(true);
    expect(lines(older.reply.body)).toBe(3);
    expect(text(older.reply.body)).toContain("<@U0MEMBER> was refused: /invoice audit all");
    expect(olderValue(older.reply.body)).toBeUndefined();
  });

  it("refuses Older to a member (recorded), and a value naming another workspace", async () => {
    const first = await stack.ask("audit", { userId: ADMIN });
    const value = olderValue(first.reply.body) ?? "";
    const member = await stack.press(OLDER, value, { userId: MEMBER, ephemeral: true });
    expect(text(member.reply.body)).toContain("Only workspace admins and owners");
    const foreign = JSON.stringify({ ...JSON.parse(value), t: "T0OTHER" });
    const other = await stack.press(OLDER, foreign, { userId: ADMIN, ephemeral: true });
    expect(text(other.reply.body)).not.toContain("<@U0ADMIN>");
    const refusals = await stack.ask("audit act", { userId: ADMIN });
    expect(text(refusals.reply.body)).toContain("<@U0MEMBER> was refused: kassa_audit_older audit older");
  });

  it("narrows to a person (a mention as Slack sends it) and to a month", async () => {
    const member = await stack.ask("audit <@U0MEMBER|member>", { userId: ADMIN });
    expect(lines(member.reply.body)).toBe(2);
    expect(text(member.reply.body)).not.toContain("<@U0ADMIN> ");
    expect(text(member.reply.body)).toContain("by <@U0MEMBER>");
    const month = new Date().toISOString().slice(0, 7);
    const now = await stack.ask(`audit ${month} settings`, { userId: ADMIN });
    expect(lines(now.reply.body)).toBe(15);
    const rest = await stack.press(OLDER, olderValue(now.reply.body) ?? "", { userId: ADMIN });
    expect(lines(rest.reply.body)).toBe(2);
    expect(text(rest.reply.body)).not.toContain("was refused");
    const old = await stack.ask("audit 2020-01", { userId: ADMIN });
    expect(text(old.reply.body)).toContain("Nothing was recorded in this period.");
    expect(text(old.reply.body)).toContain("January 2020");
  });
});
