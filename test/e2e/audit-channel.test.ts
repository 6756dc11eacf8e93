/**
 * `/invoice audit export` (CSV and JSON Lines by direct message), and the audit channel and the
 * daily head, through the real app: an admin makes a channel the audit
 * channel (a member is refused, a DM is not a channel), the act is recorded, and once the UTC day
 * turns the chain's head is posted there once (in the workspace's language), matching what
 * `/invoice audit verify` says; `off` stops it.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Stack } from "../../sandbox/stack.js";
import { clockReading } from "../support/manual-clock.js";

const ADMIN = "U0ADMIN";
const MEMBER = "U0MEMBER";
const AUDIT_CHANNEL = "C0AUDIT";
const DAY_MS = 86_400_000;
const text = (body: unknown) => JSON.stringify(body);

describe("/invoice audit channel and the daily head", () => {
  let stack: Stack;
  let clock = Date.now();
  const postsIn = (channel: string) =>
    stack.slack.callsOf("chat.postMessage").filter((call) => call.body.channel === channel);
  /** The next UTC day, and a pass of the daily work in it. */
  const nextDay = async () => {
    clock += DAY_MS;
    await stack.pass("auditDay");
    return postsIn(AUDIT_CHANNEL);
  };

  beforeAll(async () => {
    stack = await Stack.start({
      storeMemoMs: 0,
      clock: clockReading(() => new Date(clock)),
      env: { AUDIT_CHECK_MS: "100" },
    });
    stack.slack.users[ADMIN] = { is_admin: true };
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it("exports the period's entries by direct message, CSV and JSON Lines with their hashes (admins)", async () => {
    const member = await stack.ask("audit export", { userId: MEMBER });
    expect(text(member.reply.body)).toContain("Only workspace admins and owners");
    expect(stack.slack.files.shared()).toHaveLength(0);
    const usage = await stack.ask("audit export yesterday", { userId: ADMIN });
    expect(text(usage.reply.body)).toContain("`/invoice audit` takes a period");
    const sent = await stack.ask("audit export today", { userId: ADMIN });
    expect(text(sent.reply.body)).toContain("(1 entries) is in your direct messages with Kassa");
    const [csv, jsonl] = stack.slack.files.shared();
    expect(csv?.channel).toBe("D0ADMIN");
    expect(jsonl?.channel).toBe("D0ADMIN");
    expect(csv?.filename).toMatch(/^kassa-audit-T\w+-today\.csv$/);
    expect(csv?.initialComment).toContain("1 entries, oldest first");
    const rows = csv?.bytes?.toString("utf8").split("\r\n") ?? [];
    expect(rows[0]).toBe(
      "\uFEFFseq,time,team,org,register,actor,action,object,before,after,outcome,reason,prev_hash,hash",
    );
    expect(rows[1]).toContain("U0MEMBER,act.refused,/invoice audit export 30d,,,refused,not an admin");
    const line = JSON.parse(jsonl?.bytes?.toString("utf8").trim() ?? "{}");
    expect(line).toMatchObject({ seq: 1, prevHash: "0".repeat(64), entry: { actor: "U0MEMBER" } });
    expect(rows[1]).toContain(`,${line.prevHash},${line.hash}`);
    // The export is itself an act.
    const listed = await stack.ask("audit export", { userId: ADMIN, channelId: "C0OTHER" });
    expect(text(listed.reply.body)).toContain("(2 entries)");
    const second = stack.slack.files.shared()[2]?.bytes?.toString("utf8") ?? "";
    expect(second).toContain("U0ADMIN,export.asked,audit export today");
  });

  it("lets only an admin choose it, in a channel, and records the choice", async () => {
    const member = await stack.ask("audit channel", { userId: MEMBER, channelId: AUDIT_CHANNEL });
    expect(text(member.reply.body)).toContain("Only workspace admins and owners");
    const dm = await stack.ask("audit channel", { userId: ADMIN, channelId: "D0DIRECT" });
    expect(text(dm.reply.body)).toContain("not a direct message");
    const set = await stack.ask("audit channel", { userId: ADMIN, channelId: AUDIT_CHANNEL });
    expect(text(set.reply.body)).toContain(`posted in <#${AUDIT_CHANNEL}> once a day`);
    const listed = await stack.ask("audit audit", { userId: ADMIN });
    expect(text(listed.reply.body)).toContain("<@U0ADMIN> chose the audit channel · audit channel");
  });

  it("posts the head once the UTC day turns, once, matching verify", async () => {
    await stack.pass("auditDay", 2);
    expect(postsIn(AUDIT_CHANNEL)).toHaveLength(0);
    const verify = await stack.ask("audit verify", { userId: ADMIN });
    const head = /Head hash `([0-9a-f]{12})`/.exec(text(verify.reply.body))?.[1];
    expect(head).toBeDefined();
    const posts = await nextDay();
    expect(posts).toHaveLength(1);
    const post = text(posts[0]?.body);
    expect(post).toContain("Audit chain head");
    expect(post).toMatch(new RegExp(`Entry \\d+, recorded <!date\\^\\d+\\^.*\`${head}[0-9a-f]{52}\``));
    await stack.pass("auditDay", 2);
    expect(postsIn(AUDIT_CHANNEL)).toHaveLength(1);
  });

  it("posts in the workspace's language, and stops after off", async () => {
    await stack.ask("language ru", { userId: ADMIN });
    const posts = await nextDay();
    expect(posts).toHaveLength(2);
    expect(text(posts[1]?.body)).toContain("Вершина цепочки журнала");
    const off = await stack.ask("audit channel off", { userId: ADMIN, channelId: "C0OTHER" });
    expect(text(off.reply.body)).toContain("больше нигде не публикуется");
    clock += DAY_MS;
    await stack.pass("auditDay", 2);
    expect(postsIn(AUDIT_CHANNEL)).toHaveLength(2);
    const listed = await stack.ask("audit audit", { userId: ADMIN });
    expect(text(listed.reply.body)).toContain("выбрал(а) канал журнала");
  });
});

