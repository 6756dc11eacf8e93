import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sampleHistory } from "../../sandbox/payments-history.js";
import { SANDBOX_TEAM } from "../../sandbox/slack.js";
import { Stack } from "../../sandbox/stack.js";

type Block = { type: string; elements?: Array<{ action_id?: string; value?: string }> };
const historyCalls = (stack: Stack) =>
  stack.fake.requests.filter((request) => request.path.includes("history")).length;
const cancelValue = (blocks: unknown, actionId: string) =>
  (blocks as Block[])
    .flatMap((block) => block.elements ?? [])
    .find((element) => element.action_id === actionId)?.value ?? "";

describe("long reads: progress, Cancel, one export at a time, the kept history", () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await Stack.start({ fake: { invoices: sampleHistory({ days: 40, perDay: 25, seed: 3 }) } });
    stack.slack.users.U0ADMIN = { is_admin: true, tz: "Europe/Moscow" };
    stack.slack.users.U0ADMIN2 = { is_admin: true, tz: "Europe/Moscow" };
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it("a report that reads for a while shows its progress with Cancel, then the report in its place", async () => {
    stack.fake.historyDelayMs = 1200;
    const ack = await stack.command("summary 7d", { userId: "U0ADMIN" });
    const progress = await stack.slack.waitForReply(ack.responseId, { timeoutMs: 20_000 });
    expect(JSON.stringify(progress.body)).toContain("reading the payment service's invoice history");
    expect(JSON.stringify(progress.body)).toMatch(/Read so far: \d+ pages?, [\d,]+ invoices?/);
    expect(cancelValue(progress.body.blocks, "invoice_report_cancel")).not.toBe("");
    const report = await stack.slack.waitForReply(ack.responseId, { count: 2, timeoutMs: 20_000 });
    expect(report.body.replace_original).toBe(true);
    expect(JSON.stringify(report.body.blocks)).toContain("Invoices in the last 7 days");
  });

  it("a second report a moment later asks the payment service nothing: what was read is kept", async () => {
    const before = historyCalls(stack);
    const { reply } = await stack.ask("summary 7d", { userId: "U0ADMIN" });
    expect(JSON.stringify(reply.body.blocks)).toContain("Invoices in the last 7 days");
    expect(historyCalls(stack)).toBe(before);
  });

  it("one export per workspace: a second asker is told whose is under way; Cancel stops it, nothing is sent", async () => {
    stack.fake.historyDelayMs = 1500;
    const first = await stack.ask("export 30d", { userId: "U0ADMIN" });
    expect(JSON.stringify(first.reply.body)).toContain("Exporting invoices in the last 30 days as CSV");
    const second = await stack.ask("export 7d xlsx", { userId: "U0ADMIN2" });
    expect(JSON.stringify(second.reply.body)).toContain("already under way, asked for by <@U0ADMIN>");
    await stack.slack.waitForMessages(
      (messages) =>
        messages.some((message) => message.channel === "D0ADMIN" && message.text.includes("Exporting")),
      20_000,
    );
    const progress = [...stack.slack.messages.values()].find((message) => message.channel === "D0ADMIN");
    expect(JSON.stringify(progress?.blocks)).toMatch(/Read so far: \d+ history pages?/);
    const value = cancelValue(progress?.blocks, "invoice_export_cancel");
    await stack.action("invoice_export_cancel", value, { userId: "U0ADMIN", channelId: "D0ADMIN" });
    await stack.slack.waitForMessages(
      (messages) =>
        messages.some((message) =>
          JSON.stringify(message.blocks).includes("The export was cancelled by <@U0ADMIN>"),
        ),
      20_000,
    );
    const exported = () => stack.slack.files.shared().filter((file) => !file.filename.endsWith(".png"));
    expect(exported()).toHaveLength(0);
    // Free again: the other admin's export goes through, from what is kept.
    stack.fake.historyDelayMs = 0;
    const third = await stack.ask("export 7d xlsx", { userId: "U0ADMIN2" });
    expect(JSON.stringify(third.reply.body)).toContain("Exporting");
    await stack.slack.files.waitFor(stack.slack.files.shared().length + 1, 20_000);
    expect(exported().map((file) => [file.channel, file.filename.slice(-5)])).toEqual([
      ["D0ADMIN2", ".xlsx"],
    ]);
  });
});

describe("an admin's Cancel of someone else's export", () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await Stack.start({ fake: { invoices: sampleHistory({ days: 40, perDay: 25, seed: 4 }) } });
    stack.slack.users.U0ADMIN = { is_admin: true, tz: "Europe/Moscow" };
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it("an admin's Cancel stops a member's export: the member is told who cancelled it, the admin that it was theirs", async () => {
    // Balance open to everyone: a member may export.
    const opened = await stack.submitView({
      view: {
        callback_id: "kassa_connect",
        private_metadata: JSON.stringify({ from: "command", t: SANDBOX_TEAM.id }),
      },
      values: {
        login: { value: "sandbox_register" },
        secret: { value: null },
        api_version: { selected: "v2" },
        visibility: { selected: "channel" },
        balance_visibility: { selected: "everyone" },
      },
      userId: "U0ADMIN",
    });
    expect(opened.json?.response_action).toBe("update");
    stack.fake.historyDelayMs = 1500;
    const files = stack.slack.files.shared().length;
    const asked = await stack.ask("export 30d", { userId: "U0MEMBER" });
    expect(JSON.stringify(asked.reply.body)).toContain("Exporting");
    await stack.slack.waitForMessages(
      (messages) =>
        messages.some((message) => message.channel === "D0MEMBER" && message.text.includes("Exporting")),
      20_000,
    );
    const progress = [...stack.slack.messages.values()].find((message) => message.channel === "D0MEMBER");
    const value = cancelValue(progress?.blocks, "invoice_export_cancel");
    const pressed = await stack.action("invoice_export_cancel", value, {
      userId: "U0ADMIN",
      channelId: "D0MEMBER",
    });
    const toAdmin = await stack.slack.waitForReply(pressed.responseId);
    expect(JSON.stringify(toAdmin.body)).toContain("You cancelled the export <@U0MEMBER> asked for");
    await expect
      .poll(() => JSON.stringify(progress?.blocks), { timeout: 20_000 })
      .toContain("The export was cancelled by <@U0ADMIN>");
    expect(stack.slack.files.shared()).toHaveLength(files);
  });
});
