/**
 * The demo's period steps: a 30-day report over the sandbox register's realistic history (its chart
 * written to a file whose path is printed) and a CSV export of the same 30 days (its first lines).
 */
import { writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Stack } from "../sandbox/stack.js";

type Show = (title: string, shown: string, reply: Record<string, unknown>) => void;

export async function showPeriodWork(stack: Stack, admin: string, show: Show, json: boolean): Promise<void> {
  const started = performance.now();
  const ack = await stack.command("summary 30d", { userId: admin, channelId: "C0PAYMENTS" });
  // A first report reads the history within the register's budget; after 3 s its progress shows.
  const inProgress = (body: unknown) => JSON.stringify(body).includes("invoice_report_cancel");
  let count = 1;
  let reply = await stack.slack.waitForReply(ack.responseId, { timeoutMs: 120_000 });
  if (inProgress(reply.body)) {
    show(
      "A first 30-day report reads the history page by page: its progress, with Cancel",
      "/invoice summary 30d",
      reply.body,
    );
    // The progress message is updated as pages are read; the report replaces it at the end.
    while (inProgress(reply.body)) {
      count += 1;
      reply = await stack.slack.waitForReply(ack.responseId, { count, timeoutMs: 120_000 });
    }
  }
  const took = Math.round(performance.now() - started);
  show(
    "The last 30 days against the 30 before: the change, the largest payments, the total per method",
    `/invoice summary 30d   (answered after ${took} ms; what was read is kept)`,
    reply.body,
  );
  const chart = stack.slack.files.shared().findLast((file) => file.filename.endsWith(".png"));
  if (chart?.bytes) {
    const path = join(tmpdir(), `kassa-demo-${chart.filename}`);
    writeFileSync(path, chart.bytes);
    if (!json) console.log(`The report's chart (${chart.bytes.length} bytes, 1200 x 600 PNG): ${path}\n`);
  }
  const again = performance.now();
  const second = await stack.ask("summary 30d", { userId: admin, channelId: "C0PAYMENTS" });
  if (!json)
    console.log(
      `The same report again answered after ${Math.round(performance.now() - again)} ms, from the kept history (${
        JSON.stringify(second.reply.body).length
      } bytes of Block Kit).\n`,
    );
  const shared = stack.slack.files.shared().length;
  const exported = await stack.ask("export 30d", { userId: admin, channelId: "C0PAYMENTS" });
  show(
    "Every invoice of the 30 days as a file, for reconciliation",
    "/invoice export 30d",
    exported.reply.body,
  );
  const files = await stack.slack.files.waitFor(shared + 1, 120_000);
  const csv = files.findLast((file) => file.filename.endsWith(".csv"));
  if (!csv?.bytes) throw new Error("the export sent no file");
  const lines = csv.bytes
    .toString("utf8")
    .replace(/^\uFEFF/, "")
    .split("\r\n");
  if (json) return;
  console.log(
    `In the asker's messages with Kassa: ${csv.filename} (${csv.bytes.length} bytes), "${csv.initialComment}"`,
  );
  console.log(lines.slice(0, 6).join("\n"));
  console.log(`… ${lines.length - 2} rows in all\n`);
}