describe("retention by the daily work", () => {
  let stack: Stack;
  let clock = Date.now();
  const posts = () =>
    stack.slack.callsOf("chat.postMessage").filter((call) => call.body.channel === AUDIT_CHANNEL);
  /** `days` UTC days on, and a pass of the daily work then. */
  const turnDays = async (days: number) => {
    clock += days * DAY_MS;
    await stack.pass("auditDay");
    return posts();
  };

  beforeAll(async () => {
    stack = await Stack.start({
      storeMemoMs: 0,
      clock: clockReading(() => new Date(clock)),
      env: { AUDIT_CHECK_MS: "100", AUDIT_RETENTION_DAYS: "2" },
    });
    stack.slack.users[ADMIN] = { is_admin: true };
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it("removes days past AUDIT_RETENTION_DAYS, records it, and posts the head after it", async () => {
    await stack.ask("audit channel", { userId: ADMIN, channelId: AUDIT_CHANNEL });
    await stack.ask("audit", { userId: MEMBER });
    // The member's refusal is recorded as entry 2 (after its reply).
    const verified = async () => text((await stack.ask("audit verify", { userId: ADMIN })).reply.body);
    await expect.poll(verified).toContain("The audit trail holds: 2 entries");
    // A workspace is due at the first UTC midnight after a check first sees it.
    await stack.pass("auditDay", 2);
    expect(text((await turnDays(1))[0]?.body)).toContain("Entry 2, recorded");
    // Two days on, the first day is past a two-day retention: entries 1 and 2 go, entry 3 says so.
    const after = await turnDays(2);
    expect(after).toHaveLength(2);
    expect(text(after[1]?.body)).toContain("Entry 3, recorded");
    const listed = await stack.ask("audit", { userId: ADMIN });
    expect(text(listed.reply.body)).toContain(
      "Kassa removed entries past their keeping time · entries 1 to 2",
    );
    expect(text(listed.reply.body)).not.toContain("was refused");
    const verify = await stack.ask("audit verify", { userId: ADMIN });
    expect(text(verify.reply.body)).toContain("The audit trail holds: 1 entries");
  });
});
