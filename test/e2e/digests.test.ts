import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sampleHistory } from "../../sandbox/payments-history.js";
import { Stack } from "../../sandbox/stack.js";
import { type RunningServer, startServer } from "../../src/server.js";
import { clockReading } from "../support/manual-clock.js";

/** The next Monday after today, 08:59:00 in Moscow (UTC+3): a clock the test moves on. */
function nextMonday(): Date {
  const day = new Date();
  day.setUTCDate(day.getUTCDate() + ((8 - day.getUTCDay()) % 7 || 7));
  return new Date(Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate(), 5, 59, 0));
}

describe("weekly and monthly digests", () => {
  let stack: Stack;
  let second: RunningServer | undefined;
  let clock = nextMonday();
  const now = () => clock;
  const reports = () =>
    [...stack.slack.messages.values()].filter(
      (message) =>
        message.channel === "C0REPORTS" &&
        JSON.stringify(message.blocks).includes("Invoices in the week from"),
    );

  beforeAll(async () => {
    stack = await Stack.start({
      clock: clockReading(now),
      env: { DIGEST_INTERVAL_MS: "150" },
      fake: { invoices: sampleHistory({ now: clock, days: 20, perDay: 15, seed: 9 }) },
    });
    stack.slack.users.U0ADMIN = { is_admin: true, tz: "Europe/Moscow" };
    // A second replica on the same store, with the same clock.
    second = await startServer(
      { ...stack.env },
      { clock: clockReading(now), logDestination: { write: () => {} }, paymentsRetryDelayMs: 20 },
    );
  });
  afterAll(async () => {
    await second?.stop();
    await stack?.stop();
  });
  /** A digests pass on each replica, `rounds` times. */
  const bothReplicas = async (rounds = 1) => {
    for (let round = 0; round < rounds; round += 1) {
      await stack.pass("digests");
      await second?.passes.digests();
    }
  };

  it("an admin sets a weekly report in a channel; the channel is told; members may not", async () => {
    const member = await stack.ask("digest 09:00 weekly", { userId: "U0MEMBER", channelId: "C0REPORTS" });
    expect(JSON.stringify(member.reply.body)).toContain("Only workspace admins and owners");
    // The channel's note comes first (Slack shows it to everyone), then the admin's own reply.
    const ack = await stack.command("digest 09:00 weekly", { userId: "U0ADMIN", channelId: "C0REPORTS" });
    const reply = await stack.slack.waitForReply(ack.responseId, { count: 2 });
    expect(JSON.stringify(reply.body)).toContain("Every Monday at 09:00 (Europe/Moscow)");
    const notes = [...stack.slack.messages.values()].filter((message) => message.channel === "C0REPORTS");
    expect(notes.map((message) => message.text)).toEqual([
      ":calendar: <@U0ADMIN> set up Kassa's weekly report for this channel: every Monday at 09:00 (Europe/Moscow).",
    ]);
  });

  it("posts the past week's report and its chart once when Monday 09:00 comes, with two replicas looking", async () => {
    await bothReplicas();
    expect(reports()).toHaveLength(0);
    clock = new Date(clock.getTime() + 90_000);
    await stack.slack.waitForMessages(() => reports().length > 0, 20_000);
    const chart = await stack.slack.files.waitFor(1, 20_000);
    expect(chart[0]?.channel).toBe("C0REPORTS");
    expect(chart[0]?.filename).toMatch(/^kassa-chart-week-\d{4}-\d{2}-\d{2}\.png$/);
    // Several more passes of both replicas: still one.
    await bothReplicas(2);
    expect(reports()).toHaveLength(1);
    expect(stack.slack.files.shared()).toHaveLength(1);
    const text = JSON.stringify(reports()[0]?.blocks);
    expect(text).toContain("Kassa's weekly report for this channel");
    // Single invoices' money stays with those who may see the balance (admins by default).
    expect(text).toContain("The largest payments are shown only to those who may see the balance");
  });

  it("a monthly report on the 1st brings last month's CSV to the admin who set it up", async () => {
    const ack = await stack.command("digest 08:00 monthly", { userId: "U0ADMIN", channelId: "C0REPORTS" });
    expect(JSON.stringify((await stack.slack.waitForReply(ack.responseId, { count: 2 })).body)).toContain(
      "On the 1st of every month at 08:00 (Europe/Moscow)",
    );
    const first = new Date(Date.UTC(clock.getUTCFullYear(), clock.getUTCMonth() + 1, 1, 5, 1, 0));
    clock = first;
    const files = await stack.slack.files.waitFor(3, 20_000);
    const csv = files.find((file) => file.filename.endsWith(".csv"));
    expect(csv?.channel).toBe("D0ADMIN");
    expect(csv?.bytes?.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    expect(csv?.initialComment).toMatch(/^Invoices in \w+ \d{4}: [\d,]+ invoices?, [\d,.]+ RUB paid/);
    const monthly = [...stack.slack.messages.values()].find((message) =>
      JSON.stringify(message.blocks).includes("Kassa's monthly report"),
    );
    expect(JSON.stringify(monthly?.blocks)).toContain("went to <@U0ADMIN> in their messages with Kassa");
    const { reply } = await stack.ask("digest off monthly", { userId: "U0ADMIN", channelId: "C0REPORTS" });
    expect(JSON.stringify(reply.body)).toContain("The monthly report in this channel is off.");
  });
});
